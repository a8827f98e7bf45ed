"""Grading a target: the one path every front end uses (CLI, watch mode, notebooks, pytest,
batch and Gradescope).

This process is the trusted one. It generates the examples, runs the oracle, compares and
shrinks, and computes the points; learner code never runs in it. The submission is copied
into a private workspace and run in a separate, freshly started interpreter (see
:mod:`grader.remote` and :mod:`grader.sandbox`) that answers questions over a pipe. A call
that hangs or a process that dies costs the task it happened in; a fresh child grades on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from grader import messages
from grader.failures import Failure
from grader.grading import TaskResult, grade_task, result_for
from grader.remote import (
    DEFAULT_EXAMPLE_SECONDS,
    DEFAULT_TASK_SECONDS,
    Clock,
    Learner,
    LoadFailure,
)
from grader.report import Report
from grader.sandbox import backends, workspace
from grader.sandbox.child import Limits
from grader.tasks import Task

DEFAULT_TIME_LIMIT = DEFAULT_EXAMPLE_SECONDS
#: Seconds a fresh child may take to start, on top of its import's time limit.
STARTUP_SECONDS = 2.0


def run(
    spec: str,
    tasks: Sequence[Task],
    time_limit: float = DEFAULT_TIME_LIMIT,
    *,
    task_time_limit: float = DEFAULT_TASK_SECONDS,
    isolation: str = "auto",
    limits: Limits | None = None,
    overall_seconds: float | None = None,
    log: Path | None = None,
    hidden: tuple[Path, ...] = (),
    label: str | None = None,
    load_seconds: float | None = None,
) -> Report:
    """Grade ``tasks`` of the target ``spec``; never raises for anything learner code does.

    Args:
        spec: ``exercises``, ``solutions``, a dotted module name, a folder or a ``.py`` file.
        tasks: the tasks to grade, in order.
        time_limit: seconds one example may take.
        task_time_limit: seconds one task may take in all.
        isolation: ``auto`` (see :func:`grader.sandbox.backends.choose`), ``bwrap``, ``uid``
            or ``none``.
        limits: the child's resource limits.
        overall_seconds: seconds the whole grading may take (batches set it).
        log: where the child's stray output goes.
        hidden: folders the sandbox must hide besides the usual ones.
        label: how the report names the target (default: ``spec``).
        load_seconds: seconds the import of the submission may take (default: the start of
            an interpreter plus ``time_limit``).
    """
    chosen, asked, name = backends.choose(isolation), tuple(tasks), label or spec
    max_score, ids = sum(task.points for task in asked), tuple(task.task_id for task in asked)

    def unloaded(error: str, status: str) -> Report:
        return Report(name, (), error, max_score, status, chosen, ids)

    try:
        source = dataclasses.replace(workspace.resolve(spec), label=name)
    except workspace.TargetError as error:
        return unloaded(str(error), "import_error")
    # Importing gets the time of one example, plus the start of a fresh interpreter.
    load = STARTUP_SECONDS + time_limit if load_seconds is None else load_seconds
    clock = Clock(time_limit, task_time_limit, overall_seconds, load)
    learner = Learner(source, chosen, clock, limits or Limits(), log, hidden)
    try:
        learner.open()
        results = _grade_tasks(asked, learner)
    except workspace.TargetError as error:
        return unloaded(str(error), "import_error")
    except LoadFailure as failure:
        heading = messages.LOAD_HEADING.format(target=name)
        return unloaded(f"{heading}\n{failure}", failure.kind)
    finally:
        learner.close()
    return Report(name, tuple(results), None, max_score, None, chosen, ids)


def _grade_tasks(tasks: Sequence[Task], learner: Learner) -> list[TaskResult]:
    results = []
    for task in tasks:
        try:
            result = grade_task(task, learner)
        except LoadFailure as failure:
            # A fresh child could not import the submission again: nothing more to grade.
            broken = Failure(str(failure), status=messages.STATUS_ERROR)
            result = result_for(task, messages.STATUS_ERROR, broken)
        results.append(_with_output(result, learner.output()))
    return results


def _with_output(result: TaskResult, output: str) -> TaskResult:
    return dataclasses.replace(result, output=output) if output else result
