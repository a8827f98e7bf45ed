"""Each task of the grade as one pytest test; the failure message is the grader's report."""

from __future__ import annotations

import pytest

from grader.engine.contract import Task
from grader.frontends.report import report_text
from grader.run import grade
from grader.tasks import TASKS


@pytest.mark.parametrize("task", TASKS, ids=[task.id for task in TASKS])
def test_task_passes(target: str, task: Task) -> None:
    report = grade(target, [task])
    if report.score < report.max_score or report.load_problem is not None:
        pytest.fail(report_text(report), pytrace=False)
