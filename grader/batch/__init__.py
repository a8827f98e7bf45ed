"""Batch grading: ``python -m grader batch SUBMISSIONS_DIR --out OUT_DIR``.

Every submission is copied into a private folder before any is graded, then each is graded
by the same path as ``python -m grader``: a trusted process (one per core) generates the
examples and judges them, while the submission runs in a bubblewrap sandbox of its own (see
:mod:`grader.sandbox`) that sees only its own copy and the standard library, has no network,
a process cap, and dies whole with its grading. Without bubblewrap the batch refuses to run
unless told ``--no-sandbox``, and then every output says so. The outputs are described in
:mod:`grader.batch.gradebook`.
"""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

from grader.batch.discovery import stage
from grader.batch.gradebook import write_outputs
from grader.batch.pool import Settings, grade_all, grade_all_with_progress
from grader.batch.rows import STATUSES, Row

__all__ = ["STATUSES", "Row", "Settings", "run_batch"]


def run_batch(
    submissions_dir: Path,
    out_dir: Path,
    settings: Settings | None = None,
    workers: int | None = None,
    show_progress: bool = True,
    results_format: str = "exercism",
) -> list[Row]:
    """Grade every submission in ``submissions_dir`` and write the outputs into ``out_dir``.

    Args:
        submissions_dir: the folder of submissions (read once, to copy them).
        out_dir: where the gradebook, the reports, the summary and the logs go.
        settings: isolation and limits; :class:`Settings`' defaults when None.
        workers: submissions graded at once; one per core when None.
        show_progress: draw a progress bar on stderr.
        results_format: ``exercism`` or ``gradescope``, for ``results/<id>.json``.

    Returns:
        One row per submission, sorted by id.

    Raises:
        NotADirectoryError: when ``submissions_dir`` is not a folder.
    """
    settings = settings or Settings()
    grade = grade_all_with_progress if show_progress else grade_all
    with tempfile.TemporaryDirectory(prefix="grader-batch-") as scratch:
        staging, logs_dir = Path(scratch) / "submissions", Path(scratch) / "logs"
        staging.mkdir()
        submissions = stage(submissions_dir, staging)
        hidden = (submissions_dir.resolve(), out_dir.resolve(), Path(scratch))
        settings = dataclasses.replace(settings, hidden=settings.hidden + hidden)
        rows = grade(submissions, settings, logs_dir, workers)
        write_outputs(out_dir, rows, logs_dir, settings.isolation, results_format)
    return rows
