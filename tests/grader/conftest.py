"""Helpers for the grader's own tests: run the CLI, write small targets, grade the corpus."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from grader.i18n import using_language
from grader.report import Report
from grader.runner import run
from grader.tasks import TASKS
from tests.implementations.corpus import correct_files, write_mutant
from tests.implementations.mutants import MUTANTS

KIT_ROOT = Path(__file__).resolve().parents[2]
CORPUS = KIT_ROOT / "tests" / "implementations"
CORRECT_FILES = correct_files()
# Generous: a full grade takes a second or two, but CI machines can be slow and busy.
CLI_TIMEOUT = 120


def run_grader(
    *args: str, cwd: Path = KIT_ROOT, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m grader ARGS`` and capture its output (stdout is not a terminal)."""
    return subprocess.run(
        [sys.executable, "-m", "grader", *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
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
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        return path

    return write


def grade_file(path: Path) -> Report:
    """Grade one file exactly as ``python -m grader --target PATH`` does (in a pool worker),
    in English, whatever the locale, so tests can compare sentences."""
    with using_language("en"):
        return run(str(path), TASKS)


@pytest.fixture(scope="session")
def graded_corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Report]:
    """Every correct file and every mutant, graded once: name -> report.

    One grading per core at a time, each in a fresh spawned process with its own sandboxed
    child, exactly as the batch grades a class.
    """
    folder = tmp_path_factory.mktemp("mutants")
    paths = [*CORRECT_FILES, *(write_mutant(mutant, folder) for mutant in MUTANTS)]
    context = multiprocessing.get_context("spawn")
    workers = max(2, len(os.sched_getaffinity(0)))
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        reports = list(pool.map(grade_file, paths))
    return {path.stem: report for path, report in zip(paths, reports, strict=True)}
