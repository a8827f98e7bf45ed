"""The browser's transport: the kernel in a Web Worker of its own, asked synchronously.

In the page the engine (this package, hypothesis, the oracle) runs in one Web Worker and the
learner's code in another, each with its own Pyodide. The engine's property tests are
synchronous Python, so each request must block until the kernel's worker answers. It does
with JSPI: :func:`pyodide.ffi.run_sync` suspends the engine's WebAssembly stack on the
JavaScript promise that :data:`Bridge` returns, the engine worker's event loop runs meanwhile
(it receives the kernel's messages, its timers fire), and Python resumes with the answer.

The alternative, ``SharedArrayBuffer`` with ``Atomics.wait``, needs the page to be served
with COOP/COEP headers, which a plain static host (GitHub Pages) cannot send, and a blocked
worker cannot start the fresh kernel worker it needs after a hang. JSPI needs neither: it is
on by default in Chromium (137 and later); a browser without it is told so on the page.

The JavaScript side (``grader/frontends/site/static/engine.js``) stops a kernel that does
not answer by its deadline by terminating its worker; :meth:`WorkerKernel.start` then gets a
fresh one (kept warm in advance, so a task does not wait for Pyodide to load). The wire
format is the one the sandboxed child speaks: marshal requests with a MAC, MAC'd JSON lines
back, checked here exactly as :mod:`grader.transport.child` checks them. CPU time cannot be
measured in a browser: :meth:`WorkerKernel.cpu` is None, so every limit is wall-clock time.
"""

from __future__ import annotations

import hmac
import json
import marshal
import secrets
import time
from dataclasses import dataclass, field
from hashlib import blake2b
from typing import Any, Protocol

from grader import kernel
from grader.engine.learner import KernelStopped, StopKind, TaskLimits

#: The largest answer line, and the most one request may be answered with (as a child's).
MAX_LINE_CHARS = 16 * 1024 * 1024
MAX_REQUEST_CHARS = 64 * 1024 * 1024
#: Where the submission and its scratch folder live in the kernel worker's file system.
ROOT = "/submission"
TEMPORARY = "/tmp/scratch"
#: The standard library of the kernel worker's Pyodide (a zip, and the folder beside it).
STDLIB = ("/lib/python314.zip", "/lib/python3.14")

#: The first Python the kernel worker runs (the browser's twin of the child's ``BOOT``): it
#: defines ``boot(payload, files, post)``, which writes the exercise files into the worker's
#: own file system, runs the kernel's code (compiled once by the engine) in a namespace of
#: its own and hands the function that answers requests (each a JavaScript ``Uint8Array``)
#: back to the worker's JavaScript.
BOOT = """
def boot(payload, files_json, post):
    import builtins, json, marshal, os
    sources, config = marshal.loads(payload.to_bytes())
    package = config["roots"][0] + "/exercises"
    os.makedirs(package, exist_ok=True)
    os.makedirs(config["temporary"], exist_ok=True)
    for name, text in json.loads(files_json).items():
        with open(package + "/" + os.path.basename(name), "w", encoding="utf-8") as file:
            file.write(text)
    os.chdir(config["temporary"])
    space = {"__builtins__": dict(builtins.__dict__), "__name__": "grading_kernel"}
    for name, code in sources:
        exec(code, space)
    answer = space["serve_messages"](config, post)
    return lambda request: answer(request.to_bytes())
boot
"""


class Bridge(Protocol):
    """The engine worker's JavaScript, as the transport calls it (made synchronous by
    :class:`JsBridge` in a browser, by a fake in the tests).

    Each call returns ``{"lines": [...], "stopped": kind or None, "progress": [...]}``: the
    kernel's answer lines (``<MAC> <JSON>``), and, when the kernel did not answer in time or
    died, why (``stalled``: one call took longer than ``stall`` seconds; ``timed_out``: the
    whole request past ``seconds``; ``died``; ``broken``) and where it was."""

    def start(self, boot: bytes, files: dict[str, str], seconds: float) -> dict[str, Any]:
        """Take a fresh kernel worker, run :data:`BOOT` and ``boot(payload, files, post)``
        there, and wait up to ``seconds`` (counted once its Pyodide is loaded) for the
        first answer."""
        ...

    def request(self, data: bytes, seconds: float, stall: float) -> dict[str, Any]: ...

    def stop(self) -> None: ...


#: How the JavaScript says a kernel stopped, as the engine reads it.
_STOPS = {
    "stalled": StopKind.TIMED_OUT, "timed_out": StopKind.OVERRUN, "died": StopKind.DIED,
    "broken": StopKind.BROKEN, "forged": StopKind.FORGED,
}  # fmt: skip


@dataclass
class WorkerTransport:
    """Kernel workers on three exercise files (``files``: file name to source, the stubs'
    ``__init__.py`` included), looking up ``functions`` once imported. A browser cannot count
    a worker's CPU time: every limit is wall-clock time."""

    bridge: Bridge
    files: dict[str, str]
    functions: tuple[str, ...]

    measures_cpu = False
    cheap_kernels = False  # a worker that loads Pyodide: seconds

    def kernel(self) -> WorkerKernel:
        return WorkerKernel(self.bridge, self.files, self.functions)

    def close(self) -> None:
        self.bridge.stop()


@dataclass
class WorkerKernel:
    """One kernel worker with the three exercise files loaded as the ``exercises`` package."""

    bridge: Bridge
    files: dict[str, str]
    functions: tuple[str, ...]
    _key: bytes = field(default=b"", init=False)
    _number: int = field(default=0, init=False)
    _alive: bool = field(default=False, init=False)

    @property
    def alive(self) -> bool:
        return self._alive

    def start(self, limits: TaskLimits, deadline: float) -> dict[str, Any]:
        """Boot a fresh kernel worker on the files; its first answer (``ready`` or
        ``load_error``).

        Raises:
            KernelStopped: it did not finish importing in ``limits.load_seconds``, or died.
        """
        self.stop()
        self._key = secrets.token_bytes(32)
        self._number = 0
        config = {
            "key": self._key,
            "roots": [ROOT],
            "stdlib": list(STDLIB),
            "temporary": TEMPORARY,
            "functions": list(self.functions),
            "module": "exercises",
            "file": None,
        }
        # Compiled here once per page, not in every kernel: the engine's Python is the
        # kernel's (the same Pyodide), and compiling some 4,000 lines took a fresh kernel
        # about a tenth of a second, at every task of every grade.
        code = kernel.compiled_for_child(tuple(kernel.sources(kernel.WORKER_FILES)))
        boot = marshal.dumps((list(code), config))
        # The boot code travels with the kernel, as the child's does: the worker's
        # JavaScript only runs what it is given.
        self._alive = True
        answer = self.bridge.start(boot, self.files, min(limits.load_seconds, _left(deadline)))
        lines = self._lines(answer, 0)
        if len(lines) != 1 or ("ready" not in lines[0] and "load_error" not in lines[0]):
            raise self._fail(StopKind.BROKEN)
        return lines[0]

    def request(self, request: dict[str, Any], deadline: float) -> tuple[list[Any], dict[str, Any]]:
        """Send one request; its parts and its closing word. Each call may take the
        request's ``seconds`` on the clock, the whole request until ``deadline``.

        Raises:
            KernelStopped: no proper answer in time; the worker is terminated.
        """
        if not self._alive:
            raise self._fail(StopKind.DIED)
        self._number += 1
        data = marshal.dumps(request)
        mac = self._mac(self._number.to_bytes(8, "big") + data)
        stall = float(request.get("seconds") or _left(deadline))
        answer = self.bridge.request(mac + data, _left(deadline), stall)
        parts: list[Any] = []
        try:
            lines = self._lines(answer, self._number)
        except KernelStopped as stopped:
            stopped.parts = [part for line in stopped.parts for part in _parts_of(line)]
            raise
        expected = int(request.get("count") or 0)
        for line in lines:
            found = _parts_of(line)
            if found and len(parts) + len(found) <= expected:
                parts += found
            elif "done" in line and isinstance(line["done"], dict) and line is lines[-1]:
                return parts, line
            else:
                raise self._fail(StopKind.BROKEN)
        raise self._fail(StopKind.BROKEN)

    def output(self) -> str:
        if not self._alive:
            return ""
        self._number += 1
        data = marshal.dumps({"output": True})
        mac = self._mac(self._number.to_bytes(8, "big") + data)
        try:
            lines = self._lines(self.bridge.request(mac + data, 5.0, 5.0), self._number)
        except KernelStopped:
            return ""
        return str(lines[-1].get("output", "")) if lines else ""

    def _lines(self, answer: dict[str, Any], number: int) -> list[dict[str, Any]]:
        """The answer's lines, each authenticated and parsed; a stop raises, carrying the
        lines that came before it."""
        lines: list[dict[str, Any]] = []
        total = 0
        for raw in answer.get("lines", []):
            total += len(raw)
            if len(raw) > MAX_LINE_CHARS or total > MAX_REQUEST_CHARS:
                raise self._fail(StopKind.BROKEN)
            lines.append(self._line(str(raw), number))
        stopped = answer.get("stopped")
        if stopped:
            self._alive = False
            progress = [int(slot) for slot in (answer.get("progress") or [])]
            error = KernelStopped(_STOPS.get(str(stopped), StopKind.BROKEN))
            error.progress = (*progress, 0, 0, 0, 0)[:4]
            error.parts = lines
            raise error
        return lines

    def _line(self, raw: str, number: int) -> dict[str, Any]:
        mac, _, body = raw.partition(" ")
        try:
            valid = hmac.compare_digest(bytes.fromhex(mac), self._mac(body.encode("ascii")))
        except (ValueError, UnicodeEncodeError):
            valid = False
        if not valid:
            raise self._fail(StopKind.FORGED)
        try:
            answer = json.loads(body)
        except (ValueError, RecursionError):
            raise self._fail(StopKind.BROKEN) from None
        if not isinstance(answer, dict) or answer.get("seq") != number:
            raise self._fail(StopKind.BROKEN)
        return answer

    def _mac(self, data: bytes) -> bytes:
        return blake2b(data, key=self._key, digest_size=16).digest()

    def _fail(self, kind: StopKind) -> KernelStopped:
        self.stop()
        return KernelStopped(kind)

    def stop(self) -> float:
        """Terminate the kernel's worker (its CPU time is not known: 0)."""
        if self._alive:
            self._alive = False
            self.bridge.stop()
        return 0.0


def _parts_of(line: dict[str, Any]) -> list[Any]:
    """The answers a kernel's line carries (the kernel sends them one by one here)."""
    if "part" in line:
        return [line["part"]]
    parts = line.get("parts")
    return parts if isinstance(parts, list) else []


def _left(deadline: float) -> float:
    return max(0.0, deadline - time.monotonic())


class JsBridge:
    """:class:`Bridge` over the engine worker's JavaScript object, each call made synchronous
    with JSPI (:func:`pyodide.ffi.run_sync`). Only importable in Pyodide."""

    def __init__(self, js_bridge: Any) -> None:
        self._js = js_bridge

    def start(self, boot: bytes, files: dict[str, str], seconds: float) -> dict[str, Any]:
        from pyodide.ffi import run_sync, to_js

        found = run_sync(self._js.start(BOOT, to_js(boot), json.dumps(files), seconds))
        return _plain(found)

    def request(self, data: bytes, seconds: float, stall: float) -> dict[str, Any]:
        from pyodide.ffi import run_sync, to_js

        return _plain(run_sync(self._js.request(to_js(data), seconds, stall)))

    def stop(self) -> None:
        self._js.stop()


def _plain(found: Any) -> dict[str, Any]:
    value = found.to_py() if hasattr(found, "to_py") else found
    return dict(value) if isinstance(value, dict) else {"stopped": "broken"}
