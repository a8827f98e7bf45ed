"""Results files in the two formats graders are read by: exercism's and Gradescope's.

* ``exercism``: the test-runner interface, version 3. Top level ``version``, ``status``
  (``pass``, ``fail``, ``error``) and ``message`` (the load problem, else null), then one test
  per task with ``name``, ``status``, ``message`` (the grader's feedback, null when it passed),
  ``test_code`` (the calls that show the failure, or the promises the task checks),
  ``task_id``, and ``output`` only when learner code printed something (at most 500
  characters, as the interface demands).
* ``gradescope``: ``results.json`` of the autograder specification. Top level ``score``,
  ``output`` (the whole report) and ``output_format``, then one test per task with ``score``,
  ``max_score``, ``status``, ``name``, ``number``, ``output`` and ``extra_data`` (the task id,
  the grader's own status, the broken promise).

Everything in a results file is text the report renders, made printable (control characters,
lone surrogates and direction overrides as escapes) and capped, whatever learner code sent:
a results file stays under :data:`MAX_BYTES`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from grader.engine.outcomes import Report, Status, TaskResult
from grader.frontends.report import failure_lines, heading, hint, printable, report_text, task_lines
from grader.i18n import text
from grader.tasks import TASKS_BY_ID

FORMATS = ("exercism", "gradescope")
EXERCISM_VERSION = 3
#: The exercism interface's limit on a test's output.
OUTPUT_LIMIT = 500
#: The most any results file holds.
MAX_BYTES = 1_000_000
_EXERCISM_STATUS = {
    Status.PASSED: "pass",
    Status.FAILED: "fail",
    Status.NOT_IMPLEMENTED: "fail",
    Status.TIMED_OUT: "error",
    Status.ERROR: "error",
    Status.TAMPERED: "error",
}


def document(report: Report, form: str = "exercism") -> dict[str, Any]:
    """The results in format ``form`` as a JSON-ready dict."""
    if form == "gradescope":
        return gradescope_document(report)
    return exercism_document(report)


def exercism_document(report: Report) -> dict[str, Any]:
    """The exercism test-runner interface, version 3."""
    if report.load_problem is not None:
        return {
            "version": EXERCISM_VERSION,
            "status": "error",
            "message": report_text(report),
            "tests": [],
        }
    full = report.score == report.max_score
    return {
        "version": EXERCISM_VERSION,
        "status": "pass" if full else "fail",
        "message": None,
        "tests": [_exercism_test(result, report) for result in report.results],
    }


def _exercism_test(result: TaskResult, report: Report) -> dict[str, Any]:
    message = feedback(result) if result.failure is not None else None
    note = isolation_note(report)
    if note:
        message = "\n".join(part for part in (message, note) if part)
    test: dict[str, Any] = {
        "name": heading(result),
        "status": _EXERCISM_STATUS[result.status],
        "message": message,
        "test_code": test_code(result),
        "task_id": result.number,
    }
    if result.output:
        test["output"] = cut(printable(result.output), OUTPUT_LIMIT)
    return test


def gradescope_document(report: Report) -> dict[str, Any]:
    """Gradescope's ``results.json``."""
    output = report_text(report)
    note = isolation_note(report)
    if note:
        output += "\n\n" + note
    if report.load_problem is not None:
        tests = [_gradescope_unloaded(task_id, output) for task_id in report.asked]
    else:
        tests = [_gradescope_test(result) for result in report.results]
    return {
        "score": report.score,
        "output": output,
        "output_format": "text",
        "tests": tests,
        "extra_data": {
            "isolation": report.isolation,
            "verdict": report.verdict.value,
            "reports": [dict(item) for item in report.reports],
        },
    }


def _gradescope_test(result: TaskResult) -> dict[str, Any]:
    return {
        "score": result.earned,
        "max_score": result.points,
        "status": "passed" if result.status is Status.PASSED else "failed",
        "name": heading(result),
        "number": str(result.number),
        "output": feedback(result),
        "output_format": "text",
        "extra_data": {
            "task": result.task_id,
            "grader_status": result.status.value,
            "broken_promise": None if result.failure is None else result.failure.promise,
        },
    }


def _gradescope_unloaded(task_id: str, output: str) -> dict[str, Any]:
    task = TASKS_BY_ID[task_id]
    return {
        "score": 0,
        "max_score": task.points,
        "status": "failed",
        "name": text("report.task", number=task.number, name=text(f"task.{task.id}.name")),
        "number": str(task.number),
        "output": output,
        "output_format": "text",
        "extra_data": {"task": task.id, "grader_status": "load_error", "broken_promise": None},
    }


def isolation_note(report: Report) -> str | None:
    """What a results file says about a grading that ran without the bubblewrap sandbox."""
    key = f"report.isolation.{report.isolation}"
    note = text(key)
    return note if note and note != key else None


def feedback(result: TaskResult) -> str:
    """The task's lines of the report: heading, what broke, the hint."""
    return "\n".join(line for line, _ in task_lines(result)).strip("\n")


def test_code(result: TaskResult) -> str:
    """The calls that show the failure; for a task with none, the promises it checks."""
    if result.failure is not None and result.failure.lines:
        return "\n".join(line for line in failure_lines(result.failure) if line.startswith("    "))
    promises = TASKS_BY_ID[result.task_id].promises
    return "\n".join(f"# {text('promise.' + promise)}" for promise in promises)


def cut(value: str, limit: int) -> str:
    """``value`` cut to ``limit`` characters, with an ellipsis when cut."""
    return value if len(value) <= limit else value[: limit - 4] + " ..."


def encode(report: Report, form: str) -> bytes:
    """The results file's bytes (UTF-8, stable key order: two runs give identical bytes),
    printable and under :data:`MAX_BYTES` whatever learner code sent."""
    data = json.dumps(_printable(document(report, form)), indent=2, ensure_ascii=False).encode(
        "utf-8"
    )
    if len(data) <= MAX_BYTES:
        return data
    shrunk = _printable(document(report, form), limit=MAX_BYTES // 20)
    return json.dumps(shrunk, indent=2, ensure_ascii=False).encode("utf-8")


def _printable(value: Any, limit: int = MAX_BYTES // 4) -> Any:
    if isinstance(value, str):
        return cut(printable_text(value), limit)
    if isinstance(value, list):
        return [_printable(item, limit) for item in value]
    if isinstance(value, dict):
        return {printable_text(str(key)): _printable(item, limit) for key, item in value.items()}
    return value


def printable_text(value: str) -> str:
    """Like :func:`printable`, keeping line breaks."""
    return "\n".join(printable(line) for line in value.split("\n"))


def write_results(report: Report, path: str | Path, form: str = "exercism") -> None:
    """Write the results file."""
    Path(path).write_bytes(encode(report, form) + b"\n")


__all__ = ["FORMATS", "hint", "write_results"]
