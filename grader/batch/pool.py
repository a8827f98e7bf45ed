"""Grade many submissions at once: one sandboxed process per submission, one per core.

Threads only wait here: each one starts a child process and blocks until it ends, so a
thread pool sized to the cores keeps every core busy with exactly one grading at a time.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from grader.batch.discovery import Submission
from grader.batch.runner import Row, grade_submission
from grader.batch.sandbox import Limits
from grader.i18n import text


def default_workers() -> int:
    """One grading per core: gradings are CPU-bound, so more would only queue."""
    return os.cpu_count() or 1


def grade_all(
    submissions: Sequence[Submission],
    limits: Limits,
    logs_dir: Path,
    workers: int | None = None,
    on_done: Callable[[Row], None] = lambda row: None,
) -> list[Row]:
    """Grade every submission in parallel and return the rows sorted by id.

    Args:
        submissions: what to grade.
        limits: the limits each submission runs under.
        logs_dir: where each submission's output log goes.
        workers: how many submissions are graded at once; one per core when None.
        on_done: called with each row as soon as it is known (the progress bar uses it).
    """
    logs_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    with ThreadPoolExecutor(max_workers=workers or default_workers()) as pool:
        futures = [pool.submit(grade_submission, each, limits, logs_dir) for each in submissions]
        for future in as_completed(futures):
            row = future.result()
            rows.append(row)
            on_done(row)
    return sorted(rows, key=lambda row: row.id)


def grade_all_with_progress(
    submissions: Sequence[Submission],
    limits: Limits,
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
        return grade_all(submissions, limits, logs_dir, workers, lambda row: progress.advance(bar))
