"""Results files in the two formats graders are read by: exercism's and Gradescope's.

* ``exercism``: the test-runner interface, version 3. Top level ``version``, ``status``
  (``pass``, ``fail``, ``error``) and ``message`` (the load error, else null), then one test per
  task with ``name``, ``status``, ``message`` (the grader's feedback, null when it passed),
  ``test_code`` (the calls that show the failure, or the properties the task checks),
  ``task_id``, and ``output`` only when learner code printed something (at most 500
  characters, as the interface demands).
* ``gradescope``: ``results.json`` of the autograder specification. Top level ``score``,
  ``output`` (the whole report) and ``output_format``, then one test per task with ``score``,
  ``max_score``, ``status`` (``passed`` or ``failed``), ``name``, ``number``, ``output`` and
  ``extra_data`` (the task id, the grader's own status, the broken property).

Each file holds its format's keys and nothing else, so each validates against its own
specification (see ``tests/grader/test_cli.py``). Both say how learner code ran: Gradescope
in ``extra_data``, exercism (which has no place for it) in every test's message when it ran
without the bubblewrap sandbox.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from grader import messages
from grader.grading import TaskResult
from grader.i18n import text
from grader.report import Report, task_heading, task_lines
from grader.sandbox import backends
from grader.tasks import TASKS_BY_ID, Task

FORMATS = ("exercism", "gradescope")
EXERCISM_VERSION = 3
OUTPUT_LIMIT = 500
_EXERCISM_STATUS = {
    messages.STATUS_PASSED: "pass",
    messages.STATUS_FAILED: "fail",
    messages.STATUS_NOT_IMPLEMENTED: "fail",
    messages.STATUS_TIMED_OUT: "error",
    messages.STATUS_ERROR: "error",
}


def results_document(report: Report, form: str = "exercism") -> dict[str, Any]:
    """The results in format ``form`` as a JSON-ready dict."""
    if form == "gradescope":
        return gradescope_document(report)
    return exercism_document(report)


def exercism_document(report: Report) -> dict[str, Any]:
    """The exercism test-runner interface, version 3."""
    if report.load_error is not None:
        return {
            "version": EXERCISM_VERSION,
            "status": "error",
            "message": report.load_error,
            "tests": [],
        }
    return {
        "version": EXERCISM_VERSION,
        "status": "pass" if report.full_marks else "fail",
        "message": None,
        "tests": [_exercism_test(result, report) for result in report.results],
    }


def _exercism_test(result: TaskResult, report: Report) -> dict[str, Any]:
    message = feedback(result) if result.failure is not None else None
    note = isolation_note(report.isolation)
    if note:
        message = "\n".join(part for part in (message, note) if part)
    test: dict[str, Any] = {
        "name": task_heading(result),
        "status": _EXERCISM_STATUS[result.status],
        "message": message,
        "test_code": test_code(result),
        "task_id": result.number,
    }
    if result.output:
        test["output"] = cut(result.output, messages.OUTPUT_TRUNCATED)
    return test


def gradescope_document(report: Report) -> dict[str, Any]:
    """Gradescope's ``results.json``."""
    output = report.text()
    note = isolation_note(report.isolation)
    if note:
        output += "\n\n" + note
    tests = [_gradescope_test(result) for result in report.results]
    if report.load_error is not None:
        asked = [TASKS_BY_ID[task_id] for task_id in report.task_ids]
        tests = [_gradescope_unloaded(task, report.load_error) for task in asked]
    return {
        "score": report.score,
        "output": output,
        "output_format": "text",
        "tests": tests,
        "extra_data": {"isolation": report.isolation},
    }


def _gradescope_test(result: TaskResult) -> dict[str, Any]:
    return {
        "score": result.earned,
        "max_score": result.points,
        "status": "passed" if result.status == messages.STATUS_PASSED else "failed",
        "name": task_heading(result),
        "number": str(result.number),
        "output": feedback(result),
        "output_format": "text",
        "extra_data": {
            "task": result.task_id,
            "grader_status": result.status,
            "broken_property": None if result.failure is None else result.failure.sentence,
        },
    }


def _gradescope_unloaded(task: Task, load_error: str) -> dict[str, Any]:
    return {
        "score": 0,
        "max_score": task.points,
        "status": "failed",
        "name": task_heading(task),
        "number": str(task.number),
        "output": load_error,
        "output_format": "text",
        "extra_data": {
            "task": task.task_id,
            "grader_status": "load_error",
            "broken_property": None,
        },
    }


def isolation_note(isolation: str | None) -> str | None:
    """What a results file says about a grading that ran without the bubblewrap sandbox."""
    if isolation == backends.NONE:
        return messages.NO_SANDBOX_NOTE
    if isolation == backends.UID:
        return messages.NO_SANDBOX_UID_NOTE
    return None


def feedback(result: TaskResult) -> str:
    """The task's lines of the report: heading, what broke, the hint."""
    return "\n".join(line for line, _ in task_lines(result)).strip("\n")


def test_code(result: TaskResult) -> str:
    """The calls that show the failure; for a task with none, what the task checks."""
    if result.failure is not None and result.failure.lines:
        return "\n".join(result.failure.lines)
    properties = TASKS_BY_ID[result.task_id].properties
    sentences = dict.fromkeys(text(check) for prop in properties for check in prop.checks)
    return "\n".join(f"# {sentence}" for sentence in sentences)


def cut(text: str, notice: str) -> str:
    """``text`` cut to :data:`OUTPUT_LIMIT` characters, ending with ``notice`` when cut."""
    if len(text) <= OUTPUT_LIMIT:
        return text
    return text[: OUTPUT_LIMIT - len(notice) - 1] + "\n" + notice


def write_results(report: Report, path: str | Path, form: str = "exercism") -> None:
    """Write the results file (UTF-8, stable key order, so two runs give identical bytes)."""
    text = json.dumps(results_document(report, form), indent=2, ensure_ascii=False)
    Path(path).write_text(text + "\n", encoding="utf-8")
