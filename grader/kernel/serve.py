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
        _BlockingIOError,
        _close,
        _CodeType,
        _compare_digest,
        _exit,
        _FunctionType,
        _marshal_loads,
        _read,
        _set_blocking,
        _str_exact,
        _sys_modules,
        _write,
    )
    from grader.kernel.clock import install_clocks, restart_clock
    from grader.kernel.guard import (
        _CWD,
        ABSENT_MODULES,
        DENIED_MODULES,
        MAX_REPORTS,
        REPORTS,
        install,
    )
    from grader.kernel.isolated import Capture
    from grader.kernel.loading import _after_request, _load, _precompile
    from grader.kernel.plans import (
        MAX_ANSWER_TEXT,
        OUTPUT,
        _output,
        run_request,
        use_progress,
    )
    from grader.kernel.reach import placeholder
    from grader.kernel.refusals import take_out_of_reach
    from grader.kernel.wire import decode, encode

import _thread as _threads
import os as _os

_pipe = _os.pipe
_fork = _os.fork
_wait4 = _os.wait4
_WIFSIGNALED = _os.WIFSIGNALED
_WTERMSIG = _os.WTERMSIG
_WEXITSTATUS = _os.WEXITSTATUS

_dup = _os.dup
_dup2 = _os.dup2
_open_fd = _os.open
_chdir = _os.chdir
_setrlimit = _resource.setrlimit
_getrusage = _resource.getrusage
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


#: Who a request is for: the zygote (start a kernel, stop) or the kernel it started.
ZYGOTE, KERNEL = b"z", b"k"


def _channel(key: bytes, reading: int, writing: int, party: bytes, prefix: bytes = b"") -> Any:
    """The authenticated pipes of one party: ``send(answer)``, ``send_parts(encoded answers)``
    and ``receive()`` (requests in as length, party, MAC, marshal data).

    The zygote and each kernel it starts hold keys of their own and count their own
    requests. A request the zygote finds addressed to a kernel is one a kernel that has
    ended never read: it is skipped.

    Closures, not a class: a kernel class is reachable from learner code (every class is,
    through ``object.__subclasses__()``), and a method of it would lead to the key.
    """
    buffer, number = [b""], [0]

    def mac(data: bytes) -> bytes:
        digest: bytes = _blake2b(data, key=key, digest_size=16).digest()
        return digest

    def send_line(line: bytes) -> None:
        data = prefix + mac(line).hex().encode("ascii") + b" " + line + b"\n"
        _write_all(writing, data)

    def send(answer: dict[str, Any]) -> None:
        send_line(encode({"seq": number[0], **answer}))

    def send_parts(parts: list[bytes]) -> None:
        """Answers already encoded, in one line: ``{"seq": n, "parts": [...]}``."""
        head = b'{"seq":' + str(number[0]).encode("ascii") + b',"parts":['
        send_line(head + b",".join(parts) + b"]}")

    def take(size: int) -> bytes:
        while len(buffer[0]) < size:
            # Exactly what is missing, never more: what follows may be another party's.
            chunk = _read_blocking(reading, size - len(buffer[0]))
            if not chunk:
                _exit(0)  # the trusted side closed the pipe: grading is over
            buffer[0] += chunk
        taken, buffer[0] = buffer[0][:size], buffer[0][size:]
        return taken

    def receive() -> dict[str, Any] | None:
        """The next request for this party, or None when it is not the one the trusted side
        sent."""
        while True:
            size = int.from_bytes(take(8), "big")
            addressed = take(1)
            code = take(16)
            data = take(size)
            if addressed == party:
                break
            if party != ZYGOTE:
                return None
        number[0] += 1
        expected = mac(number[0].to_bytes(8, "big") + data)
        if not _compare_digest(code, expected):
            return None
        request = _marshal_loads(data)
        return request if type(request) is dict else None

    return send, send_parts, receive


def serve(config: dict[str, Any]) -> None:
    """Start as ``config`` says, then start a kernel for each task the trusted side asks
    for, until EOF.

    This process is the *zygote*: it has booted the kernel, set the limits, dropped to its
    uid, and never runs learner code. Each kernel is a fork of it, so a task starts from the
    same state whatever the tasks before it did, and the interpreter and the kernel are
    started once per grade. The zygote relays each kernel's answer lines whole (a kernel that
    dies half-way through a line leaves nothing half-written), waits for it, and says how it
    ended and how much CPU time it used.
    """
    key = config.pop("key")
    reading, writing = _dup(0), _dup(1)
    send, _, receive = _channel(key, reading, writing, ZYGOTE, b"Z ")
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
    _preload()
    _precompile(config, _process_cpu)
    # Once here, not in every kernel: each fork inherits the clocks and the replacements, as
    # it inherits the preloaded modules. Replacing the refused functions walks every loaded
    # module's namespace (4 ms, and a shrinking starts a kernel per attempt). In this order:
    # the refusal of ``resource.getrusage`` replaces the clock's version of it.
    install_clocks(_sys_modules)
    if config.get("guard", True):
        take_out_of_reach()
        _DOORS_CODE.append(compile(_DOORS, "<grading:doors>", "exec"))
    # Last, after the refusals and the clocks: each kernel imported it at this point of its
    # start-up (to import the submission), so it holds what it held then.
    __import__("importlib.util")
    send({"zygote": True})
    while True:
        request = receive()
        if request is None or type(request.get("kernel")) is not dict:
            send({"ended": {"forged": True}})
            _exit(0)
        number = request["kernel"].get("number", 0)
        kernel_key = _blake2b(b"kernel %d" % number, key=key, digest_size=32).digest()
        answers, relayed = _pipe()
        pid = _fork()
        if pid == 0:
            try:
                _close(answers)
                _kernel(config, request["kernel"], kernel_key, reading, relayed)
            finally:
                _exit(70)  # a kernel never returns into the zygote's loop
        _close(relayed)
        _relay(answers, writing)
        _close(answers)
        send({"ended": _ended(pid)})


#: Standard library modules submissions commonly import, loaded once in the zygote so that
#: each task's kernel (a fork) finds them loaded instead of importing them again: importing
#: ``dataclasses`` alone costs more than a task's whole work. None of them reads a clock at
#: import time, so each still sees the virtual clocks (installed after them, in the zygote).
PRELOADED = (
    "abc", "collections", "collections.abc", "copy", "dataclasses", "enum", "functools",
    "itertools", "json", "keyword", "math", "operator", "re", "string", "types", "typing",
)  # fmt: skip


def _process_cpu() -> float:
    """This process's CPU seconds, user and system (the function taken before the clocks
    replaced ``resource.getrusage``)."""
    usage = _getrusage(_resource.RUSAGE_SELF)
    return float(usage.ru_utime + usage.ru_stime)


def _preload() -> None:
    for name in PRELOADED:
        __import__(name)


def _relay(source: int, destination: int) -> None:
    """Copy whole lines from ``source`` to ``destination`` until EOF; a part of a line left
    at the end is dropped."""
    pending = b""
    while chunk := _read_blocking(source, 1 << 16):
        pending += chunk
        cut = pending.rfind(b"\n") + 1
        if cut == 0 and len(pending) <= MAX_PENDING:
            continue
        if cut == 0:  # no line end in sight: let the trusted side see what it is
            cut = len(pending)
        _write_all(destination, memoryview(pending)[:cut])
        pending = pending[cut:]


def _read_blocking(fd: int, size: int) -> bytes:
    """Up to ``size`` bytes from ``fd``, waiting for them, even if learner code made it
    non-blocking.

    Blocking is a flag of the pipe's open file description, which a fork shares: the request
    pipe is the zygote's and every kernel's at once, and a learner's ``os.set_blocking(fd,
    False)`` on it changes it for the zygote too. The read that followed then failed or not
    depending on whether the trusted side had written yet, and which task lost its kernel
    depended on the machine's load. The flag is put back, so no task loses anything.
    """
    while True:
        try:
            data: bytes = _read(fd, size)
            return data
        except _BlockingIOError:
            _set_blocking(fd, True)


def _write_all(fd: int, data: bytes | memoryview) -> None:
    """All of ``data`` to ``fd``, waiting while the pipe is full, even if learner code made it
    non-blocking (see :func:`_read_blocking`: a full pipe depends on how fast the trusted side
    reads, that is on the load)."""
    view = memoryview(data)
    while view:
        try:
            view = view[_write(fd, view) :]
        except _BlockingIOError:
            _set_blocking(fd, True)


#: The most a kernel's line may hold before the zygote passes it on unfinished: the longest
#: answer a digest is taken of (past it, digest mode sends the example to be asked in full).
MAX_PENDING = MAX_ANSWER_TEXT


def _ended(pid: int) -> dict[str, Any]:
    """How kernel ``pid`` ended: its exit code or the signal that killed it, and the CPU
    seconds it used."""
    _, status, usage = _wait4(pid, 0)
    ended: dict[str, Any] = {"cpu": usage.ru_utime + usage.ru_stime}
    if _WIFSIGNALED(status):
        ended["signal"] = _WTERMSIG(status)
    else:
        ended["code"] = _WEXITSTATUS(status)
    return ended


def _kernel(config: dict[str, Any], task: dict[str, Any], key: bytes, reading: int,
            writing: int) -> None:  # fmt: skip
    """The kernel of one task, in the zygote's fork: guard, clocks, the submission, then
    requests until the trusted side says ``end``. Never returns."""
    send, send_parts, receive = _channel(key, reading, writing, KERNEL)
    cpu = task.get("cpu_seconds")
    if cpu is not None:
        # Past the soft limit the kernel gets SIGXCPU, a second later SIGKILL: the task's
        # CPU time is the learner's own, whatever the load. Never above the process's own
        # hard limit (a task share longer than the whole grade's): a uid cannot raise it.
        _setrlimit(_resource.RLIMIT_CPU, _task_cpu_limits(int(cpu)))
    restart_clock()  # every kernel starts at the same instant, whatever ran before it
    if config.get("guard", True):
        _close_the_back_doors()
        # Trusted with marshal: the channel, and the kernel reading the examples it was sent;
        # with gc.get_referents: the digest's encoder, seeing through a mapping proxy.
        install(_sys.addaudithook, config["temporary"], (receive, serve, _kernel, run_request,
                                                          decode, placeholder))  # fmt: skip
    for name in _DROPPED_MODULES:
        _sys_modules.pop(name, None)
    capture = Capture(config.get("output_chars", 10_000))
    _sys.stdout = _sys.stderr = capture
    OUTPUT.append(capture)
    send(_load(config, task.get("load_seconds")))
    while True:
        request = receive()
        if request is None:
            send({"done": {"forged": True, "reports": list(REPORTS)}})
            _exit(0)
        if request.get("end"):
            _exit(0)
        if request.get("output"):
            send({**_output(), "done": _after_request()})
            continue
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
    exec(_DOORS_CODE[0] if _DOORS_CODE else compile(_DOORS, "<grading:doors>", "exec"), space)
    _imp.create_builtin = space["create_builtin"]
    for name in ("start_new_thread", "start_new", "start_joinable_thread"):
        if hasattr(_threads, name):
            setattr(_threads, name, space["start_new_thread"])


#: The doors' code, compiled once in the zygote: compiling it in each kernel (a fresh fork's
#: first compile) cost some 0.3 ms of a kernel's start. A code object cannot be changed.
_DOORS_CODE: list[Any] = []
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
            if kind == "builtin" and name.split(".")[0] in ABSENT_MODULES:
                answer = (f"No module named {name!r}",)  # missing, quietly
            elif kind == "report" or any(part in DENIED_MODULES for part in name.split(".")):
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


def _task_cpu_limits(seconds: int) -> tuple[int, int]:
    """The soft and hard CPU limits of a task's kernel: a second past its share, and one
    more; within the zygote's hard limit, the soft one a second below it."""
    hard = _resource.getrlimit(_resource.RLIMIT_CPU)[1]
    if hard == _resource.RLIM_INFINITY or hard >= seconds + 2:
        return seconds + 1, seconds + 2
    return max(hard - 1, 0), hard


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

    shared = mmap.mmap(fd, 16)
    _close(fd)
    use_progress(memoryview(shared).cast("I"))
