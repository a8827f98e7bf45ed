"""What the batch knows about one submission: its status, from best to worst news, and why.

Every status comes from the trusted grading process's own report: nothing a submission
prints, writes or sends is read as a score or a status.
"""

from __future__ import annotations

from dataclasses import dataclass

from grader import messages
from grader.report import Report

GRADED = "graded"
TIMED_OUT = "timed_out"
MEMORY_EXCEEDED = "memory_exceeded"
CRASHED = "crashed"
PROTOCOL_ERROR = "protocol_error"
IMPORT_ERROR = "import_error"
NO_SUBMISSION = "no_submission"
STATUSES = (
    GRADED,
    TIMED_OUT,
    MEMORY_EXCEEDED,
    CRASHED,
    PROTOCOL_ERROR,
    IMPORT_ERROR,
    NO_SUBMISSION,
)


@dataclass(frozen=True, slots=True)
class Row:
    """One submission's row: its id, status and report (points come from the report alone)."""

    id: str
    status: str
    report: Report

    @property
    def broken(self) -> tuple[tuple[str, str], ...]:
        """``(task id, sentence)`` for each task that failed a property (not merely a stub)."""
        return tuple(
            (result.task_id, result.failure.sentence)
            for result in self.report.results
            if result.failure is not None and result.status == messages.STATUS_FAILED
        )


def row_for(submission_id: str, report: Report) -> Row:
    """The row a report amounts to: graded, or the worst thing that happened in it."""
    return Row(submission_id, status_of(report), report)


def status_of(report: Report) -> str:
    """Graded, or the worst trouble: a load problem, a protocol break, memory, time, a crash."""
    if report.load_error is not None:
        return report.load_status or IMPORT_ERROR
    failures = [result.failure for result in report.results if result.failure is not None]
    if any(messages.CHILD_BROKE in (failure.sentence, *failure.outcome) for failure in failures):
        return PROTOCOL_ERROR
    if any("MemoryError" in failure.render() for failure in failures):
        return MEMORY_EXCEEDED
    statuses = {result.status for result in report.results}
    if messages.STATUS_TIMED_OUT in statuses:
        return TIMED_OUT
    if messages.STATUS_ERROR in statuses:
        return CRASHED
    return GRADED
