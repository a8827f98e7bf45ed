"""What the guard takes out of reach beyond its audit events: one table, with a reason each.

An audit hook sees only what CPython raises an event for, and an audit of the standard
library's native modules (every built-in and extension module of CPython 3.10, 3.11 and
3.13, and Pyodide's 3.14) found modules and functions that, without any event:

* ``frames``: read frames, tracebacks or the call stack (``faulthandler`` writes every
  frame's file and function; a coroutine's ``cr_origin`` lists its creators' frames);
* ``writes``: make or write a file, shared memory, a socket or a handle on another process
  without an audited ``open`` (``os.memfd_create``, ``os.mkfifo``, SQLite's ``ATTACH``);
* ``counts``: measure allocations or reference counts, which reveal the grader's own work
  between two calls (``sys.getrefcount``);
* ``native``: run native code, or another interpreter the hook does not watch;
* ``rebuilds``: a module already loaded whose functions the kernel replaced: refusing its
  name stops learner code from building it afresh with the original functions.

A module of :data:`REFUSED_MODULES` cannot be imported (the guard's import rule, and the
kernel's replacement of ``_imp.create_builtin``), and asking is reported; a function of
:data:`REFUSED_FUNCTIONS` is replaced, in every loaded module that holds it, before the
submission is imported, by one that refuses and reports (an audit event of the guard's own,
``grader.refused``).

What a learner's file may well probe for, and find missing on an ordinary system, is
*missing* instead, quietly (:data:`MISSING_MODULES`, :data:`MISSING_FUNCTIONS`): importing
one fails with ``ModuleNotFoundError`` as on a Python built without it (``import sqlite3``
says ``No module named '_sqlite3'``), a function is gone (``AttributeError``, as
``os.memfd_create`` is on macOS), and nothing is reported. So a file that tries a traceback
dump, or counts references, to tell a check from a call gets exactly what its honest twin
gets: nothing to learn, and nothing to lose. ``warnings.warn`` is replaced by one that never looks
at the stack. Whatever an honest solution needs (``json``, ``copy``, ``dataclasses``, ...)
is none of these.
"""

from __future__ import annotations

import _warnings as _refusals_warnings
import builtins as _refusals_builtins
import sys as _refusals_sys
from typing import Any

#: Why a module or function is here, by the category each entry names.
CATEGORIES = {
    "frames": "reads frames, tracebacks or the call stack",
    "writes": "makes or writes a file, shared memory, a socket or a process handle unaudited",
    "counts": "measures allocations or reference counts: the grader's own work",
    "native": "runs native code, or an interpreter the audit hook does not watch",
    "rebuilds": "loaded already: its name stops it being built again with what was replaced",
}
#: Modules learner code cannot import: name -> (category, reason).
REFUSED_MODULES: dict[str, tuple[str, str]] = {
    "_lsprof": ("frames", "a profiler sees the code of every call"),
    "_remote_debugging": ("frames", "reads the stack of a process"),
    "_testexternalinspection": ("frames", "reads the stack of a process (3.13)"),
    "gc": ("frames", "garbage and referrers hold the kernel's frames; counts show its work"),
    "signal": ("frames", "a handler gets the interrupted frame"),
    "_signal": ("frames", "a handler gets the interrupted frame"),
    "dbm": ("writes", "its databases are files made without an open event"),
    "_dbm": ("writes", "its databases are files made without an open event"),
    "_gdbm": ("writes", "its databases are files made without an open event"),
    "readline": ("writes", "write_history_file writes any path without an open event"),
    "_multiprocessing": ("writes", "SemLock makes named semaphores in /dev/shm, unaudited"),
    "_posixshmem": ("writes", "shm_open makes files in /dev/shm without an open event"),
    "_posixsubprocess": ("writes", "fork_exec starts a process without an audit event"),
    "ossaudiodev": ("writes", "opens any path without an open event (before 3.13)"),
    "nis": ("writes", "talks to the network without a socket event (before 3.13)"),
    "_ssl": ("writes", "reads certificate and key files of any path without an open event"),
    "_tkinter": ("native", "Tcl opens files, runs programs and loads libraries, unaudited"),
    "ctypes": ("native", "reads and writes the interpreter's memory"),
    "_ctypes": ("native", "reads and writes the interpreter's memory"),
    "_ctypes_test": ("native", "a test helper of ctypes"),
    "_testcapi": ("native", "a test helper that reaches the interpreter's internals"),
    "_testinternalcapi": ("native", "a test helper that reaches the interpreter's internals"),
    "_testlimitedcapi": ("native", "a test helper that reaches the interpreter's internals"),
    "_testbuffer": ("native", "a test helper that reaches the interpreter's internals"),
    "_testmultiphase": ("native", "a test helper that reaches the interpreter's internals"),
    "_testsinglephase": ("native", "a test helper that reaches the interpreter's internals"),
    "_testclinic": ("native", "a test helper that reaches the interpreter's internals"),
    "_testclinic_limited": ("native", "a test helper that reaches the interpreter's internals"),
    "_testimportmultiple": ("native", "a test helper that reaches the interpreter's internals"),
    "_xxtestfuzz": ("native", "a test helper that reaches the interpreter's internals"),
    "_xxsubinterpreters": ("native", "another interpreter, which the audit hook does not watch"),
    "_xxinterpchannels": ("native", "another interpreter, which the audit hook does not watch"),
    "_interpreters": ("native", "another interpreter, which the audit hook does not watch"),
    "_interpchannels": ("native", "another interpreter, which the audit hook does not watch"),
    "_interpqueues": ("native", "another interpreter, which the audit hook does not watch"),
    "_imp": ("rebuilds", "create_builtin is the kernel's: the original builds any module"),
    "_thread": ("rebuilds", "start_new_thread is the kernel's (threads raise no event on 3.11)"),
    "posix": ("rebuilds", "memfd_create, mkfifo, mknod and pidfd_open are out of reach"),
    "sys": ("rebuilds", "getrefcount and the allocation counters are out of reach"),
    "_warnings": ("rebuilds", "warn is replaced by one that does not look at the stack"),
    "resource": ("rebuilds", "getrusage is refused: built again, it would not be"),
}
#: Native modules missing to learner code, quietly (its import fails as on a Python built
#: without it, unreported; the pure Python over one, ``sqlite3`` or ``tracemalloc``, fails
#: on it): name -> (category, reason).
MISSING_MODULES: dict[str, tuple[str, str]] = {
    "faulthandler": ("frames", "dump_traceback writes every frame's file and function"),
    "_tracemalloc": ("frames", "an object's allocation traceback names the kernel's lines"),
    "_sqlite3": ("writes", "ATTACH DATABASE and VACUUM INTO write any file, unaudited"),
}
#: Pure Python over a missing module: dropped from ``sys.modules`` if loaded (importing it
#: again fails on the missing module).
OVER_MISSING = ("sqlite3", "tracemalloc")
#: Functions deleted, before learner code is imported, from every loaded module that holds
#: them (``AttributeError``, as where the system has none; unreported): "module.function"
#: -> (category, reason).
MISSING_FUNCTIONS: dict[str, tuple[str, str]] = {
    "posix.memfd_create": ("writes", "a file in memory, made without an open event"),
    "sys.getrefcount": ("counts", "how many references the kernel holds to an argument"),
}
#: Functions replaced by a refusal before learner code is imported: "module.function" ->
#: (category, reason). One that does not exist on this Python is skipped.
REFUSED_FUNCTIONS: dict[str, tuple[str, str]] = {
    "posix.mkfifo": ("writes", "a named pipe anywhere the user may write: no audit event"),
    "posix.mknod": ("writes", "a file (a regular one too) anywhere: no audit event"),
    "posix.pidfd_open": ("writes", "a handle on another process: no audit event before 3.12"),
    "sys.activate_stack_trampoline": ("writes", "writes /tmp/perf-PID.map (3.12, Linux)"),
    "sys.set_coroutine_origin_tracking_depth": (
        "frames", "a coroutine's cr_origin then lists the file, line and function of the "
        "frames that made it, the kernel's among them",
    ),
    "sys.getallocatedblocks": ("counts", "how many blocks the kernel allocated between calls"),
    "sys._debugmallocstats": ("counts", "the allocator's statistics, on a descriptor"),
    "sys._getquickenedcount": ("counts", "how much code the kernel ran (3.11)"),
    "sys.getunicodeinternedsize": ("counts", "how many strings the kernel interned (3.12)"),
    "resource.getrusage": ("counts", "the process's page faults and peak memory"),
}  # fmt: skip
#: Functions replaced by a version that keeps what honest code needs: "module.function" ->
#: (category, reason).
DEFUSED_FUNCTIONS: dict[str, tuple[str, str]] = {
    "_warnings.warn": (
        "frames", "stacklevel picks a frame whose file, line and module name the warning "
        "carries: the replacement says every warning comes from sys, line 1, as CPython does "
        "when the stack is shorter than stacklevel",
    ),
}  # fmt: skip
#: Every other native module of CPython 3.10, 3.11, 3.13 and Pyodide's 3.14, audited: what
#: it can do, and why that is no way around the guard. A test holds every built-in and
#: extension module of the running Python to one of the two tables, so a module a new
#: version adds is noticed.
AUDITED_MODULES: dict[str, str] = {
    "_io": "open and open_code raise the open event the guard watches",
    "marshal": "loads raises an event (only the standard library's .pyc is let through)",
    "_socket": "socket.__new__ is audited and refused; socketpair reaches no one",
    "mmap": "mmap.__new__ is audited; an anonymous map counts against the memory limit",
    "fcntl": "fcntl, ioctl, flock and lockf are audited, on descriptors already open",
    "select": "waits on descriptors already open",
    "_pickle": "find_class is audited; unpickling runs only what Python code could",
    "array": "array.__new__ is audited; buffer_info's address leads nowhere without ctypes",
    "syslog": "openlog and syslog are audited and refused",
    "_curses": "draws on a terminal (the child has none); files only through open",
    "_curses_panel": "draws on a terminal (the child has none)",
    "termios": "a terminal's settings (the child has none)",
    "pwd": "reads the system's user database, nothing secret",
    "grp": "reads the system's group database, nothing secret",
    "spwd": "reads the shadow database, for root only (before 3.13)",
    "_uuid": "libuuid keeps its clock in a folder only root may write",
    "_hashlib": "OpenSSL's digests, in memory",
    "_crypt": "crypt(3), in memory (before 3.13)",
    "_weakref": "counts weak references: the kernel makes none to learner objects",
    "time": "clocks: how long a call takes is the kernel's to keep alike",
    "atexit": "runs at exit, and the kernel ends with os._exit",
    "_pyodide_core": "the browser's bridge, dropped and refused (messages.BRIDGES)",
    **dict.fromkeys(
        ("_abc", "_ast", "_asyncio", "_bisect", "_blake2", "_bz2", "_codecs", "_codecs_cn",
         "_codecs_hk", "_codecs_iso2022", "_codecs_jp", "_codecs_kr", "_codecs_tw",
         "_collections", "_contextvars", "_csv", "_datetime", "_decimal", "_elementtree",
         "_functools", "_heapq", "_hmac", "_json", "_locale", "_lzma", "_md5",
         "_multibytecodec", "_opcode", "_operator", "_queue", "_random", "_sha1", "_sha2",
         "_sha256", "_sha3", "_sha512", "_sre", "_stat", "_statistics", "_string", "_struct",
         "_suggestions", "_symtable", "_sysconfig", "_tokenize", "_types", "_typing",
         "_zoneinfo", "_zstd", "audioop", "binascii", "builtins", "cmath", "errno",
         "itertools", "math", "pyexpat", "unicodedata", "xxlimited", "xxlimited_35",
         "xxsubtype", "zlib"),
        "computes in memory; files only through open",
    ),
}  # fmt: skip
#: The event a refusal raises (the guard denies it, and reports it when learner code called
#: the refused function itself).
REFUSED_EVENT = "grader.refused"

_REPLACEMENTS = """
def refusal(name):
    def refused(*args, **kwargs):
        _audit(REFUSED_EVENT, name)
        raise PermissionError(name + " is not available while grading")
    return refused


def warn(message, category=None, stacklevel=1, source=None, *, skip_file_prefixes=()):
    if isinstance(message, Warning):
        category = message.__class__
    if category is None:
        category = UserWarning
    if not (isinstance(category, type) and issubclass(category, Warning)):
        raise TypeError("category must be a Warning subclass, not %r" % type(category).__name__)
    _warn_explicit(message, category, "sys", 1, "sys", _registry, None, source)
"""
#: The code of every refusal: the guard looks past its frame for the line that called it.
REFUSAL_CODE: list[Any] = []


def take_out_of_reach() -> None:
    """Replace every function of :data:`REFUSED_FUNCTIONS` and :data:`DEFUSED_FUNCTIONS`,
    wherever a loaded module holds it, delete those of :data:`MISSING_FUNCTIONS`, and drop
    the refused and missing modules already loaded.

    The replacements live in a namespace of their own holding only ``sys.audit`` and
    ``warn_explicit``: learner code can reach a replacement's ``__globals__``, and finds
    nothing of the kernel and none of the originals there. Runs before the audit hook is
    installed (it compiles, under a name the hook would refuse).
    """
    space: dict[str, Any] = {
        "__builtins__": {name: getattr(_refusals_builtins, name) for name in _BUILTINS},
        "_audit": _refusals_sys.audit,
        "_warn_explicit": _refusals_warnings.warn_explicit,
        "_registry": {},
        "REFUSED_EVENT": REFUSED_EVENT,
    }  # fmt: skip
    exec(compile(_REPLACEMENTS, "<grading:refusals>", "exec"), space)
    replacements = {}
    for qualified in REFUSED_FUNCTIONS:
        replacements[qualified] = space["refusal"](qualified.replace("posix.", "os."))
    replacements["_warnings.warn"] = space["warn"]
    REFUSAL_CODE.append(space["refusal"]("").__code__)
    for qualified, replacement in replacements.items():
        module_name, name = qualified.split(".")
        original = getattr(_refusals_sys.modules.get(module_name), name, None)
        if original is not None:
            _replace_everywhere(original, replacement)
    for qualified in MISSING_FUNCTIONS:
        module_name, name = qualified.split(".")
        original = getattr(_refusals_sys.modules.get(module_name), name, None)
        if original is not None:
            _delete_everywhere(original, name)
    dropped = {*MISSING_MODULES, *OVER_MISSING}
    dropped |= {name for name, (category, _) in REFUSED_MODULES.items() if category != "rebuilds"}
    for name in list(_refusals_sys.modules):
        if name.split(".")[0] in dropped:
            _refusals_sys.modules.pop(name, None)


#: What the replacements use (``warn_explicit`` imports ``warnings`` through ``__import__``).
_BUILTINS = ("isinstance", "issubclass", "type", "Warning", "UserWarning", "TypeError",
             "PermissionError", "__import__")  # fmt: skip


def _delete_everywhere(original: Any, name: str) -> None:
    """Delete ``original`` wherever a loaded module's namespace holds it, and ``name`` from
    their ``__all__`` (``from os import *`` must not look for it)."""
    for module in list(_refusals_sys.modules.values()):
        space = getattr(module, "__dict__", None)
        if type(space) is not dict:
            continue
        for key, value in list(space.items()):
            if value is original:
                del space[key]
        exported = space.get("__all__")
        if type(exported) is list and name in exported:
            exported.remove(name)


def _replace_everywhere(original: Any, replacement: Any) -> None:
    """Put ``replacement`` wherever a loaded module's namespace holds ``original``."""
    for module in list(_refusals_sys.modules.values()):
        space = getattr(module, "__dict__", None)
        if type(space) is not dict:
            continue
        for name, value in list(space.items()):
            if value is original:
                space[name] = replacement
