"""Batch grading: ``python -m grader batch SUBMISSIONS_DIR --out OUT_DIR``.

Every submission is copied into a private folder before any is graded, then each is graded
by the same path as ``python -m grader``: a trusted process (one per core) generates the
examples and judges them, while the submission runs in a sandbox of its own. One submission
never costs the class its outputs: names are made printable and unique, what a child sends
is capped and made printable before it is stored, a grading process that dies costs its own
row, and the outputs are moved into place whole at the end (see :mod:`.outputs`).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from grader.frontends.batch.discovery import stage
from grader.frontends.batch.outputs import write_outputs
from grader.frontends.batch.pool import Row, grade_all, grade_with_progress
from grader.settings import Settings

__all__ = ["Row", "run_batch"]


def run_batch(
    submissions_dir: Path,
    out_dir: Path,
    settings: Settings = Settings(),
    workers: int | None = None,
    show_progress: bool = True,
    results_format: str = "exercism",
) -> list[Row]:
    """Grade every submission in ``submissions_dir``; write the outputs into ``out_dir``.

    Raises:
        NotADirectoryError: ``submissions_dir`` is not a folder.
    """
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="grader-batch-") as scratch:
        staging, logs_dir = Path(scratch) / "submissions", Path(scratch) / "logs"
        staging.mkdir()
        submissions = stage(submissions_dir, staging)
        hidden = (submissions_dir.resolve(), out_dir.resolve(), Path(scratch))
        grade = grade_with_progress if show_progress else grade_all
        rows = grade(submissions, settings, logs_dir, hidden, workers)
        seconds = time.monotonic() - started
        write_outputs(out_dir, rows, logs_dir, settings.isolation, results_format, seconds)
    return rows
