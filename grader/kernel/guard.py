"""The guard: an audit hook that denies what an honest solution never needs, and reports it.

Learner code runs in the same interpreter as the kernel, so in principle it could walk to the
kernel and change how it probes (or what it reports). The kernel keeps nothing where learner
code can name it; what is left are the generic ways in, and CPython raises an *audit event*
for each of them before it happens (PEP 578). This hook, installed before the submission is
imported and impossible to remove, denies them:

* frames: ``sys._getframe``, ``sys._current_frames``, and the frame of a traceback, a
  generator or a coroutine, whoever asks (the ``traceback`` module too: it hands each frame's
  globals to ``linecache``, which learner code can replace). Denied with ValueError, which is
  what the standard library's own "no frames on this platform" fallbacks expect
  (``namedtuple``, ``typing``, ``enum``, ``logging`` keep working). The kernel's own traceback
  reader is the one code allowed;
* ``gc`` (its module cannot be imported: ``gc.garbage`` would hold the kernel's frames),
  tracing and profiling hooks, new audit hooks, code objects built by hand or unmarshalled
  from anything but the standard library's own ``.pyc`` files, compiling under a file name that
  is not plain text or that claims a standard library file it is not, ``ctypes`` and native
  code (extension modules from outside the standard library, SQLite extensions), signals,
  threads, subprocesses, ``kill``, ``prlimit``, sockets;
* files: reading ``/proc`` and ``/dev/fd`` (the way to the process's own memory and pipes),
  reading outside the submission, the standard library and the temporary folder, opening a
  folder outside it (a ``dir_fd`` would lead elsewhere), and changing anything outside it.

What raises no event at all (``faulthandler``, ``os.memfd_create``, ``sqlite3``,
``sys.getrefcount``, ...) is taken out of reach before the submission is imported, as the
tables in :mod:`.refusals` say, each entry with its reason: a refused module cannot be
imported and a refused function raises the guard's own event, both reported; a missing
one fails quietly, as on a system without it.

The hook runs no learner code: every argument of an event may come from learner code
(``sys.audit`` raises any event with any arguments), so each is checked for its exact type
before it is used, and the hook makes no object whose class learner code could have
changed. While it runs it lets every event through (its own reads of frames), so learner
code running inside it would be free: that is what the exact types prevent.

A denial is *reported* (its event, and the line of learner code that asked) when the
learner's own code asked for it directly, or when nothing honest ever does it (a frame
access that the standard library makes on its own, for ``namedtuple``, is denied quietly).
The kernel sends every report to the trusted side in an authenticated answer; a submission
with a report is graded ``tampered``.
"""

from __future__ import annotations

import _thread as _guard_thread
import gc as _guard_gc
import posix as _guard_posix
import stat as _guard_stat
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.kernel.calls import where_raised
    from grader.kernel.capture import (
        _ROOTS,
        _STDLIB,
        _TRUSTED_READ,
        _getframe,
        _list_append,
        _str_exact,
        _str_startswith,
    )
    from grader.kernel.refusals import (
        MISSING_MODULES,
        REFUSAL_CODE,
        REFUSED_EVENT,
        REFUSED_MODULES,
    )

#: Reports kept, oldest first (the trusted side reads them after every request).
REPORTS: list[dict[str, str]] = []
#: The guard's own failures (a bug in the grader, not in the submission).
FAULTS: list[str] = []
MAX_REPORTS = 50
FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
#: Modules no honest solution imports, whose only use here would be to get around the guard
#: or the sandbox; and modules loaded already (``_imp``, ``_thread``, ``posix``, ``sys``) whose
#: names stop them from being built again, with the functions the kernel replaced. Each has
#: its reason in :data:`.refusals.REFUSED_MODULES`.
DENIED_MODULES = frozenset(REFUSED_MODULES)
#: Modules that do not exist where learner code runs, though the interpreter could make them:
#: the missing ones of :data:`.refusals.MISSING_MODULES`, and in a browser's worker its
#: bridges to JavaScript (:data:`.messages.BRIDGES`). Importing one fails as importing a
#: missing module does, unreported, so a submission that tries gets the same grade as one
#: that does not, in every place.
ABSENT_MODULES: list[str] = list(MISSING_MODULES)
_IMPORT_MACHINERY = ("<frozen importlib", "<frozen zipimport")
_SPOOFED = ("<frozen", "<kernel", "<grading")
#: Paths no learner code may open: the process's memory, descriptors and the like.
_FORBIDDEN_PATHS = ("/proc", "/dev/fd", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/sys")
_WRITE_MODES = ("w", "a", "x", "+")
#: Files any code may read besides the submission, the standard library and its temp folder.
_READABLE = ("/dev/null", "/dev/urandom", "/dev/random", "/dev/zero")
_WRITE_FLAGS = 0o1 | 0o2 | 0o100 | 0o1000 | 0o2000  # O_WRONLY O_RDWR O_CREAT O_TRUNC O_APPEND
_CO_OPTIMIZED = 0x1  # a function's frame: its locals are its variables, nothing else
_PYC_HEADER = 16
#: What a rule answers when it denies: the exception to raise, whether to report
#: (``always``, ``direct``: when learner code asked itself, ``never``), and what to show.
Denial = tuple[BaseException, str, str]


def _deny(error: BaseException, report: str, detail: str = "") -> Denial:
    return (error, report, detail)


def install(
    sys_addaudithook: Callable[[Any], None], temporary: str, kernel: tuple[Any, ...]
) -> None:
    """Install the hook; from now on the rules hold for every line of Python in the process.

    The refused functions must be out of reach first (:func:`.refusals.take_out_of_reach`,
    which compiles, under a name the hook refuses): the zygote takes them out once, before it
    forks any kernel, and a browser's worker just before it calls this.

    Args:
        sys_addaudithook: ``sys.addaudithook``.
        temporary: the one folder learner code may write in.
        kernel: the kernel's functions whose own audited operations are let through (its
            traceback reader, its request decoder): trusted by their code objects, which
            learner code cannot make.
    """
    trusted = (where_raised.__code__, *(function.__code__ for function in kernel))
    busy: set[int] = set()
    thread = _guard_thread.get_ident
    gc_enabled, gc_disable, gc_enable = _guard_gc.isenabled, _guard_gc.disable, _guard_gc.enable

    rule_of, trusted_read = RULES.get, _TRUSTED_READ

    def hook(event: str, args: tuple[Any, ...]) -> None:
        # ``event`` is always an exact str (CPython makes it from a C string); ``args`` may be
        # anything learner code passed to sys.audit.
        # Events without a rule first, and with the least work: ``builtins.id`` is one, and
        # ``copy.deepcopy`` calls ``id()`` for every object it copies. A submission that
        # deep-copies its log made 18.7 million of them in one grade, and every check done
        # before this one cost it seconds of CPU.
        rule = rule_of(event)
        if rule is None:
            return
        if trusted_read[0] and event == "gc.get_referents":
            return  # the digest reading through a mapping proxy (see reach.placeholder)
        me = thread()
        if me in busy:
            return  # the hook's own frame reads (in this thread: never another's)
        refusal = None
        collecting = gc_enabled()
        try:
            # No garbage collection while the hook lets everything through: a collection
            # runs the __del__ of learner objects, which would run here, unchecked.
            gc_disable()
            busy.add(me)
            denial = rule(args, temporary)
            if denial is not None:
                refusal = _decide(denial, event, trusted)
        except (RecursionError, MemoryError):
            # Learner code used up the stack or the memory before asking: refuse, and do
            # not call it a fault of the guard's.
            refusal = RuntimeError("not available while grading")
        except Exception as error:
            # A bug in a rule: refuse (never let an event through unchecked), and tell the
            # trusted side, which reports it as the grader's own failure.
            if len(FAULTS) < MAX_REPORTS:
                _list_append(FAULTS, f"{event}: {type(error).__name__}: {error}"[:300])
            refusal = RuntimeError("the grader's guard failed")
        finally:
            busy.discard(me)
            if collecting:
                gc_enable()
        if refusal is not None:
            # Raised here, outside every except clause, so that it carries no __context__
            # from inside the guard.
            raise refusal

    sys_addaudithook(hook)


def _decide(denial: Denial, event: str, trusted: tuple[Any, ...]) -> BaseException | None:
    """None for a trusted caller; otherwise report (as the rule says) and return the error."""
    error, report, detail = denial
    caller = _caller(2)  # _decide <- hook <- (C: the audited operation) <- caller
    if caller is not None and any(caller.f_code is code for code in trusted):
        return None
    if caller is not None and any(caller.f_code is code for code in REFUSAL_CODE):
        caller = caller.f_back  # a refused function: who called it
    direct = _learner_line(_past_imports(caller) if event == "import" else caller)
    reported = report == "always" or (report == "direct" and direct is not None)
    where = direct or _first_learner_line(caller)
    if reported and len(REPORTS) < MAX_REPORTS:
        _list_append(REPORTS, {"event": event, "detail": (detail or event)[:200],
                               "where": where or "?"})  # fmt: skip
    return error


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
    # An exact copy: ``_imp._fix_co_filename`` can give a code object a str subclass as its
    # file name, whose own methods would run here.
    filename = _str_exact(frame.f_code.co_filename)
    for root in _ROOTS:
        if _str_startswith(filename, root + "/"):
            return f"{filename[len(root) + 1 :]}:{frame.f_lineno}"
    if _str_startswith(filename, "<") and not _str_startswith(filename, _SPOOFED):
        return f"{filename}:{frame.f_lineno}"  # code the learner compiled or exec'd
    return None


def _text_of(value: Any) -> str | None:
    """``value`` as an exact str when it is a str or bytes (of any subclass), else None;
    never runs a method of a subclass."""
    kind = type(value)
    if kind is str or issubclass(kind, str):
        return _str_exact(value)  # an exact str itself, or a copy as one
    if kind is bytes or issubclass(kind, bytes):
        return bytes.decode(bytes(memoryview(value)), "utf-8", "surrogateescape")
    return None


# --- the rules: each gets the event's arguments and returns None (allowed) or a Denial ---
def _frames(args: tuple[Any, ...], temporary: str) -> Denial | None:
    return _deny(ValueError("frames are not available while grading"), "direct")


def _attribute(args: tuple[Any, ...], temporary: str) -> Denial | None:
    name = _text_of(args[1]) if len(args) > 1 else None
    if name is not None and name in FRAME_ATTRIBUTES:
        return _deny(ValueError("frames are not available while grading"), "direct", name)
    return None


def _never(args: tuple[Any, ...], temporary: str) -> Denial | None:
    return _deny(RuntimeError("not allowed while grading"), "always")


def _new_hook(args: tuple[Any, ...], temporary: str) -> Denial | None:
    # A RuntimeError here makes sys.addaudithook skip the new hook silently (PEP 578).
    return _deny(RuntimeError("no more audit hooks"), "always")


def _process(args: tuple[Any, ...], temporary: str) -> Denial | None:
    return _deny(PermissionError("no processes, signals or sockets while grading"), "always")


def _native(args: tuple[Any, ...], temporary: str) -> Denial | None:
    return _deny(PermissionError("no native code while grading"), "always")


def _check_import(args: tuple[Any, ...], temporary: str) -> Denial | None:
    name = (_text_of(args[0]) if args else None) or ""
    if any(part in DENIED_MODULES for part in name.split(".")):
        return _deny(ImportError(f"{name} is not available while grading"), "direct", name)
    if name.split(".")[0] in ABSENT_MODULES:
        return _missing(name)
    # An extension module (the import system names its file): only the standard library's
    # own, and none of the denied ones under another name (``x._ctypes``).
    path = _text_of(args[1]) if len(args) > 1 else None
    if path is not None:
        stem = path.rsplit("/", 1)[-1].split(".", 1)[0]
        if stem in ABSENT_MODULES:
            return _missing(stem)
        if stem in DENIED_MODULES or not _inside(_normal(path), _STDLIB):
            return _deny(ImportError(f"{name} is not available while grading"), "always", path)
    return None


def _missing(name: str) -> Denial:
    """A module that is not there: the error a Python built without it raises, unreported."""
    return _deny(ModuleNotFoundError(f"No module named {name!r}", name=name), "never")


def _unmarshal(args: tuple[Any, ...], temporary: str) -> Denial | None:
    """Only the import system reading a standard library ``.pyc``, and only the bytes that
    file holds: bytecode from anywhere else (a file learner code wrote, bytes it made) could
    be made to read and write the process's memory."""
    caller = _caller(2)  # the rule <- hook <- (C: marshal.loads) <- caller
    data: Any = args[0] if args else None
    if (
        caller is not None
        and caller.f_code.co_name == "_compile_bytecode"
        and caller.f_code.co_flags & _CO_OPTIMIZED
        and _str_startswith(_str_exact(caller.f_code.co_filename), _IMPORT_MACHINERY)
        and type(data) in (bytes, memoryview)
    ):
        local = caller.f_locals  # a function's frame: a fresh dict of its variables
        path = local.get("bytecode_path") if type(local) is dict else None
        if type(path) is str and _inside(_normal(path), _STDLIB) and _file_holds(path, data):
            return None
    return _deny(RuntimeError("marshal is not available while grading"), "always")


def _file_holds(path: str, data: bytes | memoryview) -> bool:
    """Whether the ``.pyc`` file at ``path`` holds exactly ``data`` after its header."""
    content = _read_file(path)
    return content is not None and content[_PYC_HEADER:] == data


# Taken now: learner code may replace a module's functions, and the hook must never call one
# of its (it would run with every event let through).
_posix_open, _posix_read, _posix_close = _guard_posix.open, _guard_posix.read, _guard_posix.close
_posix_stat, _O_RDONLY, _is_dir = _guard_posix.stat, _guard_posix.O_RDONLY, _guard_stat.S_ISDIR


def _read_file(path: str) -> bytes | None:
    try:
        fd = _posix_open(path, _O_RDONLY)
    except OSError:
        return None
    chunks: list[bytes] = []
    try:
        while chunk := _posix_read(fd, 1 << 20):
            _list_append(chunks, chunk)
    except OSError:
        return None
    finally:
        _posix_close(fd)
    return b"".join(chunks)


def _is_folder(path: str) -> bool:
    try:
        return _is_dir(_posix_stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _compile(args: tuple[Any, ...], temporary: str) -> Denial | None:
    source, filename = (*args, None, None)[:2]
    if filename is None:
        return None
    if type(filename) not in (str, bytes):
        # A str subclass as file name would run its own methods wherever the file name of
        # that code is read (tracebacks, the guard's reports).
        kind = type(filename).__name__
        return _deny(RuntimeError("compile with a plain file name"), "always", kind)
    name = _text_of(filename) or ""
    if _str_startswith(name, _SPOOFED):
        return _deny(RuntimeError("that file name is not available"), "always", name)
    if not _str_startswith(name, "/"):
        return None
    if _inside(name, _ROOTS):
        return None
    if _inside(name, _STDLIB) and type(source) is bytes and source == _read_file(name):
        return None  # the import system compiling a standard library module it has no .pyc for
    return _deny(RuntimeError("that file name is not available"), "always", name)


def _open(args: tuple[Any, ...], temporary: str) -> Denial | None:
    path, mode, flags = (*args, None, None, None)[:3]
    if type(path) not in (str, bytes):
        return _deny(PermissionError("open a file by its name"), "never")
    path = _text_of(path) or ""
    full = _normal(path)
    if _inside(full, _FORBIDDEN_PATHS):
        return _deny(PermissionError(f"{path} is not available while grading"), "always", path)
    writing = (type(mode) is str and any(c in mode for c in _WRITE_MODES)) or (
        type(flags) is int and flags & _WRITE_FLAGS
    )
    if writing and not _inside(full, [temporary]):
        return _deny(PermissionError(f"write files under {temporary} only"), "never", path)
    if writing and not _spend_a_write():
        return _full()
    if not writing and not _inside(full, [temporary]) and _is_folder(path):
        # A folder's descriptor is what ``dir_fd`` takes, and the ``open`` event does not
        # carry ``dir_fd``: ``os.open("x", O_CREAT, dir_fd=folder)`` would look, to this
        # rule, like a file in the temporary folder. So only the temporary folder's own.
        return _deny(PermissionError(f"{path} is not available while grading"), "never", path)
    if not writing and not _inside(full, [*_ROOTS, *_STDLIB, temporary, *_READABLE]):
        # The kit, the grader and other submissions are not the learner's to read.
        return _deny(PermissionError(f"{path} is not available while grading"), "direct", path)
    return None


def _database(args: tuple[Any, ...], temporary: str) -> Denial | None:
    """SQLite opens its files itself (no ``open`` event): in memory, or under the temp
    folder, by a plain path (not a ``file:`` URI, which could ask for any file)."""
    name = _text_of(args[0]) if args else None
    if name is None or type(args[0]) not in (str, bytes):
        return _deny(PermissionError("open a database by its name"), "direct")
    if name in ("", ":memory:"):
        return None
    if not _str_startswith(name, "file:") and _inside(_normal(name), [temporary]):
        return None if _spend_a_write() else _full()
    return _deny(PermissionError(f"databases under {temporary} only"), "direct", name)


def _paths(args: tuple[Any, ...], temporary: str) -> Denial | None:
    """Changing the file system (remove, rename, mkdir, ...) only under ``temporary``."""
    for arg in args:
        if type(arg) in (str, bytes) and not _inside(_normal(_text_of(arg) or ""), [temporary]):
            return _deny(PermissionError(f"change files under {temporary} only"), "never")
    return None


def _making(args: tuple[Any, ...], temporary: str) -> Denial | None:
    """Making a folder or a FIFO: under ``temporary``, and within its budget."""
    denial = _paths(args, temporary)
    if denial is None and not _spend_a_write():
        return _full()
    return denial


#: How many files (and folders) learner code may open for writing or make in its temporary
#: folder, each capped by the file size limit: with bubblewrap the folder is a small tmpfs;
#: with a uid of its own it is on the machine's disk, and this keeps it small too (16 files
#: of at most 2 MiB). An honest solution writes none.
MAX_WRITES = 16
_WRITES = [0]


def _full() -> Denial:
    return _deny(OSError(28, "the temporary folder is full"), "never")


def _spend_a_write() -> bool:
    if _WRITES[0] >= MAX_WRITES:
        return False
    _WRITES[0] += 1
    return True


def _listing(args: tuple[Any, ...], temporary: str) -> Denial | None:
    path = args[0] if args else "."
    if type(path) in (str, bytes):
        text = _text_of(path) or ""
        if _inside(_normal(text), _FORBIDDEN_PATHS):
            return _deny(PermissionError("not available while grading"), "always", text)
    return None


def _refused(args: tuple[Any, ...], temporary: str) -> Denial | None:
    """A function of :data:`.refusals.REFUSED_FUNCTIONS`, called: refused, and reported when
    learner code called it itself."""
    name = (_text_of(args[0]) if args else None) or "?"
    return _deny(PermissionError(f"{name} is not available while grading"), "direct", name)


def _refuse_quietly(args: tuple[Any, ...], temporary: str) -> Denial | None:
    return _deny(PermissionError("not available while grading"), "never")


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

RULES: dict[str, Callable[[tuple[Any, ...], str], Denial | None]] = {
    "sys._getframe": _frames,
    "sys._current_frames": _frames,
    "sys._current_exceptions": _frames,
    "sys._getframemodulename": _frames,
    REFUSED_EVENT: _refused,
    "object.__getattr__": _attribute,
    "gc.get_objects": _never,
    "gc.get_referrers": _never,
    "gc.get_referents": _never,
    "sys.settrace": _never,
    "sys.setprofile": _never,
    "sys.monitoring.register_callback": _never,
    "sys.remote_exec": _never,
    "code.__new__": _never,
    "resource.prlimit": _never,
    "sys.addaudithook": _new_hook,
    "import": _check_import,
    "marshal.loads": _unmarshal,
    "marshal.load": _unmarshal,
    "compile": _compile,
    "open": _open,
    "sqlite3.connect": _database,
    "os.listdir": _listing,
    "os.scandir": _listing,
    "os.chdir": _refuse_quietly,
    "os.fchdir": _refuse_quietly,
    "os.symlink": _refuse_quietly,
    "os.link": _refuse_quietly,
    **dict.fromkeys(
        ("os.remove", "os.rename", "os.rmdir", "os.chmod", "os.chown", "os.utime",
         "os.truncate", "os.setxattr", "os.removexattr", "os.chflags", "shutil.rmtree",
         "shutil.move", "shutil.copyfile"),
        _paths,
    ),
    **dict.fromkeys(("os.mkdir", "os.mkfifo", "os.mknod"), _making),
    **dict.fromkeys(
        ("os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.exec", "os.system",
         "subprocess.Popen", "os.kill", "os.killpg", "signal.pthread_kill", "os.pidfd_open",
         "os.setns", "os.unshare", "_thread.start_new_thread", "_thread.start_joinable_thread",
         "socket.__new__", "socket.bind", "socket.connect", "socket.getaddrinfo",
         "socket.gethostbyname", "socket.gethostbyaddr", "socket.sendto", "socket.sendmsg",
         "syslog.openlog", "syslog.syslog"),
        _process,
    ),
    **dict.fromkeys(
        ("ctypes.dlopen", "ctypes.dlsym", "ctypes.cdata", "ctypes.call_function",
         "ctypes.addressof", "ctypes.string_at", "ctypes.wstring_at",
         "ctypes.create_string_buffer", "sqlite3.enable_load_extension",
         "sqlite3.load_extension"),
        _native,
    ),
}  # fmt: skip
