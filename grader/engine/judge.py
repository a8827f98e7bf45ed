"""Judging a plan's answers in order; the first step that is wrong is the failure.

The transcript a failure shows is the lines of the steps before it that build something
(logs, payloads, changes), then the failing call itself: a program the learner can paste and
run. Reads that passed are left out: they show nothing about the failure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grader.engine.answers import EventView, Problem, event_view
from grader.engine.data import Malformed
from grader.engine.oracle import ModelEvent
from grader.engine.outcomes import Cause, Failure, Line, Status
from grader.engine.steps import AppendStep, BlockStep, Context, EventRef, Read, Step
from grader.engine.wire import Ref

if TYPE_CHECKING:
    from grader.engine.plan import Plan


class Walk:
    """What the judge knows while it walks the answers: the learner's events as they came
    back, and the first answer of each read that is repeated."""

    def __init__(self, plan: Plan, answers: list[Any]) -> None:
        self.plan = plan
        self.answers = answers
        self.extra: list[Line] = []
        self.extra_steps: list[Step] = []
        self._memory: dict[Any, Any] = {}
        self._views: dict[tuple[int, int | None], EventView | None] = {}

    def seen(self, ref: EventRef) -> EventView | None:
        """The learner's event for ``ref`` as append_event returned it (None: unreadable)."""
        key = (ref.step, ref.position)
        if key not in self._views:
            self._views[key] = self._view(ref)
        return self._views[key]

    def _view(self, ref: EventRef) -> EventView | None:
        if ref.step >= len(self.answers):
            return None
        answer = self.answers[ref.step]
        if not isinstance(answer, dict):
            return None
        try:
            if ref.position is None:
                return event_view(answer["value"])
            return event_view(answer["events"][ref.position])
        except (KeyError, IndexError, TypeError, Malformed, RecursionError):
            return None

    def raw(self, ref: EventRef) -> Any:
        """The learner's event for ``ref`` as the kernel observed it (None: not there)."""
        if ref.step >= len(self.answers):
            return None
        answer = self.answers[ref.step]
        try:
            observed = answer["value"] if ref.position is None else answer["events"][ref.position]
        except (KeyError, IndexError, TypeError):
            return None
        return observed if isinstance(observed, list) and len(observed) == 4 else None

    def models_of(self, step: BlockStep) -> list[ModelEvent]:
        return self.plan.block_models[id(step)]

    def recall(self, key: Any) -> Any:
        """The value first read under ``key``, or None; remembers nothing."""
        return self._memory.get(key)

    def remember(self, key: Any, value: Any) -> Any:
        """The value first read under ``key`` (None, and remembered, the first time)."""
        if key in self._memory:
            return self._memory[key]
        self._memory[key] = value
        return None

    def changed_promise(self, key: Any) -> str:
        """The promise a read that changed between two calls breaks."""
        return self.plan.changes_break.get(key, "append.old_log_unchanged")

    def extra_line(self, step: Step) -> None:
        """Show ``step`` after the failing one (the read a change was caught by)."""
        self.extra_steps.append(step)
        line = step.line(self)
        if line is not None:
            self.extra.append(line)


def judge(plan: Plan, answers: list[Any]) -> tuple[int, Problem] | None:
    """The first step whose answer is wrong, and what is wrong with it; None if all are right.

    Raises:
        Skip: the example cannot be judged by this task.
    """
    context = Walk(plan, answers)
    plan.context = context
    for index, step in enumerate(plan.steps):
        if index >= len(answers):
            return None
        try:
            problem = step.judge(answers[index], context)
        except (Malformed, RecursionError):  # not what the kernel sends (nested past its depth)
            problem = Problem(f"cause.{Cause.BROKEN.value}", (), Status.ERROR)
        if problem is not None:
            return index, _blamed_on_a_branch(plan, index, step, problem)
    return None


#: What readers promise: a wrong read can be the reader's fault, or the log's.
_READER_PROMISES = ("read.", "list.", "replay.")


def _blamed_on_a_branch(plan: Plan, index: int, step: Step, problem: Problem) -> Problem:
    """A read of a log that gives a wrong answer after something was appended to one of that
    log's ancestors since it was made: the append to the older log changed it, which breaks
    ``append.branches`` (a reader at fault fails without any branch, and is found so first:
    only the properties about branches append to older logs)."""
    if not (isinstance(step, Read) and problem.promise.startswith(_READER_PROMISES)):
        return problem
    read = next((arg.name for arg in step.args if isinstance(arg, Ref)), None)
    made, ancestors = _ancestry(plan.steps[:index], read)
    if made is None:
        return problem
    for later in plan.steps[made + 1 : index]:
        if later.changes_state and later.uses() & ancestors:
            return Problem("append.branches", problem.outcome, problem.status)
    return problem


def _ancestry(steps: list[Step], name: str | None) -> tuple[int | None, set[str]]:
    """Where log ``name`` was made, and the names of the logs it was made from."""
    made: int | None = None
    ancestors: set[str] = set()
    wanted = {name} if name else set()
    for index in range(len(steps) - 1, -1, -1):
        step = steps[index]
        if step.defines() & wanted:
            if made is None:
                made = index
            parent = step.log.name if isinstance(step, AppendStep | BlockStep) else None
            wanted = {parent} if parent else set()
            ancestors |= wanted
    return made, ancestors


def failure(plan: Plan, index: int, problem: Problem) -> Failure:
    """The failure the problem at step ``index`` amounts to, with its transcript: the failing
    call, what it showed, and before them only the steps that made what they use."""
    context = plan.context
    failing = plan.steps[index] if index < len(plan.steps) else None
    wanted = needed(plan.steps[:index], failing, context)
    lines: list[Line] = []
    imports: list[str] = []
    assert context is not None, "a plan is judged before a failure is described"
    for step in [*wanted, *([failing] if failing is not None else [])]:
        imports += step.imports()
        _add(lines, step.line(context))
    for line in context.extra if context is not None else []:
        _add(lines, line)
    function = failing.function if failing is not None else None
    header: list[Line] = list(dict.fromkeys(imports))
    return Failure(
        problem.promise, problem.status, tuple(header + lines), problem.outcome, function
    )


def needed(before: list[Step], failing: Step | None, context: Context | None) -> list[Step]:
    """The steps among ``before`` that the failing step (and what it showed) depends on, in
    their order: those that made what it uses, directly or through each other, and those
    that may have changed any of it since (an append to an older log, a change in place)."""
    names = set(failing.uses()) if failing is not None else set()
    for step in context.extra_steps if context is not None else []:
        names |= step.uses()
    kept: set[int] = set()
    grown = True
    while grown:
        grown = False
        for index, step in enumerate(before):
            if index in kept:
                continue
            made = step.shown and bool(step.defines() & names)
            touched = step.changes_state and bool(step.uses() & names)
            if made or touched:
                kept.add(index)
                names |= step.uses()
                grown = True
    return [step for index, step in enumerate(before) if index in kept]


def _add(lines: list[Line], line: Line | None) -> None:
    if isinstance(line, str):
        lines.extend(line.split("\n"))
    elif line is not None:
        lines.append(line)
