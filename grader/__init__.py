"""A behaviour-only grader for the five event-log functions.

Run ``python -m grader`` (or ``pytest grader/suite --target T``). From Python::

    import grader
    report = grader.grade("exercises")
    print(report.score, report.max_score)
    grader.check("append_and_ids")   # one task, feedback printed: for notebooks

The layers show in the folders: :mod:`grader.engine` judges (the contract's table, the
oracle, the properties, the verdicts) and :mod:`grader.tasks` holds one folder per task;
:mod:`grader.kernel` is the only code that runs in the learner's interpreter, and
:mod:`grader.transport` starts that interpreter in a sandbox; :mod:`grader.frontends` are
what people use (the command line, watch mode, notebooks, the batch, Gradescope, the web
page). Learner code is never imported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from grader.engine.outcomes import Report

__all__ = ["check", "grade"]


def grade(target: str = "exercises", tasks: Sequence[str] | None = None) -> Report:
    """Grade ``target`` (``exercises``, ``solutions``, a dotted name, a folder or a .py file);
    learner code runs in a sandboxed child process.

    Raises:
        KeyError: a task that does not exist.
    """
    # Imported here so ``import grader`` stays cheap for tools that need one submodule.
    from grader.run import grade as run
    from grader.tasks import select

    return run(target, select(tasks))


def check(task: str, target: str = "exercises") -> bool:
    """Grade one task, print its feedback, return whether it passes (for notebooks)."""
    from grader.frontends.notebook import check as check_task

    return check_task(task, target)
