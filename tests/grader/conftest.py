"""Helpers for the grader's own tests: run the command line (in this process, on a report
given as data, or as a real process), write small targets, grade the corpus (each file once
per session, one per core)."""

from __future__ import annotations

import functools
import multiprocessing
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

from grader.engine.outcomes import Report
from grader.i18n import using_language
from grader.run import grade_in_process
from grader.tasks import TASKS, select
from tests.grader.cli_in_process import cli_in_process
from tests.implementations.corpus import correct_files, write_mutant
from tests.implementations.mutants import MUTANTS
from tests.run_once import once_per_run, run_folder

KIT_ROOT = Path(__file__).resolve().parents[2]
CORRECT_FILES = correct_files()
# Generous: a full grade takes seconds, but CI machines can be slow and busy.
CLI_TIMEOUT = 300
T = TypeVar("T")


def run_grader(
    *args: str, cwd: Path = KIT_ROOT, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m grader ARGS`` and capture its output (stdout is not a terminal)."""
    return subprocess.run(
        [sys.executable, "-m", "grader", *args],
        cwd=cwd,
        env={**os.environ, "LANGUAGE": "en", **(env or {})},
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT,
        check=False,
    )


@pytest.fixture
def write_target(tmp_path: Path) -> Callable[[str, str], Path]:
    """Write a learner file into a temporary folder and return its path."""

    def write(name: str, source: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        return path

    return write


def _grade(job: tuple[Path, tuple[str, ...], bool, bool]) -> Report:
    path, tasks, full, shrink = job
    with using_language("en"):
        return grade_in_process(str(path), select(list(tasks)), full=full, shrink=shrink)


def in_pool(job: Callable[[Any], T], jobs: Sequence[Any], workers: int | None = None) -> list[T]:
    """Run ``job`` (a module-level function) on every item of ``jobs`` in ``workers``
    processes (default: one per core; forked: the corpus is trusted code)."""
    context = multiprocessing.get_context("fork")
    workers = workers or max(2, len(os.sched_getaffinity(0)))
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        # One job at a time: a grade costs from a tenth of a second to seven, so a chunk of
        # several could leave one process grading alone at the end while the others wait.
        return list(pool.map(job, jobs))


def grade_all(
    jobs: list[tuple[Path, tuple[str, ...]]], full: bool = False, shrink: bool = True
) -> list[Report]:
    """Grade every (file, tasks) job in process (the corpus is trusted code: the engine's
    verdicts are what these tests check; the sandbox has tests of its own), one process per
    core, once per test run (:func:`once_per_run`: the suite's workers share the grades)."""
    # The path too: a report can name its file (a traceback's line).
    sources = [(str(path), path.read_bytes(), tasks) for path, tasks in jobs]
    key = ("grade_all", sources, full, shrink)
    return once_per_run(key, lambda: in_pool(_grade, [(*job, full, shrink) for job in jobs]))


#: The correct files whose grade costs most: lists everywhere scans its lists in every call,
#: seven seconds of CPU, as much as the four cheapest files together. The slow tier grades it
#: (``.ci/run`` runs both tiers), the fast tier the ten other styles.
DEAR_CORRECT_FILES = frozenset({"c06_lists_everywhere"})


@functools.cache
def _graded_correct_files(dear: bool) -> dict[str, Report]:
    paths = [path for path in CORRECT_FILES if (path.stem in DEAR_CORRECT_FILES) == dear]
    reports = grade_all([(path, ()) for path in paths])
    return {path.stem: report for path, report in zip(paths, reports, strict=True)}


def graded_correct_file(stem: str) -> Report:
    """A correct file of the corpus graded, with the others of its tier (the dear files or
    the rest), once per test run."""
    return _graded_correct_files(stem in DEAR_CORRECT_FILES)[stem]


@pytest.fixture(scope="session")
def graded_correct() -> dict[str, Report]:
    """Every correct file of the corpus, graded once: stem -> report."""
    return {path.stem: graded_correct_file(path.stem) for path in CORRECT_FILES}


@pytest.fixture(scope="session")
def mutant_jobs(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, tuple[str, ...]]]:
    """Every mutant written out, with the task it must lose: in the folder the run's workers
    share, so that their grades are shared too (:func:`grade_all`)."""
    shared = run_folder()
    folder = tmp_path_factory.mktemp("mutants") if shared is None else shared / "mutants"

    def write_all() -> list[tuple[Path, tuple[str, ...]]]:
        folder.mkdir(exist_ok=True)
        return [(write_mutant(mutant, folder), (mutant.task,)) for mutant in MUTANTS]

    return once_per_run(("mutant_jobs", str(folder)), write_all)


@pytest.fixture(scope="session")
def graded_mutants(mutant_jobs: list[tuple[Path, tuple[str, ...]]]) -> Callable[[str], Report]:
    """Every mutant graded once, on the task it must lose: name -> report."""
    reports = dict(zip((m.name for m in MUTANTS), grade_all(mutant_jobs), strict=True))
    return reports.__getitem__


__all__ = ["TASKS", "cli_in_process"]
