"""Grade many submissions at once: one trusted grading process per core.

Each grading process runs the same path as ``python -m grader`` (see :mod:`grader.runner`):
it generates the examples and judges the answers, while the submission runs in a sandboxed
child of its own. Learner code never runs in these processes, so what they send back to the
batch (the reports) is trusted. They are started with ``spawn``: a fresh interpreter, not a
copy of the batch process and its threads.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from grader.batch.discovery import Submission
from grader.batch.rows import IMPORT_ERROR, NO_SUBMISSION, Row, row_for
from grader.i18n import current_language, text, using_language
from grader.remote import DEFAULT_EXAMPLE_SECONDS, DEFAULT_TASK_SECONDS
from grader.report import Report
from grader.runner import run
from grader.sandbox.child import Limits
from grader.tasks import MAX_SCORE, TASK_IDS, TASKS


@dataclass(frozen=True, slots=True)
class Settings:
    """How each submission is graded: isolation, memory (MiB), time limits (seconds), and
    folders the sandbox must hide (the submissions, the output, the kit)."""

    isolation: str = "bwrap"
    memory_mb: int = 1024
    import_seconds: float = 10.0
    example_seconds: float = DEFAULT_EXAMPLE_SECONDS
    task_seconds: float = DEFAULT_TASK_SECONDS
    grading_seconds: float = 120.0
    hidden: tuple[Path, ...] = ()


def default_workers() -> int:
    """One grading per core: gradings are CPU-bound, so more would only queue."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def grade_one(submission: Submission, settings: Settings, log: Path, language: str) -> Row:
    """Grade one staged submission (runs in a trusted grading process)."""
    if submission.copy is None:
        reason = submission.error or text("batch.ungraded.no_submission")
        isolation = settings.isolation
        unloaded = Report(submission.id, (), reason, MAX_SCORE, IMPORT_ERROR, isolation, TASK_IDS)
        status = NO_SUBMISSION if submission.error is None else IMPORT_ERROR
        return Row(submission.id, status, unloaded)
    with using_language(language):
        report = run(
            str(submission.copy),
            TASKS,
            settings.example_seconds,
            task_time_limit=settings.task_seconds,
            isolation=settings.isolation,
            limits=Limits(memory_mb=settings.memory_mb),
            overall_seconds=settings.grading_seconds,
            log=log,
            hidden=settings.hidden,
            label=submission.id,
            load_seconds=settings.import_seconds,
        )
    return row_for(submission.id, report)


def grade_all(
    submissions: Sequence[Submission],
    settings: Settings,
    logs_dir: Path,
    workers: int | None = None,
    on_done: Callable[[Row], None] = lambda row: None,
) -> list[Row]:
    """Grade every submission in parallel and return the rows sorted by id."""
    logs_dir.mkdir(parents=True, exist_ok=True)
    context = multiprocessing.get_context("spawn")
    rows = []
    language = current_language()
    with ProcessPoolExecutor(workers or default_workers(), mp_context=context) as pool:
        futures = [
            pool.submit(grade_one, each, settings, logs_dir / f"{each.id}.log", language)
            for each in submissions
        ]
        for future in as_completed(futures):
            row = future.result()
            rows.append(row)
            on_done(row)
    return sorted(rows, key=lambda row: row.id)


def grade_all_with_progress(
    submissions: Sequence[Submission],
    settings: Settings,
    logs_dir: Path,
    workers: int | None = None,
    console: Console | None = None,
) -> list[Row]:
    """Like :func:`grade_all`, behind a progress bar on ``console`` (stderr by default)."""
    columns = (
        TextColumn(text("batch.progress")),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console or Console(stderr=True)) as progress:
        bar = progress.add_task("grading", total=len(submissions))
        return grade_all(
            submissions, settings, logs_dir, workers, lambda row: progress.advance(bar)
        )
