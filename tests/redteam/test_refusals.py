"""What raises no audit event is out of reach: each entry of the guard's table, tried.

:mod:`grader.kernel.refusals` lists the modules and functions that read the stack, write a
file, or measure the grader's work without any audit event. A probe submission tries each
one (and the ways around a refusal: building a module again, keyword arguments, a folder's
descriptor as ``dir_fd``), says on its log what happened, and must be reported for each it
asked for itself. What is *missing* instead (``faulthandler``, ``sqlite3``,
``os.memfd_create``, ``sys.getrefcount``, ...) fails as on a system without it, and a probe
that tries only those is graded as the correct file it otherwise is. No sandbox is needed:
the guard is the same in every isolation.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from grader import kernel
from grader.engine.outcomes import Report, Verdict
from grader.run import grade
from grader.settings import Settings
from grader.tasks import select
from grader.transport import writable
from tests.redteam.hostile import CORRECT_BODY

SPACE = kernel.namespace(kernel.FILES[: kernel.FILES.index("guard") + 1])
REFUSED_MODULES: dict[str, tuple[str, str]] = SPACE["REFUSED_MODULES"]
REFUSED_FUNCTIONS: dict[str, tuple[str, str]] = SPACE["REFUSED_FUNCTIONS"]
MISSING_MODULES: dict[str, tuple[str, str]] = SPACE["MISSING_MODULES"]
MISSING_FUNCTIONS: dict[str, tuple[str, str]] = SPACE["MISSING_FUNCTIONS"]
#: The modules a probe imports (those that exist on this Python; the others fail anyway).
IMPORTED = sorted(
    name
    for name, (category, _) in REFUSED_MODULES.items()
    if category != "rebuilds" and name not in ("gc", "signal", "_signal")  # tried elsewhere
)
PRESENT = sorted(
    qualified
    for qualified in REFUSED_FUNCTIONS
    if hasattr(sys.modules.get(qualified.split(".")[0]) or __import__(qualified.split(".")[0]),
               qualified.split(".")[1])
)  # fmt: skip

#: The guard keeps 50 reports: the modules are tried by one probe, the rest by another.
PROBE_MODULES = """
import importlib, os
_seen = {}
for _module in @IMPORTED@:
    for _how, _importing in (("import ", __import__), ("importlib ", importlib.import_module)):
        try:
            _importing(_module)
            _seen[_how + _module] = "done"
        except BaseException as error:
            _seen[_how + _module] = type(error).__name__
os.write(2, ("SEEN %r\\n" % (_seen,)).encode())
"""
#: Pure Python over a refused native module: ``importlib`` raises no ``import`` event, so it
#: finds the package, whose native part it then cannot load (``dbm.dumb`` writes through
#: ``open``, which the guard watches).
PURE_PYTHON = {"dbm"}
PROBE = """
import os, sys
_seen = {}


def _try(name, action):
    try:
        action()
        _seen[name] = "done"
    except BaseException as error:
        _seen[name] = type(error).__name__


for _qualified in @PRESENT@:
    _owner, _function = _qualified.split(".")
    _try(_qualified, lambda: getattr(sys.modules[_owner], _function)("x", 1))
_try("keywords", lambda: os.mkfifo(path="fifo", mode=0o600))
_try("folder fd", lambda: os.open(os.path.dirname(os.__file__), os.O_RDONLY))
_try("own folder fd", lambda: os.close(os.open(".", os.O_RDONLY)))


def _rebuilt():
    del sys.modules["posix"]
    import posix
    return posix.memfd_create


_try("rebuild posix", _rebuilt)
os.write(2, ("SEEN %r\\n" % (_seen,)).encode())
"""
#: Warnings carry no frame but the caller's: a deep ``stacklevel`` names no one.
WARNS = """
import os, warnings

_where = []
warnings.showwarning = lambda message, category, filename, lineno, *rest: _where.append(
    "%s:%s" % (filename, lineno))
warnings.simplefilter("always")


def list_sessions(log):
    for level in (1, 2, 3, 5, 8):
        warnings.warn("where am I", stacklevel=level)
    os.write(2, ("WARNED %r\\n" % (sorted(set(_where)),)).encode())
    return _list_sessions(log)
"""


def graded(source: str, folder: Path) -> tuple[Report, str]:
    target, log = folder / "probe.py", folder / "probe.log"
    target.write_text(source)
    report = grade(str(target), select(["list_sessions"]), Settings(isolation="none"), log=log)
    return report, log.read_text()


def probe(source: str, folder: Path) -> tuple[Report, dict[str, str]]:
    report, log = graded(CORRECT_BODY + source, folder)
    seen = eval(log.split("SEEN ", 1)[1].splitlines()[0])  # the probe's own repr of a dict
    return report, seen


@pytest.fixture(scope="module")
def probed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Report, dict[str, str]]:
    return probe(PROBE.replace("@PRESENT@", repr(PRESENT)), tmp_path_factory.mktemp("calls"))


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Report, dict[str, str]]:
    source = PROBE_MODULES.replace("@IMPORTED@", repr(IMPORTED))
    return probe(source, tmp_path_factory.mktemp("imports"))


@pytest.mark.parametrize("module", IMPORTED)
def test_a_refused_module_cannot_be_imported_and_asking_is_reported(
    imported: tuple[Report, dict[str, str]], module: str
) -> None:
    report, seen = imported
    assert seen[f"import {module}"] == "ImportError"
    if module not in PURE_PYTHON:
        assert seen[f"importlib {module}"] in ("ImportError", "ModuleNotFoundError")
    assert {"event": "import", "detail": module} in [
        {"event": r["event"], "detail": r["detail"]} for r in report.reports
    ]


@pytest.mark.parametrize("function", PRESENT)
def test_a_refused_function_refuses_and_calling_it_is_reported(
    probed: tuple[Report, dict[str, str]], function: str
) -> None:
    report, seen = probed
    assert seen[function] == "PermissionError"
    named = function.replace("posix.", "os.")
    assert {"event": "grader.refused", "detail": named} in [
        {"event": r["event"], "detail": r["detail"]} for r in report.reports
    ]


def test_keyword_arguments_do_not_get_around_a_refusal(
    probed: tuple[Report, dict[str, str]],
) -> None:
    assert probed[1]["keywords"] == "PermissionError"


def test_building_a_module_again_does_not_bring_its_functions_back(
    probed: tuple[Report, dict[str, str]],
) -> None:
    assert probed[1]["rebuild posix"] == "ImportError"


def test_a_folder_outside_the_temporary_folder_cannot_be_opened_for_a_dir_fd(
    probed: tuple[Report, dict[str, str]],
) -> None:
    # With a descriptor of /dev/shm, os.open("x", O_CREAT, dir_fd=...) would write there,
    # while its open event names a relative path the guard would take for the temporary
    # folder's. The temporary folder's own descriptor is fine.
    assert (probed[1]["folder fd"], probed[1]["own folder fd"]) == ("PermissionError", "done")


def test_the_probe_is_tampered_as_a_whole(probed: tuple[Report, dict[str, str]]) -> None:
    assert (probed[0].verdict, probed[0].score) == (Verdict.TAMPERED, 0)


def test_a_warning_names_no_frame_above_its_caller_whatever_its_stacklevel(
    tmp_path: Path,
) -> None:
    source = CORRECT_BODY + "\n_list_sessions = list_sessions\n" + WARNS
    report, log = graded(source, tmp_path)
    assert "WARNED ['sys:1']" in log, log[-2000:]
    assert (report.verdict, report.score) == (Verdict.GRADED, report.max_score)


#: Every missing thing, probed as a file that wants it would, and each way back to it.
PROBE_MISSING = """
import importlib, os, sys
_seen = {}


def _try(name, action):
    try:
        action()
        _seen[name] = "done"
    except BaseException as error:
        _seen[name] = type(error).__name__ + ": " + str(error)


for _module in @MODULES@:
    _try("import " + _module, lambda: __import__(_module))
    _try("importlib " + _module, lambda: importlib.import_module(_module))
for _qualified in @FUNCTIONS@:
    _owner, _function = _qualified.split(".")
    _try(_qualified, lambda: getattr(sys.modules[_owner], _function))
_try("os.memfd_create", lambda: os.memfd_create)
_try("star", lambda: exec("from os import *", {}))
_try("in sys.modules", lambda: [sys.modules[name] for name in @MODULES@])
os.write(2, ("SEEN %r\\n" % (_seen,)).encode())
"""
#: What a file that tries each missing thing sees: what it would see on a system without it.
MISSING_SEEN = {
    "import faulthandler": "ModuleNotFoundError: No module named 'faulthandler'",
    "import sqlite3": "ModuleNotFoundError: No module named '_sqlite3'",
    "importlib sqlite3": "ModuleNotFoundError: No module named '_sqlite3'",
    "import tracemalloc": "ModuleNotFoundError: No module named '_tracemalloc'",
    "importlib tracemalloc": "ModuleNotFoundError: No module named '_tracemalloc'",
    "import _sqlite3": "ModuleNotFoundError: No module named '_sqlite3'",
    "posix.memfd_create": "AttributeError: module 'posix' has no attribute 'memfd_create'",
    "os.memfd_create": "AttributeError: module 'os' has no attribute 'memfd_create'",
    "sys.getrefcount": "AttributeError: module 'sys' has no attribute 'getrefcount'",
    "star": "done",
    "in sys.modules": "KeyError: 'faulthandler'",
}


def test_what_is_missing_fails_as_on_a_system_without_it_and_costs_nothing(
    tmp_path: Path,
) -> None:
    modules = ["faulthandler", "sqlite3", "tracemalloc", "_sqlite3"]
    assert set(MISSING_MODULES) <= {*modules, "_tracemalloc"}
    source = PROBE_MISSING.replace("@MODULES@", repr(modules))
    source = source.replace("@FUNCTIONS@", repr(sorted(MISSING_FUNCTIONS)))
    report, seen = probe(source, tmp_path)
    assert {name: seen[name] for name in MISSING_SEEN} == MISSING_SEEN
    assert (report.verdict, report.reports, report.score) == (Verdict.GRADED, (), report.max_score)


def test_the_write_budget_is_the_guard_s_own_count() -> None:
    assert SPACE["MAX_WRITES"] == writable.WRITE_FILES


def native_modules(python: str) -> set[str]:
    """Every built-in and extension module of the interpreter ``python``."""
    import subprocess

    listing = (
        "import os, sys, sysconfig; d = os.path.join(sysconfig.get_path('platstdlib'), "
        "'lib-dynload'); print(*sys.builtin_module_names, *(f.split('.')[0] for f in "
        "(os.listdir(d) if os.path.isdir(d) else ()) if f.endswith('.so')))"
    )
    found = subprocess.run([python, "-S", "-c", listing], capture_output=True, text=True,
                           check=True, timeout=60)  # fmt: skip
    return set(found.stdout.split())


@pytest.mark.parametrize("python", sorted({sys.executable, "/usr/bin/python3"}))
def test_every_native_module_of_the_interpreters_here_is_refused_or_audited(python: str) -> None:
    if not Path(python).exists():
        pytest.skip(f"no {python} here")
    audited, refused = set(SPACE["AUDITED_MODULES"]), {*REFUSED_MODULES, *MISSING_MODULES}
    assert native_modules(python) - audited - refused == set()
    assert audited & refused == set() and set(REFUSED_MODULES) & set(MISSING_MODULES) == set()


def test_every_entry_of_the_table_says_why_in_a_known_category() -> None:
    categories = SPACE["CATEGORIES"]
    entries = [*REFUSED_MODULES.values(), *REFUSED_FUNCTIONS.values(),
               *SPACE["DEFUSED_FUNCTIONS"].values(), *MISSING_MODULES.values(),
               *MISSING_FUNCTIONS.values()]  # fmt: skip
    assert all(category in categories and len(why) > 20 for category, why in entries)
    assert set(REFUSED_MODULES) == set(SPACE["DENIED_MODULES"])
