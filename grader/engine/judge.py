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
from grader.engine.outcomes import Cause, Failure, Said, Status
from grader.engine.steps import BlockStep, EventRef, Step

if TYPE_CHECKING:
    from grader.engine.plan import Plan


class Context:
    """What the judge knows while it walks the answers: the learner's events as they came
    back, and the first answer of each read that is repeated."""

    def __init__(self, plan: Plan, answers: list[Any]) -> None:
        self.plan = plan
        self.answers = answers
        self.extra: list[str | Said] = []
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
        except (KeyError, IndexError, TypeError, Malformed):
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
    context = Context(plan, answers)
    plan.context = context
    for index, step in enumerate(plan.steps):
        if index >= len(answers):
            return None
        try:
            problem = step.judge(answers[index], context)
        except Malformed:
            problem = Problem(f"cause.{Cause.BROKEN.value}", (), Status.ERROR)
        if problem is not None:
            return index, problem
    return None


def failure(plan: Plan, index: int, problem: Problem) -> Failure:
    """The failure the problem at step ``index`` amounts to, with its transcript: the failing
    call, what it showed, and before them only the steps that made what they use."""
    context = plan.context
    failing = plan.steps[index] if index < len(plan.steps) else None
    wanted = needed(plan.steps[:index], failing, context)
    lines: list[str | Said] = []
    imports: list[str] = []
    assert context is not None, "a plan is judged before a failure is described"
    for step in [*wanted, *([failing] if failing is not None else [])]:
        imports += step.imports()
        _add(lines, step.line(context))
    for line in context.extra if context is not None else []:
        _add(lines, line)
    function = failing.function if failing is not None else None
    header: list[str | Said] = list(dict.fromkeys(imports))
    return Failure(
        problem.promise, problem.status, tuple(header + lines), problem.outcome, function
    )


def needed(before: list[Step], failing: Step | None, context: Context | None) -> list[Step]:
    """The steps among ``before`` that make what the failing step (and what it showed) uses,
    directly or through each other, in their order."""
    names = set(failing.uses()) if failing is not None else set()
    for step in context.extra_steps if context is not None else []:
        names |= step.uses()
    kept: list[Step] = []
    for step in reversed(before):
        if step.shown and step.defines() & names:
            kept.append(step)
            names |= step.uses()
    return list(reversed(kept))


def _add(lines: list[str | Said], line: str | Said | None) -> None:
    if isinstance(line, str):
        lines.extend(line.split("\n"))
    elif line is not None:
        lines.append(line)
