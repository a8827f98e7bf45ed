"""The kernel in a child process: start-up in a safe order, then requests until the pipe ends.

The order matters. Limits, the uid and the pipes are set while only kernel code has run; the
guard is installed before the submission is imported; the modules learner code must not use
are dropped from ``sys.modules`` so that importing them again raises the audit event the
guard refuses.

Every message is authenticated with a key that reaches the kernel through the pipe (never
argv, the environment or a file) and lives in this namespace only. A request carries its
number and a MAC; an answer line is ``<MAC in hex> <JSON>``, its JSON naming the request it
answers. Learner code can write to the pipes (file descriptors are numbers), but it cannot
make a MAC: a forged, replayed or altered message is reported as tampering, not believed.
"""

from __future__ import annotations

import resource as _resource
import sys as _sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.kernel.calls import describe
    from grader.kernel.capture import (
        _ROOTS,
        _STDLIB,
        _blake2b,
        _close,
        _compare_digest,
        _exit,
        _marshal_loads,
        _read,
        _sys_modules,
        _write,
    )
    from grader.kernel.guard import _CWD, FAULTS, REPORTS, install
    from grader.kernel.isolated import Capture
    from grader.kernel.plans import FUNCTIONS, OUTPUT, run_request, use_progress
    from grader.kernel.wire import encode

import _thread
import gc as _gc
import os as _os

_count_threads = _thread._count
_gc_callbacks = _gc.callbacks
_dup = _os.dup
_dup2 = _os.dup2
_open_fd = _os.open
_chdir = _os.chdir
_setrlimit = _resource.setrlimit
#: Modules learner code must not get without asking the import system (which the guard
#: watches): the interpreter loads ``_signal`` at start-up, and a handler gets a frame.
_DROPPED_MODULES = ("_signal", "signal")
_LIMITS = {
    "memory_bytes": _resource.RLIMIT_AS,
    "file_bytes": _resource.RLIMIT_FSIZE,
    "open_files": _resource.RLIMIT_NOFILE,
    "processes": _resource.RLIMIT_NPROC,
    "cpu_seconds": _resource.RLIMIT_CPU,
}


class _Channel:
    """The authenticated pipes: requests in (length, MAC, marshal data), answers out."""

    def __init__(self, key: bytes, reading: int, writing: int) -> None:
        self.key, self.reading, self.writing = key, reading, writing
        self.buffer = b""
        self.number = 0

    def mac(self, data: bytes) -> bytes:
        return _blake2b(data, key=self.key, digest_size=16).digest()

    def send(self, answer: dict[str, Any]) -> None:
        self._send_line(encode({"seq": self.number, **answer}))

    def _send_line(self, line: bytes) -> None:
        data = self.mac(line).hex().encode("ascii") + b" " + line + b"\n"
        view = memoryview(data)
        while view:
            view = view[_write(self.writing, view) :]

    def send_parts(self, parts: list[bytes]) -> None:
        """Answers already encoded, in one line: ``{"seq": n, "parts": [...]}``."""
        head = b'{"seq":' + str(self.number).encode("ascii") + b',"parts":['
        self._send_line(head + b",".join(parts) + b"]}")

    def _take(self, size: int) -> bytes:
        while len(self.buffer) < size:
            chunk = _read(self.reading, max(size - len(self.buffer), 1 << 16))
            if not chunk:
                _exit(0)  # the trusted side closed the pipe: grading is over
            self.buffer += chunk
        taken, self.buffer = self.buffer[:size], self.buffer[size:]
        return taken

    def receive(self) -> dict[str, Any] | None:
        """The next request, or None when it is not the one the trusted side sent."""
        size = int.from_bytes(self._take(8), "big")
        mac = self._take(16)
        data = self._take(size)
        self.number += 1
        expected = self.mac(self.number.to_bytes(8, "big") + data)
        if not _compare_digest(mac, expected):
            return None
        request = _marshal_loads(data)
        return request if type(request) is dict else None


class _Batch:
    """Answers on their way out, a line at a time instead of one line per step.

    Most steps answer in microseconds, and a line per step cost more than the step (a MAC,
    a write, and a wake-up of the trusted side). Should the child die or hang with answers
    still here, the trusted side knows the step it reached from the shared progress and asks
    for the steps before it again (see :meth:`grader.engine.learner.Learner.run`)."""

    #: Send once this much is waiting; a single larger answer goes alone, as before.
    BYTES = 1 << 18

    def __init__(self, channel: _Channel) -> None:
        self.channel = channel
        self.parts: list[bytes] = []
        self.size = 0

    def add(self, answer: Any) -> None:
        part = encode(answer)
        if self.parts and self.size + len(part) > self.BYTES:
            self.flush()
        self.parts.append(part)
        self.size += len(part)

    def flush(self) -> None:
        if self.parts:
            self.channel.send_parts(self.parts)
            self.parts, self.size = [], 0


def serve(config: dict[str, Any]) -> None:
    """Start as ``config`` says, load the submission, then answer requests until EOF."""
    channel = _Channel(config.pop("key"), _dup(0), _dup(1))
    _quiet_standard_streams()
    _ROOTS.extend(config["roots"])
    _STDLIB.extend(config["stdlib"])
    _chdir(config["temporary"])
    _CWD[0] = config["temporary"]
    _set_limits(config)
    _drop_privileges(config.get("uid"))
    if config.get("progress_fd") is not None:
        _share_progress(config["progress_fd"])
    if config.get("guard", True):
        install(_sys.addaudithook, config["temporary"], (_Channel.receive, serve))
    for name in _DROPPED_MODULES:
        _sys_modules.pop(name, None)
    capture = Capture(config.get("output_chars", 10_000))
    _sys.stdout = _sys.stderr = capture
    OUTPUT.append(capture)
    channel.send(_load(config))
    while True:
        request = channel.receive()
        if request is None:
            channel.send({"done": {"forged": True, "reports": list(REPORTS)}})
            _exit(0)
        batch = _Batch(channel)
        run_request(request, batch.add)
        batch.flush()
        channel.send({"done": _after_request()})


def _after_request() -> dict[str, Any]:
    """What the trusted side must know once a request is answered: every report so far, and
    the things a guard cannot refuse on this Python (a thread started, a gc callback)."""
    if _count_threads():
        _note("thread", "a thread was started")
    if _gc_callbacks:
        _note("gc.callbacks", "a gc callback was added")
        _gc_callbacks.clear()
    return {"reports": list(REPORTS), "faults": list(FAULTS)}


def _note(event: str, detail: str) -> None:
    if not any(report["event"] == event for report in REPORTS):
        REPORTS.append({"event": event, "detail": detail, "where": "?"})


def _quiet_standard_streams() -> None:
    """Keep fds 0 and 1 for the protocol only: learner code reads /dev/null and writes the
    log (fd 2), so its prints cannot reach the pipes by accident."""
    null = _open_fd("/dev/null", _os.O_RDONLY)
    _dup2(null, 0)
    _close(null)
    _dup2(2, 1)


def _set_limits(config: dict[str, Any]) -> None:
    """Cap this process; hard limits too, so learner code cannot raise them again."""
    _setrlimit(_resource.RLIMIT_CORE, (0, 0))
    for key, which in _LIMITS.items():
        value = config.get(key)
        if value is not None:
            _setrlimit(which, (value, value))


def _drop_privileges(uid: int | None) -> None:
    """Become ``uid`` (when started as root): its own processes only, no capabilities."""
    if uid is None or _os.getuid() != 0:
        return
    _os.setgroups([])
    _os.setgid(uid)
    _os.setuid(uid)


def _share_progress(fd: int) -> None:
    """Keep the plan's progress in memory the trusted side can read when a call hangs."""
    import mmap

    shared = mmap.mmap(fd, 8)
    _close(fd)
    use_progress(memoryview(shared).cast("I"))


def _load(config: dict[str, Any]) -> dict[str, Any]:
    """Import the submission; ``ready`` with nothing else, or why it did not load."""
    try:
        module = _import(config)
    except SyntaxError as error:
        return {"load_error": _syntax(error), **_after_request()}
    except SystemExit as error:
        return {"load_error": {"kind": "exit", "code": repr(error.code)[:200]}, **_after_request()}
    except MemoryError:
        return {"load_error": {"kind": "memory"}, **_after_request()}
    except BaseException as error:
        details = {"kind": "raised", **describe(error), **_module_of(error)}
        return {"load_error": details, **_after_request()}
    missing = []
    for name in config["functions"]:
        function = getattr(module, name, None)
        if callable(function):
            FUNCTIONS[name] = function
        else:
            missing.append(name)
    if missing:
        return {"load_error": {"kind": "missing", "names": missing}, **_after_request()}
    return {"ready": _after_request()}


def _import(config: dict[str, Any]) -> Any:
    import importlib
    import importlib.util

    if config.get("file"):
        spec = importlib.util.spec_from_file_location("submission", config["file"])
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        # Registered while it runs: dataclasses and typing look the module up there.
        _sys_modules["submission"] = module
        spec.loader.exec_module(module)
        return module
    _sys.path.insert(0, config["roots"][0])
    return importlib.import_module(config["module"])


def _syntax(error: SyntaxError) -> dict[str, Any]:
    filename = error.filename or "?"
    for root in _ROOTS:
        if filename.startswith(root + "/"):
            filename = filename[len(root) + 1 :]
    text = (error.text or "").rstrip("\n")[:200]
    where = f"{filename}:{error.lineno}"
    return {"kind": "syntax", "where": where, "message": str(error.msg)[:500], "text": text}


def _module_of(error: BaseException) -> dict[str, str]:
    name = getattr(error, "name", None) if isinstance(error, ModuleNotFoundError) else None
    return {"module": name} if type(name) is str else {}
