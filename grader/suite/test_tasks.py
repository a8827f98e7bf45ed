"""Each task of the grade as one pytest test; the failure message is the grader's report."""

from __future__ import annotations

import pytest

from grader.runner import run
from grader.tasks import TASKS, Task


@pytest.mark.parametrize("task", TASKS, ids=[task.task_id for task in TASKS])
def test_task_passes(target: str, task: Task) -> None:
    report = run(target, [task])
    if not report.full_marks:
        pytest.fail(report.text(), pytrace=False)
