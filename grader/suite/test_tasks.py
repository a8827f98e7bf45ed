"""Each task of the grade as one pytest test; the failure message is the grader's report."""

from __future__ import annotations

import pytest

from grader import messages
from grader.grading import grade_task
from grader.loading import Target
from grader.report import task_lines
from grader.tasks import TASKS, Task


@pytest.mark.parametrize("task", TASKS, ids=[task.task_id for task in TASKS])
def test_task_passes(target: Target, task: Task) -> None:
    result = grade_task(task, target)
    if result.status != messages.STATUS_PASSED:
        pytest.fail("\n".join(line for line, _ in task_lines(result)), pytrace=False)
