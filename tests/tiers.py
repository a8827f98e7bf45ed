"""The suite's tiers: a marker for each costly thing a test starts, and ``--backend``.

Markers (registered in ``pyproject.toml``):

* ``sandbox``: grades learner code in bubblewrap or under a uid of its own;
* ``browser``: drives Chromium;
* ``server``: starts a real server process (``python -m sqlite_demo serve``);
* ``postgres``: needs a PostgreSQL cluster;
* ``slow``: a soak of half a minute or so.

A test gets its markers from the fixtures it uses (:data:`FIXTURE_MARKERS`: whoever asks for
``server`` is a ``server`` test) and the folder it is in (:data:`FOLDER_MARKERS`), and a
module whose tests start these things themselves says so with ``pytestmark``.
The fast tier is what is left::

    pytest -n auto --dist loadfile \
        -m "not sandbox and not browser and not server and not postgres and not slow"

A marker that is missing would let a slow test into the fast tier unnoticed, so the marks are
checked as the tests run: starting bubblewrap, Chromium, a server or PostgreSQL from a test
that lacks the marker fails that test, saying which marker it needs (:func:`needed_marker`
reads every command a test starts).

``--backend`` picks the store backends the tests parametrized over both run on: ``sqlite``
(the default: nothing to install), ``postgres`` or ``all`` (``.ci/run``). The PostgreSQL-only
tests run with ``postgres`` and ``all``.
"""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Final

import pytest

from grader.transport import isolation
from tests.databases import BACKENDS

KIT_ROOT: Final = Path(__file__).resolve().parents[1]

#: The markers of the tiers, with what each says (``pyproject.toml`` registers the same).
TIER_MARKERS: Final = ("sandbox", "browser", "server", "postgres", "slow")
#: Fixtures that start something costly -> the marker of every test that uses them.
FIXTURE_MARKERS: Final = {
    # tests/server_fixtures.py
    "server": "server",
    "start_server": "server",
    # tests/postgres_cluster.py
    "postgres_cluster": "postgres",
    "postgres_url": "postgres",
    "private_postgres_cluster": "postgres",
    # tests/site/conftest.py, tests/live/browser.py
    "site": "browser",
    "served": "browser",
    "browser": "browser",
    "page": "browser",
    # tests/redteam/conftest.py (the corpus is graded in process: no marker)
    "autograder": "sandbox",
    # tests/grader/conftest.py: the whole mutant corpus graded, a minute of CPU
    "graded_mutants": "slow",
}
#: Fixtures whose work costs minutes of CPU and is shared by the run's workers: the first test
#: to ask pays it, and a test on another worker that asks meanwhile waits for it. On a machine
#: whose cores another job keeps busy that is many times the suite's 300 s per test (a CI run
#: beside two busy loops lost 188 tests so), so each test that uses one gets an hour: a bound
#: on a hang, not a speed.
SHARED_WORK_FIXTURES: Final = frozenset({"graded_correct", "graded_mutants", "mutant_jobs"})
SHARED_WORK_SECONDS: Final = 3600
#: Folders whose every test needs a marker: the red team attacks the sandbox.
FOLDER_MARKERS: Final = {"redteam": "sandbox"}
BACKEND_CHOICES: Final = (*BACKENDS, "all")
#: Programs whose start means a tier: the sandbox, PostgreSQL's tools, Playwright's driver.
PROGRAM_MARKERS: Final = {
    "bwrap": "sandbox",
    "unshare": "sandbox",
    "initdb": "postgres",
    "pg_ctl": "postgres",
    "postgres": "postgres",
    "chromium": "browser",
}

_running: list[pytest.Item] = []


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backend",
        choices=BACKEND_CHOICES,
        default="sqlite",
        help="the store backends to run the backend tests on: sqlite (default), postgres or all",
    )


def backend_of(item: pytest.Item) -> str | None:
    """The backend a test runs on: a parameter naming one, else ``postgres`` for a test that
    needs the cluster, else None (a test of no backend)."""
    callspec = getattr(item, "callspec", None)
    params: dict[str, Any] = callspec.params if callspec is not None else {}
    named = {value for value in params.values() if isinstance(value, str) and value in BACKENDS}
    if named:
        return "postgres" if "postgres" in named else "sqlite"
    return "postgres" if item.get_closest_marker("postgres") else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test by the fixtures it uses and its backend; keep the chosen backends'."""
    chosen = config.getoption("--backend")
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        for name in fixtures & FIXTURE_MARKERS.keys():
            item.add_marker(FIXTURE_MARKERS[name])
        if fixtures & SHARED_WORK_FIXTURES:
            allow_at_least(item, SHARED_WORK_SECONDS)
        for folder in set(FOLDER_MARKERS) & set(item.path.parts):
            item.add_marker(FOLDER_MARKERS[folder])
        backend = backend_of(item)
        if backend == "postgres":
            item.add_marker("postgres")
        if chosen == "all" or backend in (None, chosen):
            kept.append(item)
        else:
            dropped.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def timeout_of(item: pytest.Item) -> float | None:
    """The seconds pytest-timeout gives ``item``: its closest ``timeout`` mark, if any."""
    marker = item.get_closest_marker("timeout")
    if marker is None:
        return None
    seconds = marker.args[0] if marker.args else marker.kwargs.get("timeout")
    return None if seconds is None else float(seconds)


def allow_at_least(item: pytest.Item, seconds: float) -> None:
    """Give ``item`` at least ``seconds`` (a longer timeout of its own stays)."""
    current = timeout_of(item)
    if current is None or 0 < current < seconds:
        item.add_marker(pytest.mark.timeout(seconds), append=False)  # the closest mark wins


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    # Set before any fixture of the test is set up: a module's or the session's fixture is
    # set up by the first test that needs it, which must carry its marker.
    _running.append(item)
    try:
        yield
    finally:
        _running.pop()


def needed_marker(arguments: Sequence[str]) -> str | None:
    """The tier marker that starting ``arguments`` calls for; None for a cheap command."""
    if not arguments:
        return None
    program = Path(arguments[0]).name
    if program in PROGRAM_MARKERS:
        return PROGRAM_MARKERS[program]
    if "run-driver" in arguments:  # Playwright's driver: it starts Chromium
        return "browser"
    module = _python_module(arguments)
    rest = list(arguments[arguments.index("-m") + 2 :]) if module else []
    if {"-h", "--help"} & set(rest):
        return None
    if module == "sqlite_demo" and (not rest or rest[0] in ("serve", "demo", "crash-loop")):
        return "server"
    if module == "benchmarks":  # its HTTP section serves the service
        return "server"
    if module == "grader" and _grades_in_a_sandbox(rest):
        return "sandbox"
    return None


def _python_module(arguments: Sequence[str]) -> str | None:
    if "python" not in Path(arguments[0]).name or "-m" not in arguments:
        return None
    at = list(arguments).index("-m")
    return arguments[at + 1] if at + 1 < len(arguments) else None


def _grades_in_a_sandbox(rest: list[str]) -> bool:
    """Whether ``python -m grader REST`` grades with a sandbox: it grades (not help, not one
    of the commands that do not), and no option turns the sandbox off."""
    if rest and rest[0] in ("gradescope", "site", "release"):
        return False
    if {"--no-sandbox", "--isolation=none"} & set(rest):
        return False
    return not any(
        word == "--isolation" and rest[i + 1 : i + 2] == ["none"] for i, word in enumerate(rest)
    )


def is_a_stand_in(module: str, cwd: str | Path | None) -> bool:
    """Whether ``python -m MODULE`` run in ``cwd`` runs a test's stand-in for a kit command
    (a package of that name written by the test, whose ``__main__`` is not the kit's)."""
    ours = KIT_ROOT / module.replace(".", "/") / "__main__.py"
    theirs = Path(cwd or ".") / module.replace(".", "/") / "__main__.py"
    return theirs.is_file() and ours.is_file() and theirs.read_bytes() != ours.read_bytes()


def _check_marked(arguments: Any, cwd: str | Path | None) -> None:
    if not _running:
        return
    words = shlex.split(arguments) if isinstance(arguments, str) else [str(a) for a in arguments]
    module = _python_module(words) if words else None
    if module is not None and is_a_stand_in(module, cwd):
        return
    marker = needed_marker(words)
    item = _running[-1]
    if marker is not None and item.get_closest_marker(marker) is None:
        raise TierMarkMissing(
            f"{item.nodeid} starts {' '.join(words)[:120]!r}, which needs the {marker!r} marker:"
            f" use the fixture that starts it, or mark the module (pytestmark) or the test"
        )


class TierMarkMissing(RuntimeError):
    """A test starts something costly without the marker that keeps it out of the fast tier."""


_original_popen_init = subprocess.Popen.__init__


def _checked_popen_init(self: subprocess.Popen[Any], args: Any, *rest: Any, **options: Any) -> None:
    _check_marked(args, options.get("cwd"))
    _original_popen_init(self, args, *rest, **options)


_original_choose = isolation.choose


def _checked_choose(requested: str) -> isolation.Launcher:
    """The grader's choice of sandbox, checked: a sandbox in a test not marked ``sandbox``
    fails it. (A batch grades in worker processes this check cannot see; it chooses here
    first.)"""
    launcher = _original_choose(requested)
    if launcher.isolation is not isolation.Isolation.NONE and _running:
        item = _running[-1]
        if item.get_closest_marker("sandbox") is None:
            raise TierMarkMissing(
                f"{item.nodeid} grades in a {launcher.isolation.value} sandbox, which needs the"
                " 'sandbox' marker (or grade with isolation none)"
            )
    return launcher


def pytest_configure(config: pytest.Config) -> None:
    for marker in TIER_MARKERS:
        if not any(line.startswith(f"{marker}:") for line in config.getini("markers")):
            raise pytest.UsageError(f"the tier marker {marker!r} is not registered in pyproject")
    subprocess.Popen.__init__ = _checked_popen_init  # type: ignore[method-assign]
    isolation.choose = _checked_choose


def pytest_unconfigure(config: pytest.Config) -> None:
    subprocess.Popen.__init__ = _original_popen_init  # type: ignore[method-assign]
    isolation.choose = _original_choose


__all__ = ["TIER_MARKERS", "backend_of", "needed_marker"]
