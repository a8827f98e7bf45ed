"""The guard: an audit hook that denies what an honest solution never needs, and reports it.

Learner code runs in the same interpreter as the kernel, so in principle it could walk to the
kernel and change how it probes (or what it reports). The kernel keeps nothing where learner
code can name it; what is left are the generic ways in, and CPython raises an *audit event*
for each of them before it happens (PEP 578). This hook, installed before the submission is
imported and impossible to remove, denies them:

* frames: ``sys._getframe``, ``sys._current_frames``, and the frame of a traceback, a
  generator or a coroutine. Denied with ValueError, which is what the standard library's own
  "no frames on this platform" fallbacks expect (``namedtuple``, ``typing``, ``enum``,
  ``warnings`` keep working). The kernel's own traceback reader is the one code allowed;
* ``gc`` introspection, tracing and profiling hooks, new audit hooks, code objects built by
  hand (or unmarshalled outside the import system), ``ctypes``, signals, threads,
  subprocesses, ``kill``, sockets;
* files: reading ``/proc`` and ``/dev/fd`` (the way to the process's own memory and pipes),
  and writing anywhere but the private temporary folder.

A denial is *reported* (its event, and the line of learner code that asked) when the
learner's own code asked for it directly, or when nothing honest ever does it (a frame
access that the standard library makes on its own, for ``namedtuple``, is denied quietly).
The kernel sends every report to the trusted side in an authenticated answer; a submission
with a report is graded ``tampered``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.kernel.calls import where_raised
    from grader.kernel.capture import _ROOTS, _STDLIB, _getframe, _list_append, _str_startswith

#: Reports kept, oldest first (the trusted side reads them after every request).
REPORTS: list[dict[str, str]] = []
#: The guard's own failures (a bug in the grader, not in the submission).
FAULTS: list[str] = []
MAX_REPORTS = 50
FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
#: Modules no honest solution imports, and whose only use here would be to get around the
#: guard or the sandbox.
DENIED_MODULES = frozenset(
    {
        "ctypes", "_ctypes", "signal", "_signal", "_posixsubprocess", "_posixshmem",
        "_testcapi", "_testinternalcapi", "_testbuffer", "_testmultiphase", "_testsinglephase",
        "_xxsubinterpreters", "_xxinterpchannels", "_interpreters", "_interpchannels",
        "_interpqueues", "_lsprof", "_remote_debugging",
    }
)  # fmt: skip
#: Modules that do not exist where learner code runs, though the interpreter could make them:
#: a browser's worker adds its bridges to JavaScript (:data:`.messages.BRIDGES`). Importing
#: one fails as importing a missing module does on the command line, unreported, so a
#: submission that tries gets the same grade in both places.
ABSENT_MODULES: list[str] = []
_IMPORT_MACHINERY = ("<frozen importlib", "<frozen zipimport")
_SPOOFED = ("<frozen", "<kernel", "<grading")
#: Paths no learner code may open: the process's memory, descriptors and the like.
_FORBIDDEN_PATHS = ("/proc", "/dev/fd", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/sys")
_WRITE_MODES = ("w", "a", "x", "+")
#: Files any code may read besides the submission, the standard library and its temp folder.
_READABLE = ("/dev/null", "/dev/urandom", "/dev/random", "/dev/zero")
_WRITE_FLAGS = 0o1 | 0o2 | 0o100 | 0o1000 | 0o2000  # O_WRONLY O_RDWR O_CREAT O_TRUNC O_APPEND


class Denied(Exception):
    """How one rule refuses an event: the exception to raise, and whether to report it."""

    def __init__(self, error: BaseException, report: str, detail: str = "") -> None:
        self.error, self.report, self.detail = error, report, detail


def install(
    sys_addaudithook: Callable[[Any], None], temporary: str, kernel: tuple[Any, ...]
) -> None:
    """Install the hook; from now on the rules hold for every line of Python in the process.

    Args:
        sys_addaudithook: ``sys.addaudithook``.
        temporary: the one folder learner code may write in.
        kernel: the kernel's functions whose own audited operations are let through (its
            traceback reader, its request decoder): trusted by their code objects, which
            learner code cannot make.
    """
    trusted = (where_raised.__code__, *(function.__code__ for function in kernel))
    busy = [False]

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if busy[0]:
            return  # the hook's own frame reads
        rule = RULES.get(event)
        if rule is None:
            return
        busy[0] = True
        try:
            rule(args, temporary)
        except Denied as denied:
            _decide(denied, event, trusted)
        except Exception as error:
            # A bug in a rule: refuse (never let an event through unchecked), and tell the
            # trusted side, which reports it as the grader's own failure.
            if len(FAULTS) < MAX_REPORTS:
                _list_append(FAULTS, f"{event}: {type(error).__name__}: {error}"[:300])
            raise RuntimeError("the grader's guard failed") from None
        finally:
            busy[0] = False

    sys_addaudithook(hook)


def _decide(denied: Denied, event: str, trusted: tuple[Any, ...]) -> None:
    """Let a trusted caller through; otherwise report (as the rule says) and refuse."""
    caller = _caller(2)  # _decide <- hook <- (C: the audited operation) <- caller
    if caller is not None and caller.f_code in trusted:
        return
    direct = _learner_line(_past_imports(caller) if event == "import" else caller)
    reported = denied.report == "always" or (denied.report == "direct" and direct is not None)
    where = direct or _first_learner_line(caller)
    if reported and len(REPORTS) < MAX_REPORTS:
        detail = denied.detail or event
        _list_append(REPORTS, {"event": event, "detail": detail[:200], "where": where or "?"})
    raise denied.error


def _caller(depth: int) -> Any:
    try:
        return _getframe(depth + 1)
    except ValueError:
        return None


def _past_imports(frame: Any) -> Any:
    """The frame that asked for an import: the first one outside the import machinery."""
    while frame is not None and _str_startswith(frame.f_code.co_filename, _IMPORT_MACHINERY):
        frame = frame.f_back
    return frame


def _first_learner_line(frame: Any) -> str | None:
    """The nearest line of learner code on the stack, for a report's location."""
    while frame is not None:
        line = _learner_line(frame)
        if line is not None:
            return line
        frame = frame.f_back
    return None


def _learner_line(frame: Any) -> str | None:
    """``file:line`` if ``frame`` runs learner code (its files, or code it compiled)."""
    if frame is None:
        return None
    filename = frame.f_code.co_filename
    for root in _ROOTS:
        if _str_startswith(filename, root + "/"):
            return f"{filename[len(root) + 1 :]}:{frame.f_lineno}"
    if _str_startswith(filename, "<") and not _str_startswith(filename, _SPOOFED):
        return f"{filename}:{frame.f_lineno}"  # code the learner compiled or exec'd
    return None


def _frames(args: tuple[Any, ...], temporary: str) -> None:
    raise Denied(ValueError("frames are not available while grading"), "direct")


def _attribute(args: tuple[Any, ...], temporary: str) -> None:
    if len(args) > 1 and args[1] in FRAME_ATTRIBUTES:
        if args[1] == "tb_frame" and _formatting_a_traceback(_caller(2)):
            return
        raise Denied(ValueError("frames are not available while grading"), "direct", args[1])


def _formatting_a_traceback(caller: Any) -> bool:
    """The ``traceback`` module walking a traceback for its own formatting (``format_exc``,
    ``print_exc``, ``logging.exception``): it reads each frame's file and line and keeps text,
    never the frame. A frame handed to anyone else (``walk_tb`` iterated by learner code) is
    still denied: the consumer of the walk must be the module itself."""
    if caller is None or caller.f_code.co_name not in _TRACEBACK_WALKS:
        return False
    consumer = caller.f_back
    return (
        _str_startswith(caller.f_code.co_filename, tuple(_STDLIB))
        and consumer is not None
        and consumer.f_code.co_filename == caller.f_code.co_filename
    )


_TRACEBACK_WALKS = frozenset({"_walk_tb_with_full_positions", "walk_tb"})


def _never(args: tuple[Any, ...], temporary: str) -> None:
    raise Denied(RuntimeError("not allowed while grading"), "always")


def _new_hook(args: tuple[Any, ...], temporary: str) -> None:
    # A RuntimeError here makes sys.addaudithook skip the new hook silently (PEP 578).
    raise Denied(RuntimeError("no more audit hooks"), "always")


def _process(args: tuple[Any, ...], temporary: str) -> None:
    raise Denied(PermissionError("no processes, signals or sockets while grading"), "always")


def _check_import(args: tuple[Any, ...], temporary: str) -> None:
    name = args[0] if args and type(args[0]) is str else ""
    if name.split(".")[0] in DENIED_MODULES:
        raise Denied(ImportError(f"{name} is not available while grading"), "direct", name)
    if name.split(".")[0] in ABSENT_MODULES:
        raise Denied(ModuleNotFoundError(f"No module named {name!r}"), "never")


def _unmarshal(args: tuple[Any, ...], temporary: str) -> None:
    """Only the import system, reading a standard library ``.pyc``: bytecode from anywhere
    else (a file learner code wrote) could be made to read and write the process's memory."""
    caller = _caller(2)  # the rule <- hook <- (C: marshal.loads) <- caller
    if caller is not None and caller.f_code.co_name == "_compile_bytecode":
        path = caller.f_locals.get("bytecode_path")
        if type(path) is str and _inside(_normal(path), _STDLIB):
            return
    raise Denied(RuntimeError("marshal is not available while grading"), "always")


def _compile(args: tuple[Any, ...], temporary: str) -> None:
    filename = args[1] if len(args) > 1 else None
    if type(filename) is bytes:
        filename = filename.decode("utf-8", "replace")
    if type(filename) is not str:
        return
    if _str_startswith(filename, _SPOOFED) or (
        _str_startswith(filename, "/") and not _inside(filename, [*_ROOTS, *_STDLIB])
    ):
        raise Denied(RuntimeError("that file name is not available"), "always", filename)


def _open(args: tuple[Any, ...], temporary: str) -> None:
    path, mode, flags = (*args, None, None, None)[:3]
    if type(path) is bytes:
        path = path.decode("utf-8", "surrogateescape")
    if type(path) is not str:
        raise Denied(PermissionError("open a file by its name"), "never")
    full = _normal(path)
    if _inside(full, _FORBIDDEN_PATHS):
        raise Denied(PermissionError(f"{path} is not available while grading"), "always", path)
    writing = (type(mode) is str and any(c in mode for c in _WRITE_MODES)) or (
        type(flags) is int and flags & _WRITE_FLAGS
    )
    if writing and not _inside(full, [temporary]):
        raise Denied(PermissionError(f"write files under {temporary} only"), "never", path)
    if not writing and not _inside(full, [*_ROOTS, *_STDLIB, temporary, *_READABLE]):
        # The kit, the grader and other submissions are not the learner's to read.
        raise Denied(PermissionError(f"{path} is not available while grading"), "direct", path)


def _paths(args: tuple[Any, ...], temporary: str) -> None:
    """Changing the file system (remove, rename, mkdir, ...) only under ``temporary``."""
    for arg in args:
        if type(arg) in (str, bytes) and not _inside(_normal(_text(arg)), [temporary]):
            raise Denied(PermissionError(f"change files under {temporary} only"), "never")


def _listing(args: tuple[Any, ...], temporary: str) -> None:
    path = args[0] if args else "."
    if type(path) in (str, bytes) and _inside(_normal(_text(path)), _FORBIDDEN_PATHS):
        raise Denied(PermissionError("not available while grading"), "always", _text(path))


def _refuse_quietly(args: tuple[Any, ...], temporary: str) -> None:
    raise Denied(PermissionError("not available while grading"), "never")


def _text(path: str | bytes) -> str:
    return path.decode("utf-8", "surrogateescape") if type(path) is bytes else str(path)


def _normal(path: str) -> str:
    """An absolute path with ``.``, ``..`` and repeated slashes resolved (as text only: the
    guard denies making links, so no link learner code made can lead elsewhere)."""
    if not _str_startswith(path, "/"):
        path = _CWD[0] + "/" + path
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts:
                parts.pop()
            continue
        _list_append(parts, part)
    return "/" + "/".join(parts)


def _inside(path: str, folders: Any) -> bool:
    return any(path == folder or _str_startswith(path, folder + "/") for folder in folders)


#: The folder relative paths start from (the kernel sets it, and the guard denies chdir).
_CWD = ["/"]

RULES: dict[str, Callable[[tuple[Any, ...], str], None]] = {
    "sys._getframe": _frames,
    "sys._current_frames": _frames,
    "sys._current_exceptions": _frames,
    "object.__getattr__": _attribute,
    "gc.get_objects": _never,
    "gc.get_referrers": _never,
    "gc.get_referents": _never,
    "sys.settrace": _never,
    "sys.setprofile": _never,
    "sys.monitoring.register_callback": _never,
    "sys.remote_exec": _never,
    "code.__new__": _never,
    "sys.addaudithook": _new_hook,
    "import": _check_import,
    "marshal.loads": _unmarshal,
    "marshal.load": _unmarshal,
    "compile": _compile,
    "open": _open,
    "os.listdir": _listing,
    "os.scandir": _listing,
    "os.chdir": _refuse_quietly,
    "os.fchdir": _refuse_quietly,
    "os.symlink": _refuse_quietly,
    "os.link": _refuse_quietly,
    **dict.fromkeys(
        ("os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.utime",
         "os.truncate", "os.mkfifo", "os.mknod", "shutil.rmtree", "shutil.move", "shutil.copyfile"),
        _paths,
    ),
    **dict.fromkeys(
        ("os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.exec", "os.system",
         "subprocess.Popen", "os.kill", "os.killpg", "signal.pthread_kill", "os.pidfd_open",
         "os.setns", "os.unshare", "_thread.start_new_thread", "_thread.start_joinable_thread",
         "socket.__new__", "socket.bind", "socket.connect", "socket.getaddrinfo",
         "socket.gethostbyname", "socket.gethostbyaddr", "socket.sendto", "socket.sendmsg",
         "ctypes.dlopen", "ctypes.dlsym", "ctypes.cdata", "ctypes.call_function",
         "ctypes.addressof", "ctypes.string_at", "ctypes.wstring_at",
         "ctypes.create_string_buffer"),
        _process,
    ),
}  # fmt: skip
