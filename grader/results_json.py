"""One results file that reads as both exercism's and Gradescope's format.

exercism test-runner interface, version 3: top level ``version``, ``status`` (pass, fail,
error), ``message``; ``tests[]`` with ``name``, ``status``, ``message``, ``output``,
``test_code`` and ``task_id``. Gradescope results.json: top level ``score`` (and our
``max_score``), ``output``; ``tests[]`` with ``score``, ``max_score``, ``name``, ``output``.

Where the two disagree, and how this file settles it:

* ``tests[].status``: exercism requires pass/fail/error; Gradescope's optional field takes
  passed/failed. exercism's values are kept, because exercism requires the field while
  Gradescope can infer a test's outcome from ``score`` and ``max_score``.
* ``tests[].output``: for exercism it is what the learner's code printed, at most 500
  characters; Gradescope shows it as the test's feedback. It holds the feedback, cut to 500
  characters; the full feedback is in ``tests[].message`` (exercism shows that) and in the
  top-level ``output`` (Gradescope shows that). The grader silences learner prints, so there
  is no learner output to report.
* top-level ``status``, ``version`` and ``message`` mean nothing to Gradescope, and ``score``,
  ``max_score`` and ``output`` nothing to exercism; each side ignores the other's keys.

For tools (batch grading, notebooks), each test also carries Gradescope's free-form
``extra_data``: the task's fixed id, the grader's own status (one of five, where exercism has
three) and the broken property's sentence.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from grader import messages
from grader.grading import TaskResult
from grader.report import Report, task_lines

EXERCISM_VERSION = 3
OUTPUT_LIMIT = 500
_TEST_STATUS = {
    messages.STATUS_PASSED: "pass",
    messages.STATUS_FAILED: "fail",
    messages.STATUS_NOT_IMPLEMENTED: "fail",
    messages.STATUS_TIMED_OUT: "error",
    messages.STATUS_ERROR: "error",
}


def results_document(report: Report) -> dict[str, Any]:
    """The results as a JSON-ready dict (see the module docstring for the field choices)."""
    if report.load_error is not None:
        return {
            "version": EXERCISM_VERSION,
            "status": "error",
            "message": report.load_error,
            "score": 0,
            "max_score": report.max_score,
            "output": report.load_error,
            "tests": [],
        }
    return {
        "version": EXERCISM_VERSION,
        "status": "pass" if report.full_marks else "fail",
        "message": None,
        "score": report.score,
        "max_score": report.max_score,
        "output": report.text(),
        "tests": [_test(result) for result in report.results],
    }


def _test(result: TaskResult) -> dict[str, Any]:
    feedback = "\n".join(line for line, _ in task_lines(result)).strip("\n")
    test: dict[str, Any] = {
        "name": messages.REPORT_TASK.format(number=result.number, name=result.name),
        "task_id": result.number,
        "status": _TEST_STATUS[result.status],
        "message": None if result.failure is None else feedback,
        "output": _cut(feedback),
        "score": result.earned,
        "max_score": result.points,
        "extra_data": {
            "task": result.task_id,
            "grader_status": result.status,
            "broken_property": None if result.failure is None else result.failure.sentence,
        },
    }
    if result.failure is not None and result.failure.lines:
        test["test_code"] = "\n".join(result.failure.lines)
    return test


def _cut(text: str) -> str:
    if len(text) <= OUTPUT_LIMIT:
        return text
    room = OUTPUT_LIMIT - len(messages.OUTPUT_TRUNCATED) - 1
    return text[:room] + "\n" + messages.OUTPUT_TRUNCATED


def write_results(report: Report, path: str | Path) -> None:
    """Write the results file (UTF-8, stable key order, so two runs give identical bytes)."""
    text = json.dumps(results_document(report), indent=2, ensure_ascii=False)
    Path(path).write_text(text + "\n", encoding="utf-8")
