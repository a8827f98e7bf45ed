"""``grader.check(task)``: grade one task from a notebook and print its feedback."""

from __future__ import annotations

from grader.frontends.report import report_text


def check(task: str, target: str = "exercises") -> bool:
    """Grade one task and print its feedback: what the notebooks call after each exercise.

    The same grading as ``python -m grader --task TASK``: learner code runs in a separate
    process, so it sees the files as last saved, and nothing it does is raised here.

    Args:
        task: a task id (``"append_and_ids"``) or number (``"1"``).
        target: what to grade; the ``exercises`` package by default.

    Returns:
        True when the task passes.

    Raises:
        KeyError: no task has that id or number.
    """
    from grader.run import grade
    from grader.tasks import select

    report = grade(target, select([task]))
    print(report_text(report))
    return report.score == report.max_score and report.load_problem is None
