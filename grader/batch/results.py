"""Everything the batch knows about the grader's reports, in one place.

The grading child builds an *envelope*: the report in the grader's own ``--json`` format
(see :mod:`grader.results_json`), the row status the report amounts to, and the properties
the submission broke. The batch side reads points from the report's ``tests`` and never
from anything else.
"""

from __future__ import annotations

import json
from typing import Any

from grader import messages
from grader.i18n import text
from grader.report import Report
from grader.results_json import EXERCISM_VERSION, results_document
from grader.tasks import TASKS

# Row statuses a report can amount to (the others come from the sandbox itself).
GRADED = "graded"
TIMED_OUT = "timed_out"
MEMORY_EXCEEDED = "memory_exceeded"
CRASHED = "crashed"
IMPORT_ERROR = "import_error"


def task_ids() -> list[str]:
    """The task ids, in task order: the gradebook's point columns."""
    return [task.task_id for task in TASKS]


def max_score() -> int:
    """The points all tasks together are worth."""
    return sum(task.points for task in TASKS)


def grade_as_json(module: str, task_seconds: float) -> str:
    """Grade ``module`` and return the envelope as JSON (runs in the grading child)."""
    import grader

    report = grader.grade(module, time_limit=task_seconds)
    envelope = {
        "status": row_status(report),
        "broken": broken_properties(report),
        "report": results_document(report),
    }
    return json.dumps(envelope, ensure_ascii=False)


def row_status(report: Report) -> str:
    """What a report amounts to: graded, or the worst thing that happened in a task."""
    if report.load_error is not None:
        return IMPORT_ERROR
    failures = [result.failure for result in report.results if result.failure is not None]
    if any("MemoryError" in failure.render() for failure in failures):
        return MEMORY_EXCEEDED
    statuses = {result.status for result in report.results}
    if messages.STATUS_TIMED_OUT in statuses:
        return TIMED_OUT
    if messages.STATUS_ERROR in statuses:
        return CRASHED
    return GRADED


def broken_properties(report: Report) -> list[list[str]]:
    """``[task id, sentence]`` for each task that failed a property (not merely a stub)."""
    return [
        [result.task_id, result.failure.sentence]
        for result in report.results
        if result.failure is not None and result.status == messages.STATUS_FAILED
    ]


def task_points(document: dict[str, Any]) -> dict[str, int]:
    """Points earned per task id, read from a report's ``tests`` (0 for a missing task)."""
    points = dict.fromkeys(task_ids(), 0)
    for test in document.get("tests", []):
        number = test.get("task_id")
        if isinstance(number, int) and 1 <= number <= len(TASKS):
            points[TASKS[number - 1].task_id] = int(test.get("score", 0))
    return points


def ungraded_report(status: str) -> dict[str, Any]:
    """A report in the ``--json`` format for a submission that could not be graded."""
    reason = text(f"batch.ungraded.{status}")
    return {
        "version": EXERCISM_VERSION,
        "status": "error",
        "message": reason,
        "score": 0,
        "max_score": max_score(),
        "output": reason,
        "tests": [],
    }
