"""``grader.grade()``: the Python entry point notebooks use."""

from __future__ import annotations

import re

import pytest

import grader
from grader.tasks import TASKS, Task


def test_grade_returns_a_report_that_renders_as_text() -> None:
    report = grader.grade("solutions", tasks=["list_sessions"])
    assert (report.score, report.max_score, report.exit_code) == (20, 20, 0)
    assert "3. Listing sessions" in report.text()


#: What makes a hint strong: it hands over code (calls, attributes, names, brackets).
CODE = re.compile(r"\w+\(|\w+\.\w+|\w+_\w+|[=\[\]{}*]")


def test_every_task_is_worth_its_points_in_the_fixed_order() -> None:
    assert [task.task_id for task in TASKS] == [
        "append_and_ids",
        "read_and_resume",
        "list_sessions",
        "replay",
        "reject_bad_input",
    ]
    assert sum(task.points for task in TASKS) == 100


@pytest.mark.parametrize("task", TASKS, ids=[task.task_id for task in TASKS])
def test_hints_go_from_gentle_to_strong_each_giving_away_at_least_as_much_code(
    task: Task,
) -> None:
    code_in = [len(CODE.findall(hint)) for hint in task.hints]
    assert len(code_in) == 3
    assert code_in == sorted(code_in) and code_in[-1] > code_in[0], code_in
