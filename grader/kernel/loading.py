"""Importing the submission, and what every answer closes with: shared by both channels.

:mod:`.serve` (pipes, in a sandboxed child) and :mod:`.messages` (``postMessage``, in a
browser's worker) load the submission the same way and report the same things after every
request, so a submission that loads, or fails to, says so in the same words everywhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.kernel.calls import GRADED, _message, _type_name, where_raised
    from grader.kernel.capture import _ITIMER_PROF, _ROOTS, _setitimer, _sys_modules
    from grader.kernel.guard import FAULTS, REPORTS
    from grader.kernel.plans import FUNCTIONS
    from grader.kernel.refusals import MISSING_MODULES

import _thread
import gc as _gc
import sys as _sys

# Taken before learner code runs, like everything in :mod:`.capture`.
_count_threads = _thread._count
_gc_callbacks = _gc.callbacks


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


#: The submission's file compiled once, in the zygote, by path (see :func:`_precompile`).
#: In the kernel's namespace only: nothing learner code can reach holds it or a function
#: that names it. (A loader method that did, set on ``SourceFileLoader``, was a method of
#: a class every learner can list: its ``__globals__`` were the kernel's, and the route
#: through ``object.__subclasses__()`` cleared the guard's reports with it.)
_PRECOMPILED: dict[str, Any] = {}
#: The largest file the zygote compiles, and the most CPU seconds it may take: an honest
#: submission is a few kilobytes and takes milliseconds. A larger file, or one slower to
#: compile, is left to each kernel, which compiles it under the import's CPU limit as before.
PRECOMPILE_BYTES = 1 << 18
PRECOMPILE_SECONDS = 0.5


def _precompile(config: dict[str, Any], cpu_seconds: Any) -> None:
    """Compile a one-file submission once, in the zygote, before any learner code runs:
    every kernel (a fork) then executes that code object instead of compiling the source
    again (3-4 ms of CPU a kernel, and a class of 100 starts thousands of kernels).

    Only what compiles exactly as it would in a kernel is kept: a file that does not
    compile, that warns while compiling (the warning is the learner's output, which each
    kernel shows), that is too large or too slow to compile is left to each kernel, which
    meets the same error, warning or time limit as before. The file is read-only in the
    sandbox, so the code is the file's. ``cpu_seconds()`` is the process's CPU time.
    """
    import warnings

    path = config.get("file")
    if not path:
        return  # a package imports its own modules through the import system: unchanged
    try:
        with open(path, "rb") as source:
            data = source.read(PRECOMPILE_BYTES + 1)
        if len(data) > PRECOMPILE_BYTES:
            return
        began = cpu_seconds()
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            # As importlib's source loader compiles it: this kernel's own future imports
            # not inherited.
            code = compile(data, path, "exec", dont_inherit=True)
        if warned or cpu_seconds() - began > PRECOMPILE_SECONDS:
            return
    except Exception:  # whatever went wrong, each kernel meets it again, as before
        return
    _PRECOMPILED[path] = code


def _load(config: dict[str, Any], seconds: float | None = None) -> dict[str, Any]:
    """Import the submission, with ``seconds`` of CPU time for it where a timer can be set;
    ``ready`` with nothing else, or why it did not load."""
    try:
        if seconds is not None and _setitimer is not None:
            _setitimer(_ITIMER_PROF, seconds)
        try:
            module = _import(config)
        finally:
            if seconds is not None and _setitimer is not None:
                _setitimer(_ITIMER_PROF, 0)
    except SyntaxError as error:
        return {"load_error": _syntax(error), **_after_request()}
    except SystemExit as error:
        return {"load_error": {"kind": "exit", "code": repr(error.code)[:200]}, **_after_request()}
    except MemoryError:
        return {"load_error": {"kind": "memory"}, **_after_request()}
    except BaseException as error:
        details = {"kind": "raised", **_raised(error), **_module_of(error)}
        return {"load_error": details, **_after_request()}
    missing = []
    for name in config["functions"]:
        function = getattr(module, name, None)
        if callable(function):
            FUNCTIONS[name] = function
            GRADED.append(function)
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
        code = _PRECOMPILED.get(config["file"])
        if code is None:
            spec.loader.exec_module(module)
        else:
            exec(code, module.__dict__)  # what exec_module does with the code it compiles
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


def _raised(error: BaseException) -> dict[str, Any]:
    """What an import raised: its type, message and line (any exception, even one that
    :func:`describe` answers as not implemented or as a control)."""
    details = {"type": _type_name(error), "message": _message(error)}
    where = where_raised(error.__traceback__)
    return details if where is None else {**details, "where": where}


def _module_of(error: BaseException) -> dict[str, str]:
    """The module an import did not find; for one the guard takes away
    (:data:`MISSING_MODULES`), also the name a learner imports it by (``_sqlite3`` is
    ``sqlite3``), so that the report says the sandbox lacks it."""
    name = getattr(error, "name", None) if isinstance(error, ModuleNotFoundError) else None
    if type(name) is not str:
        return {}
    if name in MISSING_MODULES:
        return {"module": name, "not_in_sandbox": name.lstrip("_")}
    return {"module": name}
