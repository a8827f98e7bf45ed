"""A busy machine makes a grade slower, never different (issue 27).

Every limit that can blame learner code counts that code's own CPU time, measured where it
runs; the wall clock is only a generous backstop against code that blocks, and a request that
stalled because the machine was busy is asked again of a fresh kernel. So the corpus is
graded here at a batch's default limits (30 s of CPU a submission, the tightest of the front
ends'), in the sandbox as every grade runs (every correct file on every task, every mutant
on the task it must lose), once with the machine left alone and once while busy loops hold
every core, four per core. Every correct file gets full marks both times, and every
submission gets the same report both times, line for line: the same verdicts, the same
smallest cases, the same hints.

Beside the loops the corpus is graded by as many processes as there are loops, as a batch
with that many workers would: each grading process gets an eighth of a core on a 2-core
machine, less than a fifth beside the loops alone would give it, and the busy grading takes
minutes, not a quarter of an hour.

Before issue 27 the same correct file got 60/100, 100/100 and 80/100 in three batches beside
two busy loops: its limits were wall-clock seconds.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from grader.engine.outcomes import Report
from grader.frontends.batch.command import BATCH
from grader.i18n import using_language
from grader.run import grade
from grader.tasks import select
from tests.grader.conftest import CORRECT_FILES, in_pool
from tests.redteam.conftest import need_bwrap

#: Each grading of the corpus costs minutes of CPU (about six, sandboxed), the busy one half
#: the machine and less beside the suite's other worker: an hour bounds a hang, not a speed.
pytestmark = [pytest.mark.slow, pytest.mark.sandbox, pytest.mark.timeout(3600)]

LOOPS_PER_CORE = 4
#: The least share of the machine the loops must have had while the corpus was graded beside
#: them, for the grade to count as one on a busy machine: beside as many grading processes
#: they get half of it, and a third beside half as many other runnable processes again.
LEAST_SHARE_OF_THE_LOOPS = 1 / 3
CORES = len(os.sched_getaffinity(0))


def _grade_in_the_sandbox(job: tuple[Path, tuple[str, ...]]) -> Report:
    path, tasks = job
    with using_language("en"):
        return grade(str(path), select(list(tasks)), BATCH)


def _grade_the_corpus(
    jobs: Sequence[tuple[Path, tuple[str, ...]]], workers: int | None = None
) -> list[Report]:
    """Every job graded in the sandbox, by ``workers`` processes (default: one per core)."""
    return in_pool(_grade_in_the_sandbox, list(jobs), workers)


@dataclass
class Loops:
    """Busy loops in sessions of their own, and the CPU time they got."""

    processes: list[subprocess.Popen[bytes]]

    def cpu_seconds(self) -> float:
        """The CPU time the loops have used so far (user and system, from ``/proc``)."""
        ticks = 0
        for process in self.processes:
            fields = Path(f"/proc/{process.pid}/stat").read_text().rpartition(")")[2].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
        return ticks / os.sysconf("SC_CLK_TCK")

    def all_running(self) -> bool:
        return all(process.poll() is None for process in self.processes)


@contextmanager
def busy_loops(count: int) -> Iterator[Loops]:
    """``count`` Python processes that spin until the block ends, at the usual priority."""
    processes = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
        for _ in range(count)
    ]
    try:
        yield Loops(processes)
    finally:
        for process in processes:
            process.kill()
        for process in processes:
            process.wait()


def _shown(report: Report) -> tuple[object, ...]:
    """What a report says of the submission: whether it loaded, its verdict, and each task's
    status, failure (promise, hint, smallest case) and rendered text."""
    return (report.load_problem, report.verdict, report.results)


@pytest.fixture(scope="module")
def corpus_jobs(
    mutant_jobs: list[tuple[Path, tuple[str, ...]]],
) -> list[tuple[Path, tuple[str, ...]]]:
    return [(path, ()) for path in CORRECT_FILES] + mutant_jobs


@pytest.fixture(scope="module")
def graded_idle_and_busy(
    corpus_jobs: list[tuple[Path, tuple[str, ...]]],
) -> tuple[list[Report], list[Report], float]:
    """The corpus graded with no loops, then beside ``LOOPS_PER_CORE`` loops per core; and
    the share of the machine's CPU time the loops got while it was."""
    need_bwrap()
    started = time.monotonic()
    idle = _grade_the_corpus(corpus_jobs)
    print(f"idle: {time.monotonic() - started:.0f} s, load {os.getloadavg()[0]:.1f}")
    with busy_loops(LOOPS_PER_CORE * CORES) as loops:
        time.sleep(0.5)  # every loop spinning before the first grade starts
        cpu_before, since = loops.cpu_seconds(), time.monotonic()
        busy = _grade_the_corpus(corpus_jobs, workers=LOOPS_PER_CORE * CORES)
        share = (loops.cpu_seconds() - cpu_before) / (CORES * (time.monotonic() - since))
        assert loops.all_running(), "a busy loop ended before the grade did"
    print(f"busy: {time.monotonic() - since:.0f} s, load {os.getloadavg()[0]:.1f},"
          f" the loops' share {share:.0%}")  # fmt: skip
    return idle, busy, share


def test_the_loops_held_the_machine(
    graded_idle_and_busy: tuple[list[Report], list[Report], float],
) -> None:
    """Without this, a grade 'on a busy machine' could have been on an idle one."""
    share = graded_idle_and_busy[2]
    assert share >= LEAST_SHARE_OF_THE_LOOPS, f"the loops got only {share:.0%} of the machine"


def test_every_correct_file_gets_full_marks_idle_and_busy(
    graded_idle_and_busy: tuple[list[Report], list[Report], float],
) -> None:
    idle, busy = (
        graded_idle_and_busy[0][: len(CORRECT_FILES)],
        graded_idle_and_busy[1][: len(CORRECT_FILES)],
    )
    scores = {
        path.stem: (a.score, b.score)
        for path, a, b in zip(CORRECT_FILES, idle, busy, strict=True)
        if (a.score, b.score) != (100, 100)
    }
    assert scores == {}


def test_every_submission_gets_the_same_report_idle_and_busy(
    corpus_jobs: list[tuple[Path, tuple[str, ...]]],
    graded_idle_and_busy: tuple[list[Report], list[Report], float],
) -> None:
    idle, busy, _ = graded_idle_and_busy
    differing = [
        path.name
        for (path, _tasks), a, b in zip(corpus_jobs, idle, busy, strict=True)
        if _shown(a) != _shown(b)
    ]
    assert differing == []
