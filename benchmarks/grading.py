"""What grading costs: the reference graded whole, a class of submissions, and the browser.

1. The reference (``solutions``) graded as a learner grades: ``python -m grader --target
   solutions``, in the sandbox it chooses (bubblewrap where it works), its CPU counted for
   every process (see :mod:`benchmarks.cpu_clock`). Beside it, in the same interleaved
   rounds, two floors: the same engine and examples with the in-process transport (no
   sandbox, no second process), and the reference's own work, the CPU spent inside the five
   reference functions alone (the same in-process grade, each function wrapped in a CPU
   clock).
2. A class graded by ``python -m grader batch``: correct files, mutants and hostile files,
   built by ``tests/redteam/measure_class_of_100.py`` (the corpus is test data: this copy
   runs the script, it does not import the tests). Run twice, the two gradebooks are
   compared.
3. The browser (:mod:`benchmarks.grading_browser`).

Every figure carries the machine's load: the machine is shared, and a figure means little
without it.
"""

from __future__ import annotations

import csv
import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from pathlib import Path
from types import ModuleType
from typing import Any

from benchmarks.cpu_clock import run_measured
from benchmarks.grading_browser import BrowserFigures, run_browser_benchmark
from benchmarks.measure import median, quartiles
from grader.engine.contract import FUNCTIONS
from grader.transport.workspace import KIT_ROOT

#: The module the reference's wrapped functions are graded from, in process.
TIMED_REFERENCE = "benchmarks_timed_reference"
#: The script that writes a class (test data: run, not imported).
CLASS_BUILDER = "tests.redteam.measure_class_of_100"


@dataclass(frozen=True, slots=True)
class GradingPlan:
    """The sizes of the grading section.

    Attributes:
        rounds: interleaved rounds of the reference's three grades.
        class_size: submissions in the class.
        class_runs: times the class is graded (2 compares the gradebooks).
        browser: whether to open the browser at all.
        class_timeout: seconds one grading of the class may take before it counts as hung.
    """

    rounds: int
    class_size: int
    class_runs: int
    browser: bool
    class_timeout: float = 1_800.0


@dataclass(frozen=True, slots=True)
class Spread:
    """Samples, in round order, with their median and middle half."""

    samples: list[float]

    @property
    def median(self) -> float:
        return median(self.samples)

    @property
    def middle_half(self) -> tuple[float, float]:
        return quartiles(self.samples)


@dataclass(frozen=True, slots=True)
class ReferenceFigures:
    """The reference graded whole, three ways, round by round.

    Attributes:
        sandbox_cpu: CPU of ``python -m grader --target solutions``, every process.
        sandbox_wall: its elapsed time.
        clock: how ``sandbox_cpu`` was counted (cgroup or getrusage).
        isolation: the sandbox that grade chose (``bwrap`` where bubblewrap works).
        in_process_cpu: CPU of the same grade with the in-process transport.
        reference_cpu: CPU inside the five reference functions during that grade.
        loads: the 1-minute load average before and after each round.
        scores: each grade's total, as ``earned/possible`` (a wrong score voids the figure).
    """

    sandbox_cpu: Spread
    sandbox_wall: Spread
    clock: str
    isolation: str
    in_process_cpu: Spread
    reference_cpu: Spread
    loads: list[tuple[float, float]]
    scores: list[str]


@dataclass(frozen=True, slots=True)
class ClassRun:
    """One grading of the class by ``python -m grader batch``."""

    wall_seconds: float
    cpu_seconds: float
    clock: str
    isolation: str
    load: tuple[float, float]
    returncode: int
    statuses: dict[str, int]
    same_as_previous: bool | None  # None for the first run


@dataclass(frozen=True, slots=True)
class ClassFigures:
    """The class: its size, each run, or why it did not run."""

    size: int
    runs: list[ClassRun] = field(default_factory=list)
    skipped: str | None = None


@dataclass(frozen=True, slots=True)
class GradingFigures:
    """The grading section's three parts."""

    reference: ReferenceFigures
    klass: ClassFigures
    browser: BrowserFigures


def run_grading_benchmark(plan: GradingPlan, progress: Callable[[str], None]) -> GradingFigures:
    """Grade the reference, a class and (when it can) the browser; return every figure."""
    reference = run_reference(plan.rounds, progress)
    klass = run_class(plan.class_size, plan.class_runs, plan.class_timeout, progress)
    browser = run_browser_benchmark(plan.browser, progress)
    return GradingFigures(reference, klass, browser)


def run_reference(rounds: int, progress: Callable[[str], None]) -> ReferenceFigures:
    """``rounds`` interleaved rounds: in the sandbox, in process, the reference's work."""
    from grader.run import grade_in_process

    _cache_bytecode()
    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder) / "results.json"
        return _reference_rounds(rounds, results, grade_in_process, progress)


def _cache_bytecode() -> None:
    """Compile the kit's packages to ``__pycache__`` first, as a learner's first grade does.

    Without it, a machine that sets ``PYTHONDONTWRITEBYTECODE`` (as some CI images and this
    one do) compiles every module of the grader from source in every round, some 40 ms of
    CPU that no learner's second grade pays. The submission itself is compiled in the sandbox
    at every grade either way: the sandbox writes no bytecode.
    """
    import compileall

    for package in ("grader", "solutions"):
        compileall.compile_dir(KIT_ROOT / package, quiet=1)


def _reference_rounds(
    rounds: int,
    results: Path,
    grade_in_process: Callable[[str], Any],
    progress: Callable[[str], None],
) -> ReferenceFigures:
    timed = _timed_reference()
    sandbox_cpu: list[float] = []
    sandbox_wall: list[float] = []
    in_process: list[float] = []
    own: list[float] = []
    loads: list[tuple[float, float]] = []
    scores: list[str] = []
    clock = isolation = ""
    command = [sys.executable, "-m", "grader", "--target", "solutions",
               "--json", str(results), "--format", "gradescope"]  # fmt: skip
    for number in range(1, rounds + 1):
        load_before = os.getloadavg()[0]
        measured = run_measured(command, KIT_ROOT, timeout=600)
        sandbox_cpu.append(measured.cpu_seconds)
        sandbox_wall.append(measured.wall_seconds)
        clock = measured.clock
        score, isolation = _graded(results, measured.returncode)
        scores.append(score)
        started = time.process_time()
        report = grade_in_process("solutions")
        in_process.append(time.process_time() - started)
        scores.append(f"{report.score}/{report.max_score}")
        timed.spent[0] = 0.0
        report = grade_in_process(TIMED_REFERENCE)
        own.append(timed.spent[0])
        scores.append(f"{report.score}/{report.max_score}")
        loads.append((load_before, os.getloadavg()[0]))
        progress(
            f"grading: round {number}/{rounds}: {isolation} {measured.cpu_seconds:.2f} s CPU"
            f" ({measured.clock}), in process {in_process[-1]:.2f} s,"
            f" reference's work {own[-1]:.3f} s; load {load_before:.2f}-{loads[-1][1]:.2f}"
        )
    return ReferenceFigures(Spread(sandbox_cpu), Spread(sandbox_wall), clock, isolation,
                            Spread(in_process), Spread(own), loads, scores)  # fmt: skip


@dataclass
class _TimedModule:
    module: ModuleType
    spent: list[float]


def _timed_reference() -> _TimedModule:
    """A module whose five functions are the reference's, each timed on the process's CPU
    clock (the outermost call only: a function the reference calls from another is counted
    once)."""
    import solutions

    spent = [0.0]
    depth = [0]
    module = ModuleType(TIMED_REFERENCE, "The reference's five functions, timed.")

    def timed(function: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(function)
        def call(*args: Any, **kwargs: Any) -> Any:
            depth[0] += 1
            started = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                depth[0] -= 1
                if depth[0] == 0:
                    spent[0] += time.process_time() - started

        return call

    for function in FUNCTIONS:
        setattr(module, function.name, timed(getattr(solutions, function.name)))
    sys.modules[TIMED_REFERENCE] = module
    return _TimedModule(module, spent)


def _graded(results: Path, returncode: int) -> tuple[str, str]:
    """A Gradescope results file's total as ``earned/possible``, and the isolation it ran in."""
    if not results.exists():
        return f"exit {returncode}", "none"
    found = json.loads(results.read_text(encoding="utf-8"))
    results.unlink()
    possible = sum(test["max_score"] for test in found["tests"])
    return f"{found['score']:g}/{possible:g}", str(found["extra_data"]["isolation"])


def run_class(
    size: int, runs: int, timeout: float, progress: Callable[[str], None]
) -> ClassFigures:
    """Build a class of ``size`` and grade it ``runs`` times, in the batch's sandbox."""
    with tempfile.TemporaryDirectory() as folder:
        submissions = Path(folder) / "class"
        built = run_measured(
            [sys.executable, "-m", CLASS_BUILDER, "--build", str(submissions), "--size", str(size)],
            KIT_ROOT,
            timeout=300,
        )
        if built.returncode != 0:
            why = f"the class could not be built ({CLASS_BUILDER} exit {built.returncode})"
            return ClassFigures(size, skipped=f"{why}: no tests/ in this copy?")
        found: list[ClassRun] = []
        previous: list[dict[str, str]] | None = None
        for number in range(1, runs + 1):
            out = Path(folder) / f"out{number}"
            command = [sys.executable, "-m", "grader", "batch", str(submissions),
                       "--out", str(out), "--no-progress"]  # fmt: skip
            measured = run_measured(command, KIT_ROOT, timeout)
            rows = _gradebook(out / "gradebook.csv")
            same = None if previous is None else rows == previous
            previous = rows
            statuses = dict(sorted(Counter(row["status"] for row in rows).items()))
            isolation = (
                ", ".join(sorted({row["isolation"] for row in rows if row["isolation"]})) or "none"
            )
            found.append(ClassRun(measured.wall_seconds, measured.cpu_seconds, measured.clock,
                                  isolation, measured.load, measured.returncode, statuses,
                                  same))  # fmt: skip
            progress(
                f"grading: class of {size}, run {number}/{runs}: {measured.wall_seconds:.0f} s,"
                f" {measured.cpu_seconds:.0f} s CPU ({measured.clock}), {len(rows)} graded"
                f" ({isolation});"
                f" load {measured.load[0]:.2f}-{measured.load[1]:.2f}"
            )
    return ClassFigures(size, found)


def _gradebook(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as file:
        return sorted(csv.DictReader(file), key=lambda row: row["id"])
