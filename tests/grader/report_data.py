"""A grader :class:`~grader.engine.outcomes.Report` as plain JSON data, and back.

The golden cases (``tests/grader/goldens/``) keep their input report this way, so the
renderers are fed a report as data, in milliseconds, with no grading. A report's fields are
plain values already but for its enums (written as their values) and its transcript lines,
which are Python text or :class:`~grader.engine.outcomes.Said` notes (a note is written as
``{"said": id, "args": {...}}``).
"""

from __future__ import annotations

from typing import Any

from grader.engine.outcomes import Failure, Report, Said, Status, TaskResult, Verdict

Data = dict[str, Any]


def report_to_data(report: Report) -> Data:
    """``report`` as a JSON-ready dict (:func:`report_from_data` reads it back equal)."""
    return {
        "target": report.target,
        "results": [_result_to_data(result) for result in report.results],
        "asked": list(report.asked),
        "max_score": report.max_score,
        "isolation": report.isolation,
        "load_problem": None if report.load_problem is None else _said(report.load_problem),
        "verdict": report.verdict.value,
        "reports": [dict(item) for item in report.reports],
        "notes": [_said(note) for note in report.notes],
    }


def report_from_data(data: Data) -> Report:
    """The report ``data`` describes.

    Raises:
        KeyError, ValueError: ``data`` lacks a field, or names a status or verdict that does
            not exist.
    """
    problem = data["load_problem"]
    return Report(
        target=data["target"],
        results=tuple(_result_from_data(result) for result in data["results"]),
        asked=tuple(data["asked"]),
        max_score=data["max_score"],
        isolation=data["isolation"],
        load_problem=None if problem is None else _unsaid(problem),
        verdict=Verdict(data["verdict"]),
        reports=tuple(dict(item) for item in data["reports"]),
        notes=tuple(_unsaid(note) for note in data["notes"]),
    )


def _result_to_data(result: TaskResult) -> Data:
    failure = result.failure
    return {
        "task_id": result.task_id,
        "number": result.number,
        "points": result.points,
        "status": result.status.value,
        "failure": None if failure is None else _failure_to_data(failure),
        "output": result.output,
    }


def _result_from_data(data: Data) -> TaskResult:
    failure = data["failure"]
    return TaskResult(
        task_id=data["task_id"],
        number=data["number"],
        points=data["points"],
        status=Status(data["status"]),
        failure=None if failure is None else _failure_from_data(failure),
        output=data["output"],
    )


def _failure_to_data(failure: Failure) -> Data:
    return {
        "promise": failure.promise,
        "status": failure.status.value,
        "lines": [line if isinstance(line, str) else _said(line) for line in failure.lines],
        "outcome": [_said(item) for item in failure.outcome],
        "function": failure.function,
        "notes": [_said(note) for note in failure.notes],
    }


def _failure_from_data(data: Data) -> Failure:
    return Failure(
        promise=data["promise"],
        status=Status(data["status"]),
        lines=tuple(line if isinstance(line, str) else _unsaid(line) for line in data["lines"]),
        outcome=tuple(_unsaid(item) for item in data["outcome"]),
        function=data["function"],
        notes=tuple(_unsaid(note) for note in data["notes"]),
    )


def _said(item: Said) -> Data:
    return {"said": item.message, "args": dict(item.args)}


def _unsaid(data: Data) -> Said:
    return Said(data["said"], dict(data["args"]))
