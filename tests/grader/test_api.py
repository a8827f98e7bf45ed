"""``grader.grade()``: the Python entry point notebooks use."""

from __future__ import annotations

import grader
from grader.tasks import TASKS


def test_grade_returns_a_report_that_renders_as_text() -> None:
    report = grader.grade("solutions", tasks=["list_sessions"])
    assert (report.score, report.max_score, report.exit_code) == (20, 20, 0)
    assert "3. Listing sessions" in report.text()


def test_every_task_has_points_and_hints_from_gentle_to_strong() -> None:
    assert [task.task_id for task in TASKS] == [
        "append_and_ids",
        "read_and_resume",
        "list_sessions",
        "replay",
        "reject_bad_input",
    ]
    assert sum(task.points for task in TASKS) == 100
    assert all(2 <= len(task.hints) <= 3 for task in TASKS)
