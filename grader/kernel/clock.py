"""The clocks learner code reads: the kernel's own, the same on every run.

Learner code that can read a real clock can time the kernel: the work the kernel does
between two calls (building a value to pass, changing a payload in place to check that it
was copied) shows up as a longer gap, and code that measures gaps can tell a check from an
ordinary call. So before the submission is imported, every clock of the ``time`` module,
``os.times``, ``resource.getrusage`` and the file times ``os.stat`` reports read a virtual
time instead: it starts at the same instant in every kernel, moves on by :data:`CALL_NS`
at every call of a graded function (:func:`tick`) and by :data:`READ_NS` at every reading,
and ``time.sleep`` moves it on without waiting. Two calls are as far apart as any two
others, whatever the kernel does between them (observing an answer, changing a payload to
check that it was copied): its own work takes no time on this clock.

This also makes a grade deterministic for code that stamps its events with the time, and it
means a loop that "waits" for the clock still ends (each reading moves the clock on).

The replacements are built in a namespace of their own (see :mod:`.isolated`): from one,
learner code reaches the virtual time and nothing else of the kernel. What they leave open
is listed in the README: the file times ``posix.stat`` and a directory listing
(``os.scandir``) report, which are real.
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.kernel.isolated import _build_functions

#: Where every kernel's clock starts: 2026-01-01T00:00:00Z, in nanoseconds since the epoch.
START_NS = 1_767_225_600 * 10**9
#: How far the clock moves at each call into learner code, and at each reading.
CALL_NS = 1_000_000
READ_NS = 1_000
#: The virtual time, in nanoseconds since the epoch (a list: the clocks share it).
NOW = [START_NS]


def restart_clock() -> None:
    """Put the clock back where every kernel's starts (a kernel forked from the zygote finds
    it there already, since the zygote never reads it: this makes sure)."""
    NOW[0] = START_NS


def tick() -> None:
    """A graded function is about to be called: the clock moves on."""
    NOW[0] += CALL_NS


_CLOCKS = """
def _now_ns():
    NOW[0] += READ_NS
    return NOW[0]

def time():
    return _now_ns() / 1e9

def time_ns():
    return _now_ns()

def monotonic():
    return (_now_ns() - START_NS) / 1e9

def monotonic_ns():
    return _now_ns() - START_NS

def clock_gettime(clock_id):
    return time() if clock_id == 0 else monotonic()

def clock_gettime_ns(clock_id):
    return time_ns() if clock_id == 0 else monotonic_ns()

def sleep(seconds):
    if not isinstance(seconds, (int, float)):
        kind = type(seconds).__name__
        raise TypeError("'" + kind + "' object cannot be interpreted as an integer")
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    NOW[0] += int(seconds * 1e9)

def localtime(secs=None):
    return _localtime(time() if secs is None else secs)

def gmtime(secs=None):
    return _gmtime(time() if secs is None else secs)

def ctime(secs=None):
    return _ctime(time() if secs is None else secs)

def asctime(t=None):
    return _asctime(localtime() if t is None else t)

def strftime(format, t=None):
    return _strftime(format, localtime() if t is None else t)

def times():
    elapsed = monotonic()
    return _times_result((elapsed, 0.0, 0.0, 0.0, elapsed))

def getrusage(who):
    real = _getrusage(who)
    elapsed = monotonic()
    return _rusage((elapsed, 0.0, *tuple(real)[2:]))

_TIMES = ("st_atime", "st_mtime", "st_ctime")

def _stamped(result):
    now = time_ns()
    fields = list(tuple(result))
    for index in (7, 8, 9):  # st_atime, st_mtime, st_ctime, as whole seconds
        fields[index] = now // 10**9
    extra = {name: getattr(result, name) for name in dir(result)
             if name.startswith("st_") and not name.startswith("st_n")}
    for name in _TIMES:
        extra[name] = now / 1e9
        extra[name + "_ns"] = now
    return _stat_result(fields, extra)

def stat(path, *, dir_fd=None, follow_symlinks=True):
    return _stamped(_stat(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks))

def lstat(path, *, dir_fd=None):
    return _stamped(_lstat(path, dir_fd=dir_fd))

def fstat(fd):
    return _stamped(_fstat(fd))
"""
#: Which replacement goes where: the module's name, its attribute, the replacement's name.
_PLACES = (
    *(("time", name, name) for name in (
        "time", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns",
        "process_time", "process_time_ns", "thread_time", "thread_time_ns", "clock_gettime",
        "clock_gettime_ns", "sleep", "localtime", "gmtime", "ctime", "asctime", "strftime",
    )),
    # os's own names only: the import system reads posix.stat, and file times that changed
    # at every reading would make it recompile and rescan every time.
    ("posix", "times", "times"),
    *(("os", name, name) for name in ("times", "stat", "lstat", "fstat")),
    ("resource", "getrusage", "getrusage"),
)  # fmt: skip
#: The counters read like a clock that runs.
_ALIASES = {
    "perf_counter": "monotonic", "perf_counter_ns": "monotonic_ns",
    "process_time": "monotonic", "process_time_ns": "monotonic_ns",
    "thread_time": "monotonic", "thread_time_ns": "monotonic_ns",
}  # fmt: skip


def install_clocks(modules: dict[str, Any]) -> None:
    """Put the virtual clocks in the modules learner code will import (``time``, ``os``,
    ``posix``, ``resource``: those of them that exist here)."""
    for name in ("time", "resource"):
        # Imported now, while only kernel code runs, so that the learner's import finds them.
        with suppress(ImportError):  # no resource in a browser
            __import__(name)
    time, posix = modules.get("time"), modules.get("posix")
    resource = modules.get("resource")
    originals = {
        "_localtime": getattr(time, "localtime", None), "_gmtime": getattr(time, "gmtime", None),
        "_ctime": getattr(time, "ctime", None), "_asctime": getattr(time, "asctime", None),
        "_strftime": getattr(time, "strftime", None), "_stat": getattr(posix, "stat", None),
        "_lstat": getattr(posix, "lstat", None), "_fstat": getattr(posix, "fstat", None),
        "_getrusage": getattr(resource, "getrusage", None),
        "_rusage": getattr(resource, "struct_rusage", None),
        "_times_result": getattr(posix, "times_result", None),
        "_stat_result": getattr(posix, "stat_result", None),
    }  # fmt: skip
    clocks = _build_functions(
        _CLOCKS, {"NOW": NOW, "START_NS": START_NS, "READ_NS": READ_NS, **originals}
    )
    for module_name, attribute, name in _PLACES:
        module = modules.get(module_name)
        if module is not None and hasattr(module, attribute):
            setattr(module, attribute, clocks[_ALIASES.get(name, name)])
