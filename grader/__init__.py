"""A behaviour-only grader for the five event-log functions.

Run ``python -m grader`` (or ``pytest grader/suite --target T``). From Python::

    import grader
    report = grader.grade("exercises")
    print(report.text(), report.score, report.max_score)
    grader.check("append_and_ids")   # one task, feedback printed: for notebooks

The grader never imports the code it grades: learner code runs in a separate, sandboxed
interpreter that sees only its own copy and the standard library (:mod:`grader.sandbox`), and
expectations come from the contract's properties and a small oracle (:mod:`grader.oracle`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from grader.report import Report

__all__ = ["check", "grade"]


def grade(
    target: str = "exercises", tasks: list[str] | None = None, time_limit: float | None = None
) -> Report:
    """Grade ``target`` and return the report; learner code runs in a sandboxed child process.

    Args:
        target: ``exercises``, ``solutions``, a dotted module name, a folder or a .py file.
        tasks: task ids or numbers to grade (default: all five, in order).
        time_limit: seconds one example may take before it counts as timed out (default 5).

    Raises:
        KeyError: a task that does not exist.
    """
    # Imported here so ``import grader`` stays cheap for tools that only need a submodule.
    from grader.runner import DEFAULT_TIME_LIMIT, run
    from grader.tasks import select

    return run(target, select(tasks), DEFAULT_TIME_LIMIT if time_limit is None else time_limit)


def check(task: str, target: str = "exercises") -> bool:
    """Grade one task, print its feedback and return whether it passes (for notebooks).

    The same grading as ``python -m grader --task TASK``; see :func:`grader.learner.check`.

    Raises:
        KeyError: a task id that does not exist.
    """
    from grader.learner import check as check_task

    return check_task(task, target)
