"""Grading: load the submission, then each task on a fresh kernel, first broken promise first.

This process is the trusted one: it generates the examples, runs the oracle, compares and
shrinks, and counts the points; learner code runs behind a transport (a sandboxed child, or a
browser's worker). A call that hangs or a process that dies costs the task it happened in;
a fresh kernel grades on.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from grader.engine import bank
from grader.engine.contract import FUNCTIONS, FUNCTIONS_BY_NAME, Task, owner
from grader.engine.learner import Learner, LoadFailure
from grader.engine.outcomes import Cause, Failure, Report, Said, Status, TaskResult, Verdict
from grader.engine.running import run_banked, run_property
from grader.engine.wire import Ref

#: The longest output of learner code kept per task.
MAX_OUTPUT = 10_000
#: Seconds (CPU, or wall-clock times the browser's factor) each call of the not-written probe
#: gets. A stub raises NotImplementedError at once; a call still running after this long is
#: written (and met again, with its full time, by the task's examples), so a function that
#: loops costs the probe half a second instead of a whole example's limit.
PROBE_SECONDS = 0.5


def grade(
    target: str,
    tasks: Sequence[Task],
    learner: Callable[[], Learner],
    isolation: str,
    full: bool = False,
    shrink: bool = True,
) -> Report:
    """Grade ``tasks`` of one submission; never raises for anything learner code does.

    Args:
        target: how the report names the submission.
        learner: makes the :class:`Learner` (one per grade: one sandbox, a kernel per task).
        isolation: how learner code runs, for the report.
        full: judge every answer in full instead of comparing digests (the same verdicts,
            slower: for tests that prove it).
        shrink: shrink a failing example before it is shown. Without it, a failure shows the
            first failing example as it is: the same statuses and score for much less work,
            for tests that check only those (a red set of wrong files).
    """
    asked = tuple(task.id for task in tasks)
    max_score = sum(task.points for task in tasks)
    graded = _grade_tasks(tasks, learner, full, shrink)
    if isinstance(graded, LoadFailure):
        return Report(target, (), asked, max_score, isolation, graded.said, graded.verdict,
                      graded.reports)  # fmt: skip
    results, reports, faults, measured = graded
    results = [_with_grader_faults(result, faults) for result in results]
    if reports:
        results = [_tampered(result, reports) for result in results]
    notes = () if measured else (Said("note.wall_clock_limits"),)
    return Report(target, tuple(results), asked, max_score, isolation, None,
                  verdict_of(results, reports), tuple(reports), notes)  # fmt: skip


Graded = tuple[list[TaskResult], list[dict[str, str]], list[str], bool]


def _grade_tasks(
    tasks: Sequence[Task], make: Callable[[], Learner], full: bool, shrink: bool = True
) -> Graded | LoadFailure:
    learner = make()
    results: list[TaskResult] = []
    try:
        for task in tasks:
            if learner.reports:
                # Caught by the guard: every task scores nothing, whatever grading it would
                # show, so the tasks left are not graded (a hostile file's shrinking, re-run
                # on fresh kernels, cost tens of seconds of the class's time for no point).
                results.append(TaskResult(task.id, task.number, task.points, Status.TAMPERED))
                continue
            results.append(grade_task(task, learner, full, shrink))
    except LoadFailure as failure:
        if learner.reports:
            return LoadFailure(Said("load.tampered"), Verdict.TAMPERED, tuple(learner.reports))
        if not results or failure.verdict is Verdict.MACHINE_BUSY:
            return failure
        # It loaded once and not again (it depends on what its own earlier run left behind):
        # the tasks still to grade are errors, the ones graded keep their verdicts.
        reloaded = _not_reloaded(failure)
        results += [TaskResult(task.id, task.number, task.points, reloaded.status, reloaded)
                    for task in tasks[len(results):]]  # fmt: skip
    finally:
        learner.close()
    return results, learner.reports, learner.faults, learner.measures_cpu


def _not_reloaded(failure: LoadFailure) -> Failure:
    """A task's failure when a fresh kernel did not load the code again: an error, or, when
    the time this submission is given ran out, a timeout."""
    out_of_time = failure.said.message == "load.no_time_left"
    status = Status.TIMED_OUT if out_of_time else Status.ERROR
    return Failure(f"cause.{Cause.RELOAD.value}", status, outcome=(failure.said,))


def grade_task(task: Task, learner: Learner, full: bool = False, shrink: bool = True) -> TaskResult:
    """Run a task's properties in order on a fresh kernel; the first broken one decides."""
    learner.begin_task()
    missing = not_written(learner, task.functions)
    if missing:
        return _result(task, Status.NOT_IMPLEMENTED, _not_implemented(task, missing), learner)
    banked = None if full else bank.load(task.id)
    try:
        learner.fresh_for_examples()
    except LoadFailure as failed:  # as when a property's fresh kernel does not load again
        reloaded = _not_reloaded(failed)
        return _result(task, reloaded.status, reloaded, learner)
    names = list(banked) if banked is not None else [prop.name for prop in task.properties]
    for name in names:
        try:
            if banked is not None:
                named = functools.partial(task.property_named, name)
                failure = run_banked(named, banked[name], learner, task.strict, shrink)
            else:
                prop = task.property_named(name)
                failure = run_property(prop, examples_of(task, prop), learner, task.strict, shrink)
        except LoadFailure as failed:
            # A fresh kernel that did not load again (its code depends on what an earlier run
            # left, or no time was left): this task's failure, never the grader's.
            failure = _not_reloaded(failed)
        except Exception as error:  # a bug in the grader: say so instead of crashing
            said = Said(
                "outcome.grader_bug", {"kind": type(error).__name__, "message": str(error)[:300]}
            )
            failure = Failure(f"cause.{Cause.GRADER.value}", Status.ERROR, outcome=(said,))
        if failure is not None:
            return _result(task, failure.status, _named(task, failure), learner)
        if learner.out_of_time:
            return _result(
                task,
                Status.TIMED_OUT,
                Failure(f"cause.{Cause.TASK_TIMED_OUT.value}", Status.TIMED_OUT),
                learner,
            )
    return _result(task, Status.PASSED, None, learner)


def examples_of(task: Task, prop: Any) -> list[Any]:
    """A property's example values: the bank's (a test that judges them in full), else drawn
    live (a stale bank: a contributor's tree)."""
    stored = bank.load(task.id)
    if stored is not None and prop.name in stored:
        return list(stored[prop.name].values)
    from grader.engine.drawing import draw_examples

    return draw_examples(task.id, prop)


def _result(task: Task, status: Status, failure: Failure | None, learner: Learner) -> TaskResult:
    return TaskResult(
        task.id, task.number, task.points, status, failure, learner.output()[:MAX_OUTPUT]
    )


def _named(task: Task, failure: Failure) -> Failure:
    """A failure caused by a function another task introduces says so, naming it."""
    function = failure.function
    if function is None or function not in FUNCTIONS_BY_NAME or owner(function) == task.id:
        return failure
    return failure.noting(
        Said("note.function_of_task", {"function": function, "task": owner(function)})
    )


def _not_implemented(task: Task, missing: list[str]) -> Failure:
    notes = tuple(
        Said("note.written_in_task", {"function": name, "task": owner(name)})
        for name in missing
        if owner(name) != task.id
    )
    message = (
        "outcome.not_implemented_task" if len(missing) == 1 else "outcome.not_implemented_tasks"
    )
    said = Said(message, {"functions": ", ".join(missing)})
    return Failure("outcome.not_implemented", Status.NOT_IMPLEMENTED, (), (said,), None, notes)


def not_written(learner: Learner, functions: Sequence[str]) -> list[str]:
    """Which of ``functions`` raise NotImplementedError on their simplest call.

    The functions that build a log go first, each on what the one before built (or None,
    when it is not written: a stub raises NotImplementedError whatever it gets, an
    implementation something else); the others get the log they built. Each call has
    :data:`PROBE_SECONDS`: one still running then is written.
    """
    missing: list[str] = []
    steps: list[tuple[Any, ...]] = []
    log: Any = None
    for function in [f for f in FUNCTIONS if f.builds or f.name in functions]:
        keep = f"probe_{function.name}"
        args = [log if arg == "$log" else arg for arg in function.probe]
        if function.view == "pair":  # the kernel keeps a pair's two items by their own names
            call: tuple[Any, ...] = ("append", *args, keep + "_log", keep)
        else:
            call = ("call", function.name, args, {}, keep, "none")
        learner.begin_example(min(PROBE_SECONDS, learner.clock.example))
        answers, _ = learner.run([[*steps, call]])
        answer = answers[-1] if len(answers) == len(steps) + 1 else None
        if _stub(answer):
            missing.append(function.name)
        elif function.builds and isinstance(answer, dict) and not _failed(answer):
            steps.append(call)
            log = _built(function, keep)
    return [name for name in missing if name in functions]


def _built(function: Any, keep: str) -> Any:
    """What the next probe gets as its log: the kept value (the pair's first item for
    append_event)."""
    if function.view == "pair":
        return ("$ref", keep + "_log")
    return ("$ref", keep)


def _failed(answer: dict[str, Any]) -> bool:
    return any(
        key in answer
        for key in ("raised", "not_implemented", "exit", "control", "missing", "not_pair")
    )


def _stub(answer: Any) -> bool:
    return isinstance(answer, dict) and bool(answer.get("not_implemented"))


def _tampered(result: TaskResult, reports: list[dict[str, str]]) -> TaskResult:
    """No points for a submission the guard caught: the evidence goes in the failure."""
    evidence = tuple(Said("outcome.tampered", dict(report)) for report in reports[:5])
    return replace(
        result,
        status=Status.TAMPERED,
        failure=Failure(f"cause.{Cause.TAMPERED.value}", Status.TAMPERED, (), evidence),
    )


def _with_grader_faults(result: TaskResult, faults: list[str]) -> TaskResult:
    if not faults or result.status is Status.PASSED:
        return result
    # The kernel runs in the learner's process: a fault it reports is its word, which code
    # that took it over could also say. So it costs the task as a broken protocol would, and
    # the instructor sees what it said, never "the grader itself failed".
    said = tuple(Said("outcome.kernel_fault", {"message": fault[:300]}) for fault in faults[:3])
    return replace(
        result,
        status=Status.ERROR,
        failure=Failure(f"cause.{Cause.BROKEN.value}", Status.ERROR, (), said),
    )


def verdict_of(results: Sequence[TaskResult], reports: Sequence[dict[str, str]]) -> Verdict:
    """Graded, or the worst trouble: tampering, a broken protocol, memory, time, a crash."""
    if reports:
        return Verdict.TAMPERED
    promises = {result.failure.promise for result in results if result.failure is not None}
    if f"cause.{Cause.MACHINE_BUSY.value}" in promises:
        return Verdict.MACHINE_BUSY
    if f"cause.{Cause.BROKEN.value}" in promises or f"cause.{Cause.FORGED.value}" in promises:
        return Verdict.PROTOCOL_ERROR
    if f"cause.{Cause.MEMORY.value}" in promises:
        return Verdict.MEMORY_EXCEEDED
    statuses = {result.status for result in results}
    if Status.TIMED_OUT in statuses:
        return Verdict.TIMED_OUT
    if Status.ERROR in statuses:
        return Verdict.CRASHED
    return Verdict.GRADED


def elapsed(since: float) -> float:
    return time.monotonic() - since


__all__ = ["Ref", "grade", "grade_task", "not_written", "verdict_of"]
