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
    from grader.kernel.capture import (
        _ROOTS,
        _STDLIB,
        _blake2b,
        _close,
        _CodeType,
        _compare_digest,
        _exit,
        _FunctionType,
        _marshal_loads,
        _read,
        _str_exact,
        _sys_modules,
        _write,
    )
    from grader.kernel.guard import _CWD, DENIED_MODULES, MAX_REPORTS, REPORTS, install
    from grader.kernel.isolated import Capture
    from grader.kernel.loading import _after_request, _load
    from grader.kernel.plans import OUTPUT, run_request, use_progress
    from grader.kernel.wire import encode

import _thread
import os as _os

_dup = _os.dup
_dup2 = _os.dup2
_open_fd = _os.open
_chdir = _os.chdir
_setrlimit = _resource.setrlimit
#: Modules learner code must not get without asking the import system (which the guard
#: watches): the interpreter loads ``_signal`` at start-up, and a handler gets a frame; the
#: kernel loads ``gc``, whose ``garbage`` list would hold the kernel's own frames.
_DROPPED_MODULES = ("_signal", "signal", "gc")
_LIMITS = {
    "memory_bytes": _resource.RLIMIT_AS,
    "file_bytes": _resource.RLIMIT_FSIZE,
    "open_files": _resource.RLIMIT_NOFILE,
    "processes": _resource.RLIMIT_NPROC,
    "cpu_seconds": _resource.RLIMIT_CPU,
}


def _channel(key: bytes, reading: int, writing: int) -> tuple[Any, Any, Any]:
    """The authenticated pipes: ``send(answer)``, ``send_parts(encoded answers)`` and
    ``receive()`` (requests in as length, MAC, marshal data).

    Closures, not a class: a kernel class is reachable from learner code (every class is,
    through ``object.__subclasses__()``), and a method of it would lead to the key.
    """
    buffer, number = [b""], [0]

    def mac(data: bytes) -> bytes:
        digest: bytes = _blake2b(data, key=key, digest_size=16).digest()
        return digest

    def send_line(line: bytes) -> None:
        data = mac(line).hex().encode("ascii") + b" " + line + b"\n"
        view = memoryview(data)
        while view:
            view = view[_write(writing, view) :]

    def send(answer: dict[str, Any]) -> None:
        send_line(encode({"seq": number[0], **answer}))

    def send_parts(parts: list[bytes]) -> None:
        """Answers already encoded, in one line: ``{"seq": n, "parts": [...]}``."""
        head = b'{"seq":' + str(number[0]).encode("ascii") + b',"parts":['
        send_line(head + b",".join(parts) + b"]}")

    def take(size: int) -> bytes:
        while len(buffer[0]) < size:
            chunk = _read(reading, max(size - len(buffer[0]), 1 << 16))
            if not chunk:
                _exit(0)  # the trusted side closed the pipe: grading is over
            buffer[0] += chunk
        taken, buffer[0] = buffer[0][:size], buffer[0][size:]
        return taken

    def receive() -> dict[str, Any] | None:
        """The next request, or None when it is not the one the trusted side sent."""
        size = int.from_bytes(take(8), "big")
        code = take(16)
        data = take(size)
        number[0] += 1
        expected = mac(number[0].to_bytes(8, "big") + data)
        if not _compare_digest(code, expected):
            return None
        request = _marshal_loads(data)
        return request if type(request) is dict else None

    return send, send_parts, receive


def serve(config: dict[str, Any]) -> None:
    """Start as ``config`` says, load the submission, then answer requests until EOF."""
    send, send_parts, receive = _channel(config.pop("key"), _dup(0), _dup(1))
    _quiet_standard_streams()
    _ROOTS.extend(config["roots"])
    _STDLIB.extend(config["stdlib"])
    _chdir(config["temporary"])
    _CWD[0] = config["temporary"]
    _set_limits(config)
    _drop_privileges(config.get("uid"))
    if config.get("progress_fd") is not None:
        _share_progress(config["progress_fd"])
    _seal_classes(globals())
    if config.get("guard", True):
        _close_the_back_doors()
        install(_sys.addaudithook, config["temporary"], (receive, serve))
    for name in _DROPPED_MODULES:
        _sys_modules.pop(name, None)
    capture = Capture(config.get("output_chars", 10_000))
    _sys.stdout = _sys.stderr = capture
    OUTPUT.append(capture)
    send(_load(config))
    while True:
        request = receive()
        if request is None:
            send({"done": {"forged": True, "reports": list(REPORTS)}})
            _exit(0)
        add, flush = _batch(send_parts)
        run_request(request, add)
        flush()
        send({"done": _after_request()})


#: A batch is sent once this much waits; a single larger answer goes alone, as before.
BATCH_BYTES = 1 << 18


def _batch(send_parts: Any) -> tuple[Any, Any]:
    """``add(answer)`` and ``flush()``: answers on their way out, a line at a time instead
    of one line per step.

    Most steps answer in microseconds, and a line per step cost more than the step (a MAC,
    a write, and a wake-up of the trusted side). Should the child die or hang with answers
    still here, the trusted side knows the step it reached from the shared progress and asks
    for the steps before it again (see :meth:`grader.engine.learner.Learner.run`). Closures,
    like the channel's: nothing here is a kernel class learner code could find.
    """
    parts: list[bytes] = []
    size = [0]

    def flush() -> None:
        if parts:
            send_parts(list(parts))
            parts.clear()
            size[0] = 0

    def add(answer: Any) -> None:
        part = encode(answer)
        if parts and size[0] + len(part) > BATCH_BYTES:
            flush()
        parts.append(part)
        size[0] += len(part)

    return add, flush


def _seal_classes(space: dict[str, Any]) -> None:
    """Give every method of a kernel class globals of its own, holding only the plain values
    and classes it names.

    Every class is reachable from learner code (``object.__subclasses__()`` lists them all),
    and a function's ``__globals__`` (which no audit event watches) would lead from a kernel
    class's method to the kernel's namespace: its rules, its reports, its probes. A method
    that needs a kernel function or a kernel container stops the kernel from starting, so
    that such a class is noticed, and built apart instead (see :mod:`.isolated`).
    """
    import dis

    for value in list(space.values()):
        if not isinstance(value, type) or value.__module__ != space["__name__"]:
            continue
        for name, attribute in list(vars(value).items()):
            if isinstance(attribute, staticmethod | classmethod | property):
                raise TypeError(f"kernel class {value.__name__}.{name}: not sealable")
            if type(attribute) is _FunctionType:
                setattr(value, name, _sealed(attribute, space, dis))


def _sealed(function: Any, space: dict[str, Any], dis: Any) -> Any:
    own: dict[str, Any] = {"__builtins__": dict(space["__builtins__"]), "__name__": "sealed"}
    for name in _globals_named(function.__code__, dis):
        if name in space:
            if not _sealable(space[name]):
                raise TypeError(f"{function.__qualname__} names the kernel's {name}")
            own[name] = space[name]
    for value in (*(function.__defaults__ or ()), *(function.__kwdefaults__ or {}).values()):
        if not _sealable(value):
            raise TypeError(f"{function.__qualname__}: a default that is not plain")
    sealed = _FunctionType(function.__code__, own, function.__name__, function.__defaults__,
                           function.__closure__)  # fmt: skip
    sealed.__qualname__, sealed.__doc__ = function.__qualname__, function.__doc__
    sealed.__kwdefaults__ = function.__kwdefaults__
    return sealed


def _globals_named(code: Any, dis: Any) -> set[str]:
    names = {
        instruction.argval
        for instruction in dis.get_instructions(code)
        if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME", "STORE_GLOBAL", "DELETE_GLOBAL")
    }
    for constant in code.co_consts:
        if isinstance(constant, _CodeType):
            names |= _globals_named(constant, dis)
    return names


def _sealable(value: Any) -> bool:
    """Data, a class or a C function: nothing that holds the kernel's namespace."""
    if value is None or type(value) in (int, float, str, bytes, bool, frozenset):
        return True
    if type(value) is tuple:
        return all(_sealable(item) for item in value)
    return isinstance(value, type) or type(value) is type(len)


def _close_the_back_doors() -> None:
    """Replace the few functions that do, without an audit event, what the guard denies.

    ``_imp.create_builtin`` builds a built-in module (``gc``, ``_signal``) afresh, outside the
    import system's audited path; and on Python 3.11 starting a thread raises no audit event
    at all, while a thread running beside the kernel could read what it is doing. Their
    replacements refuse and report; the original ``create_builtin``, which honest imports of
    other built-in modules still need, is kept in a generator's frame, which only the kernel
    can reach (the guard denies ``gi_frame``). What ``_imp`` and ``_thread`` hold from now on
    are functions whose globals hold nothing of the kernel.
    """
    import _imp
    from types import SimpleNamespace

    warden = _warden(_imp.create_builtin, SimpleNamespace)
    next(warden)
    allowed = {"type": type, "tuple": tuple, "next": next, "ImportError": ImportError}
    space = {"__builtins__": {**allowed, "RuntimeError": RuntimeError}, "_exact": _str_exact,
             "_ask": warden.send}  # fmt: skip
    exec(compile(_DOORS, "<grading:doors>", "exec"), space)
    _imp.create_builtin = space["create_builtin"]
    for name in ("start_new_thread", "start_new", "start_joinable_thread"):
        if hasattr(_thread, name):
            setattr(_thread, name, space["start_new_thread"])


_DOORS = """
def create_builtin(spec):
    answer = _ask(("builtin", _exact(spec.name)))
    if type(answer) is not tuple:
        answer = next(answer)  # the module is built in a generator of its own: see _building
    if type(answer) is tuple:
        raise ImportError(answer[0])
    return answer


def start_new_thread(*args, **kwargs):
    _ask(("report", "_thread.start_new_thread"))
    raise RuntimeError("can't start new thread: no threads while grading")
"""


def _warden(create: Any, spec: Any) -> Any:
    """Answers ``("builtin", name)`` with a generator that builds the module (or with
    ``(why,)``), and records ``("report", event)``. Learner code can send it anything: it
    reads exact types only."""
    request = yield None
    while True:
        kind, name = request if type(request) is tuple and len(request) == 2 else (None, None)
        answer: Any = ("refused",)
        if type(kind) is str and type(name) is str:
            if kind == "report" or any(part in DENIED_MODULES for part in name.split(".")):
                if len(REPORTS) < MAX_REPORTS:
                    event = name if kind == "report" else "_imp.create_builtin"
                    REPORTS.append({"event": event, "detail": name, "where": "?"})
                answer = (f"{name} is not available while grading",)
            else:
                answer = _building(create, spec, name)
        request = yield answer


def _building(create: Any, spec: Any, name: str) -> Any:
    """Builds one module, in a generator of its own: building one may import another (the
    expat module for ``_elementtree``), and the warden, still running, could not answer."""
    try:
        yield create(spec(name=name))
    except Exception as error:
        yield (f"{type(error).__name__}: {error}",)


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
