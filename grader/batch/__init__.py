"""Batch grading: ``python -m grader batch SUBMISSIONS_DIR --out OUT_DIR``.

Each submission (a ``.py`` file, or a folder holding one) is graded in its own sandboxed
process with a memory cap and a time limit, one per core at a time, behind a progress bar.
The scores come only from results the grading process signs and sends over a private pipe;
see :mod:`grader.batch.runner` for the protocol and :mod:`grader.batch.sandbox` for the
limits. The outputs are described in :mod:`grader.batch.gradebook`.

Known limits of the isolation, stated so nobody relies on more: submissions run as the
instructor's user, so they can read (not change the scores in) any file that user can read;
a process that leaves its process group with ``setsid`` survives the group kill.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from grader.batch.discovery import find_submissions
from grader.batch.gradebook import write_outputs
from grader.batch.pool import grade_all, grade_all_with_progress
from grader.batch.runner import STATUSES, Row
from grader.batch.sandbox import Limits

__all__ = ["STATUSES", "Limits", "Row", "run_batch"]


def run_batch(
    submissions_dir: Path,
    out_dir: Path,
    limits: Limits | None = None,
    workers: int | None = None,
    show_progress: bool = True,
) -> list[Row]:
    """Grade every submission in ``submissions_dir`` and write the outputs into ``out_dir``.

    Args:
        submissions_dir: the folder of submissions.
        out_dir: where the gradebook, the reports, the summary and the logs go.
        limits: per-submission limits; the defaults of :class:`Limits` when None.
        workers: submissions graded at once; one per core when None.
        show_progress: draw a progress bar on stderr.

    Returns:
        One row per submission, sorted by id.

    Raises:
        NotADirectoryError: when ``submissions_dir`` is not a folder.
    """
    submissions = find_submissions(submissions_dir)
    grade = grade_all_with_progress if show_progress else grade_all
    with tempfile.TemporaryDirectory(prefix="grader-batch-logs-") as logs_name:
        logs_dir = Path(logs_name)
        rows = grade(submissions, limits or Limits(), logs_dir, workers)
        write_outputs(out_dir, rows, logs_dir)
    return rows
