"""Grade many submissions at once: one trusted grading process per core.

Each grading process runs the same path as ``python -m grader`` (see :mod:`grader.run`): it
generates the examples and judges them, while the submission runs in a sandboxed child of
its own. Learner code never runs in these processes, so what they send back (the reports) is
trusted. A grading process that dies for any reason costs its own submission's row, never
the batch: the pool is started again for the rest.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from grader.engine.outcomes import Report, Said, Verdict
from grader.frontends.batch.discovery import Submission
from grader.frontends.batch.stopping import end_workers, private_folder, worker_started
from grader.i18n import current_language, using_language
from grader.settings import Settings
from grader.tasks import MAX_SCORE, TASK_IDS
from grader.transport.writable import OVER_BUDGET


@dataclass(frozen=True)
class Row:
    """One submission's row: its id, its outputs' file name, its report, and notes."""

    id: str
    slug: str
    report: Report
    notes: tuple[Said, ...] = ()

    @property
    def verdict(self) -> Verdict:
        return self.report.verdict


def default_workers() -> int:
    """One grading per core: gradings are CPU-bound, so more would only queue."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def ungraded(submission: Submission, isolation: str, verdict: Verdict, problem: Said) -> Row:
    report = Report(submission.id, (), TASK_IDS, MAX_SCORE, isolation, problem, verdict)
    return Row(submission.id, submission.slug, report, submission.notes)


def grade_one(submission: Submission, settings: Settings, log: Path, hidden: tuple[Path, ...],
              language: str) -> Row:  # fmt: skip
    """Grade one staged submission (runs in a trusted grading process)."""
    from grader.run import grade

    if submission.copy is None:
        problem = submission.problem or Said("batch.ungraded.no_submission")
        return ungraded(submission, settings.isolation, Verdict.NO_SUBMISSION, problem)
    with using_language(language):
        report = grade(str(submission.copy), settings=settings, label=submission.id, log=log,
                       hidden=hidden)  # fmt: skip
    return Row(submission.id, submission.slug, report, (*submission.notes, *_overruns(report)))


def _overruns(report: Report) -> tuple[Said, ...]:
    """A note for each time the submission's uid held more than its write budget (its
    report, which makes it ``tampered``, carries the numbers)."""
    fields = ("files", "size", "max_files", "max_size")
    return tuple(
        Said("batch.note.write_budget", {name: found.get(name, "?") for name in fields})
        for found in report.reports
        if found.get("event") == OVER_BUDGET
    )


def grade_all(
    submissions: Sequence[Submission],
    settings: Settings,
    logs_dir: Path,
    hidden: tuple[Path, ...] = (),
    workers: int | None = None,
    on_done: Callable[[Row], None] = lambda row: None,
) -> list[Row]:
    """Grade every submission in parallel; the rows in submission order."""
    logs_dir.mkdir(parents=True, exist_ok=True)
    rows: dict[str, Row] = {}
    with private_folder() as work:
        pools = _Pools(settings, logs_dir, hidden, work, rows, on_done)
        unfinished = pools.grade(list(submissions), workers or default_workers())
        # A pool that breaks takes every unfinished submission with it: each gets another try,
        # alone in a pool of its own, and only the one that breaks that pool too gets a row
        # saying so.
        for each in unfinished:
            if pools.grade([each], 1):
                row = ungraded(
                    each, settings.isolation, Verdict.CRASHED, Said("batch.ungraded.grader_died")
                )
                rows[each.id] = row
                on_done(row)
    return [rows[each.id] for each in submissions]


@dataclass(frozen=True)
class _Pools:
    """What every pool of one batch shares: the settings, where logs and workspaces go, and
    the rows found so far."""

    settings: Settings
    logs_dir: Path
    hidden: tuple[Path, ...]
    work: Path
    rows: dict[str, Row]
    on_done: Callable[[Row], None]

    def grade(self, submissions: list[Submission], workers: int) -> list[Submission]:
        """Grade with one pool until it is done or breaks; return what is still to grade (a
        broken pool costs the submissions it was grading: a crashed row each). Stopped (or
        anything else unexpected), it ends its grading processes at once rather than wait
        for the gradings under way, which could take minutes."""
        context = multiprocessing.get_context("spawn")
        language = current_language()
        futures: dict[Future[Row], Submission] = {}
        pool = ProcessPoolExecutor(
            workers, mp_context=context, initializer=worker_started, initargs=(self.work,)
        )
        try:
            for each in submissions:
                log = self.logs_dir / f"{each.slug}.log"
                job = (each, self.settings, log, self.hidden, language)
                futures[pool.submit(grade_one, *job)] = each
            for future in as_completed(futures):
                row = future.result()
                self.rows[row.id] = row
                self.on_done(row)
        except BrokenProcessPool:
            pass
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            end_workers()
            raise
        pool.shutdown()
        return [each for each in futures.values() if each.id not in self.rows]


def grade_with_progress(
    submissions: Sequence[Submission], settings: Settings, logs_dir: Path, hidden: tuple[Path, ...],
    workers: int | None = None,
) -> list[Row]:  # fmt: skip
    """Like :func:`grade_all`, behind a progress bar on stderr."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from grader.i18n import text

    columns = (
        TextColumn(text("batch.progress")),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=Console(stderr=True)) as progress:
        bar = progress.add_task("grading", total=len(submissions))
        return grade_all(
            submissions, settings, logs_dir, hidden, workers, lambda row: progress.advance(bar)
        )
