"""The kernel in a browser's worker: the same requests and answers, over messages.

In a browser the learner's interpreter is a Web Worker of its own (Pyodide), and its channel
is ``postMessage``, not a pair of pipes. This file takes the place of :mod:`.serve` there and
keeps its promises that a browser can keep: the guard is installed before the submission is
imported, every request must carry the MAC the trusted side made with a key only this
namespace holds, every answer line is ``<MAC in hex> <JSON>`` with the request's number, and
the submission runs with its output captured.

What a browser cannot do is left out: no resource limits, no uid, no file descriptors (the
trusted side stops a worker that takes too long by terminating it, and a runaway allocation
ends in a ``MemoryError`` or the worker's death). The plan's progress cannot be shared
memory either, so each change of it is posted, and the trusted side keeps the last one it
got (see :class:`Progress`).

The worker's JavaScript calls :func:`serve_messages` once, then the function it returns for
every request: there is no loop to block, so the worker stays free to receive.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.kernel.capture import (
        _ROOTS,
        _STDLIB,
        _blake2b,
        _compare_digest,
        _marshal_loads,
        _sys_modules,
    )
    from grader.kernel.clock import install_clocks
    from grader.kernel.guard import _CWD, ABSENT_MODULES, REPORTS, install
    from grader.kernel.isolated import Capture
    from grader.kernel.loading import _after_request, _load
    from grader.kernel.plans import OUTPUT, _output, run_request, use_progress
    from grader.kernel.reach import placeholder
    from grader.kernel.refusals import take_out_of_reach
    from grader.kernel.wire import decode, encode

import sys as _sys

#: What learner code must not import in a worker: the bridges to JavaScript, through which
#: it could post messages of its own (the MAC still exposes them), end its worker or reach
#: the site. They are dropped from ``sys.modules`` and the guard makes importing them again
#: fail as on the command line, where they do not exist.
BRIDGES = ("js", "pyodide", "_pyodide", "pyodide_js", "_pyodide_core")


class Progress:
    """``[example, step, call, calls made]`` as :mod:`.plans` writes it, posted to the trusted
    side when the example, the step or the call in it changes (the count of calls made changes
    at every call: posting each would cost more than the calls)."""

    def __init__(self, post: Callable[[str], None]) -> None:
        self._post = post
        self._values = [0, 0, 0, 0]

    def __getitem__(self, index: int) -> int:
        return self._values[index]

    def __setitem__(self, index: int, value: int) -> None:
        if self._values[index] != value:
            self._values[index] = value
            if index < 3:
                self._post("progress " + " ".join(str(slot) for slot in self._values))


class _Messages:
    """Authenticated answers out through ``post``, authenticated requests in."""

    def __init__(self, key: bytes, post: Callable[[str], None]) -> None:
        self.key, self.post = key, post
        self.number = 0

    def mac(self, data: bytes) -> bytes:
        return _blake2b(data, key=self.key, digest_size=16).digest()

    def send(self, answer: dict[str, Any]) -> None:
        line = encode({"seq": self.number, **answer})
        self.post("answer " + self.mac(line).hex() + " " + line.decode("ascii"))

    def receive(self, data: bytes) -> dict[str, Any] | None:
        """The request in ``data`` (MAC, then marshal data), or None when it is forged."""
        self.number += 1
        mac, body = bytes(data[:16]), bytes(data[16:])
        if not _compare_digest(mac, self.mac(self.number.to_bytes(8, "big") + body)):
            return None
        request = _marshal_loads(body)
        return request if type(request) is dict else None


def serve_messages(config: dict[str, Any], post: Callable[[str], None]) -> Callable[[bytes], bool]:
    """Start as ``config`` says, load the submission, answer ``ready`` (or why it did not
    load); return the function that answers one request, False once it was forged."""
    channel = _Messages(config.pop("key"), post)
    _ROOTS.extend(config["roots"])
    _STDLIB.extend(config["stdlib"])
    _CWD[0] = config["temporary"]
    use_progress(Progress(post))  # type: ignore[arg-type]
    ABSENT_MODULES.extend(BRIDGES)
    install_clocks(_sys_modules)
    if config.get("guard", True):
        take_out_of_reach()
        install(_sys.addaudithook, config["temporary"],
                (_Messages.receive, serve_messages, run_request, decode, placeholder))  # fmt: skip
    # Their submodules too (``pyodide.code``, ``_pyodide._importhook``): a name left in
    # ``sys.modules`` is reachable without importing anything.
    for name in [name for name in _sys_modules if name.split(".")[0] in BRIDGES]:
        _sys_modules.pop(name, None)
    for name in ("_signal", "signal"):
        _sys_modules.pop(name, None)
    capture = Capture(config.get("output_chars", 10_000))
    _sys.stdout = _sys.stderr = capture
    OUTPUT.append(capture)
    channel.send(_load(config))

    def answer(data: bytes) -> bool:
        request = channel.receive(data)
        if request is None:
            channel.send({"done": {"forged": True, "reports": list(REPORTS)}})
            return False
        if request.get("output"):
            channel.send({**_output(), "done": _after_request()})
            return True
        run_request(request, lambda part: channel.send({"part": part}))
        channel.send({"done": _after_request()})
        return True

    return answer
