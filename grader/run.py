"""Grading a target in a sandbox: the one path every local front end uses (the command line,
watch mode, notebooks, pytest, the batch and the Gradescope autograder).

It finds the code a target names, chooses the isolation, and hands the engine a way to start
the learner's interpreter; the engine does the rest (see :mod:`grader.engine.grading`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import cast

from grader.engine import grading
from grader.engine.contract import FUNCTIONS, Task
from grader.engine.learner import Clock, Learner
from grader.engine.outcomes import Report, Said, Verdict
from grader.settings import Settings
from grader.tasks import TASKS
from grader.transport import isolation, workspace
from grader.transport.child import ChildTransport
from grader.transport.inprocess import InProcessTransport
from grader.transport.sandbox import Limits


def grade(
    target: str,
    tasks: Sequence[Task] = TASKS,
    settings: Settings = Settings(),
    *,
    label: str | None = None,
    log: Path | None = None,
    hidden: tuple[Path, ...] = (),
    full: bool = False,
) -> Report:
    """Grade ``tasks`` of ``target``; never raises for anything learner code does.

    Args:
        target: ``exercises``, ``solutions``, a dotted module name, a folder or a ``.py`` file.
        settings: time limits, isolation and resources.
        label: how the report names the target (default: ``target``).
        log: where what learner code writes to its standard streams goes.
        hidden: folders the sandbox must hide besides the usual ones.
        full: judge every answer in full rather than by digest (the same verdicts, slower).
    """
    name = label or target
    asked = tuple(task.id for task in tasks)
    possible = sum(task.points for task in tasks)

    def unloaded(said: Said, verdict: Verdict, isolation_used: str = "none") -> Report:
        return Report(name, (), asked, possible, isolation_used, said, verdict)

    try:
        launcher = isolation.choose(settings.isolation)
    except isolation.Unavailable as unavailable:
        return unloaded(
            Said(unavailable.reason, {"path": unavailable.detail}), Verdict.IMPORT_ERROR
        )
    try:
        source = workspace.resolve(target)
        workspace.create(source).remove()  # refuse what cannot be copied before any child starts
    except workspace.TargetError as error:
        return unloaded(_target_problem(error), Verdict.IMPORT_ERROR, launcher.isolation.value)
    limits = Limits(memory_mb=settings.memory_mb, cpu_seconds=settings.cpu_seconds)
    clock = Clock(settings.example_seconds, settings.task_seconds, settings.submission_seconds,
                  settings.load_seconds)  # fmt: skip
    functions = tuple(function.name for function in FUNCTIONS)

    def learner() -> Learner:
        copy = workspace.create(source)
        transport = ChildTransport(launcher, copy, limits, functions, log, hidden)
        return Learner(transport, clock, on_close=copy.remove)

    report = grading.grade(name, tasks, learner, launcher.isolation.value, full)
    if launcher.note is not None:
        report = _with_note(report, Said(launcher.note, {"python": launcher.python}))
    if launcher.isolation is isolation.Isolation.UID and not launcher.own_network:
        report = _with_note(report, Said("isolation.uid_network_open"))  # the mode says so
    return report


def grade_in_process(
    target: str,
    tasks: Sequence[Task] = TASKS,
    settings: Settings = Settings(),
    full: bool = False,
    shrink: bool = True,
) -> Report:
    """Grade trusted code in this very interpreter: no sandbox, no second process (see
    :mod:`grader.transport.inprocess`). For the grader's own tests of its verdicts, its
    report and its formats, on the corpus; never for a learner's submission."""
    clock = Clock(settings.example_seconds, settings.task_seconds, settings.submission_seconds,
                  settings.load_seconds)  # fmt: skip

    def learner() -> Learner:
        return Learner(InProcessTransport(target), clock)

    return grading.grade(target, tasks, learner, "none", full, shrink)


def _target_problem(error: workspace.TargetError) -> Said:
    if error.reason == "too_large":
        files, size = cast(tuple[int, int], error.detail)
        return Said("load.too_large", {"files": files, "size": size})
    if error.reason == "too_deep":
        return Said("load.too_deep", {"depth": error.detail})
    if error.reason == "unreadable":
        return Said("load.unreadable", {"name": str(error.detail)})
    return Said("load.not_found", {"target": error.target})


def _with_note(report: Report, note: Said) -> Report:
    from dataclasses import replace

    return replace(report, notes=(*report.notes, note))
