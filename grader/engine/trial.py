"""Trying examples in full: each answer judged, the first failure shrunk.

This is the slow path of a property (see :mod:`grader.engine.running`): it runs when an
example's digests differ from a correct implementation's, or when the bank is stale, and it
needs the plans, the judge and the shrinker. Every example runs in one request; a call that
hangs or a process that dies costs CPU time, so after one, smaller examples get less, and
after :data:`COSTLY_BUDGET` of them the smallest failure so far is reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grader.engine.answers import Problem, Skip
from grader.engine.judge import failure, judge
from grader.engine.learner import Learner, LoadFailure, Stop, StopKind
from grader.engine.outcomes import Cause, Failure, Said, Status
from grader.engine.plan import Plan
from grader.engine.properties import Property
from grader.engine.shrink import StopShrinking
from grader.engine.steps import Imprecise, Mutate

#: After an example that hangs or kills the learner's process, smaller ones get this much
#: CPU time per call (a fair call takes milliseconds) ...
SHRINK_SECONDS = 0.5
#: ... and after this many more such examples the smallest found so far is reported.
COSTLY_BUDGET = 6


class StopProperty(Exception):
    """Ends a property at once with this failure: no more examples, no shrinking (time up,
    a costly failure past its budget)."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.promise)
        self.failure = failure


class Trial:
    """One property's examples tried in full against one learner, and what it costs when
    examples hang."""

    def __init__(self, prop: Property, learner: Learner, strict: bool, shrink: bool = True) -> None:
        self.prop, self.learner, self.strict, self.shrink = prop, learner, strict, shrink
        self.costly_left = COSTLY_BUDGET
        self.seconds: float | None = None

    def after_digest(self, value: Any, expected: str, answer: Any) -> Failure | None:
        """An example whose digests differed: judged in full, then shrunk (None: this task
        cannot judge it, a valid append refused being another task's business)."""
        try:
            found = self.attempt(value)
            if found is None:
                if self._answers_alike(value, answer):
                    return None
                found = self._flaky(value, expected, answer)
            return self.smallest(value, found)
        except Skip:
            return None
        except StopProperty as stopped:
            return stopped.failure

    def after_stop(self, value: Any, stop: Stop) -> Failure | None:
        """An example whose digest run stopped: its failure, then shrunk (None: this task
        cannot judge it)."""
        try:
            return self.smallest(value, self._stopped_at(value, stop))
        except Skip:
            return None
        except StopProperty as stopped:
            return stopped.failure

    def in_full(self, values: Sequence[Any]) -> Failure | None:
        """Every example judged in full; the first failure, shrunk (None: all passed)."""
        try:
            for value in values:
                try:
                    found = self.attempt(value)
                except Skip:
                    continue
                if found is not None:
                    return self.smallest(value, found)
        except StopProperty as stopped:
            return stopped.failure
        return None

    def attempt(self, value: Any) -> Failure | None:
        """Run one example in full and judge it; its failure, or None.

        Raises:
            Skip: the example cannot be judged by this task.
        """
        self.learner.begin_example(self.seconds)
        plan = self._plan(value)
        answers, stop = self.learner.run([plan.request()])
        if stop is not None and stop.kind is not StopKind.FORGED and len(answers) < stop.step:
            # Answers the stopped kernel had made but not sent: asked again of a fresh one
            # (they finished once, so they finish again).
            again, stopped = self.learner.run([plan.request()[: stop.step]])
            answers = again if stopped is None else answers
        found, stop = _judged(plan, answers, stop, self.learner)
        if found is None and stop is not None:
            found = (min(stop.step, len(plan.steps) - 1), _problem_of(stop, self.learner))
        if found is None:
            return None
        bad = failure(plan, *found)
        self._spend(bad, stop)
        return bad

    def _stopped_at(self, value: Any, stop: Stop) -> Failure:
        """The failure of an example whose digest run stopped at ``stop``: the steps before
        it asked again in full (a step that failed first is the failure), else the stop."""
        plan = self._plan(value)
        self.learner.begin_example(self.seconds)
        before, again = self.learner.run([plan.request()[: stop.step]])
        found = judge(plan, before) if again is None else None
        if found is None:
            found = (min(stop.step, len(plan.steps) - 1), _problem_of(stop, self.learner))
        bad = failure(plan, *found)
        self._spend(bad, stop)
        return bad

    def _plan(self, value: Any) -> Plan:
        """The steps of example ``value``, as this property builds them (raises what the
        property raises: :class:`~grader.engine.answers.Skip`, or an example it cannot build)."""
        plan = Plan(self.strict)
        self.prop.build(plan, value)
        return plan

    def _answers_alike(self, value: Any, answer: Any) -> bool:
        """Whether the code answers ``value`` by the same digests again: then its answers in
        full, which passed, are the ones that differed, and they differ from a correct
        implementation's only where this task does not look. A digest covers a whole answer,
        while a task about reading takes the learner's own appends as they came (a content
        whose line breaks the append changed is the business of the tasks about appending,
        not of one about listing sessions)."""
        plan = self._plan(value)
        self.learner.begin_example(self.seconds)
        again, stop = self.learner.run([plan.request()], digest=True)
        return stop is None and again == [answer]

    def _flaky(self, value: Any, expected: str, answer: Any) -> Failure:
        """Digests that differed, then full answers that passed: the code does not answer
        the same calls the same way twice. The first step that differed is the failure."""
        plan = self._plan(value)
        got = str(answer.get("d", "")) if isinstance(answer, dict) else ""
        step = next(
            (i for i in range(len(plan.steps))
             if got[16 * i : 16 * i + 16] != expected[16 * i : 16 * i + 16]),
            len(plan.steps) - 1,
        )  # fmt: skip
        judge(plan, [])  # no answers to read: the transcript shows the calls only
        promise = self.prop.promises[0] if self.prop.promises else "append.accepts_valid"
        problem = Problem(promise, (Said("outcome.answered_differently"),))
        return failure(plan, step, problem).noting(Said("note.flaky"))

    def smallest(self, value: Any, first: Failure) -> Failure:
        """The smallest failing example the shrinker finds, starting from ``value`` (see
        :mod:`grader.engine.smallest`): each smaller candidate asked of the learner's code.
        Not shrinking, ``first`` as it is."""
        if not self.shrink:
            return first
        from grader.engine.smallest import smallest_failure

        cheap = self.learner.cheap_kernels
        return smallest_failure(self.prop.name, value, first, self._candidate, self._fresh, cheap)

    def _candidate(self, value: Any) -> Failure | None:
        """A candidate run while shrinking: its failure, or None (it passes, or is no example
        this task can judge or this property can build)."""
        try:
            self._plan(value)
        except Exception:  # Skip, or a reduction this property has no example for
            return None
        try:
            return self.attempt(value)
        except Skip:
            return None
        except StopProperty:  # time up, or hangs past their budget: keep the smallest so far
            raise StopShrinking() from None

    def _fresh(self) -> None:
        """A fresh kernel, the code loaded again (one that no longer loads ends shrinking)."""
        try:
            self.learner.load()
        except LoadFailure:
            raise StopShrinking() from None

    def _spend(self, bad: Failure, stop: Stop | None) -> None:
        """Account for a failure that cost a hung or dead process; stop when the budget is gone.
        A call that blocks is reported as it is: waiting does not shrink, and every smaller
        example would wait for the stall watch again."""
        if stop is None or bad.status not in (Status.TIMED_OUT, Status.ERROR):
            return
        if stop.kind is StopKind.BLOCKED:
            raise StopProperty(bad)
        self.seconds = min(SHRINK_SECONDS, self.learner.clock.example)
        self.costly_left -= 1
        if self.costly_left < 0:
            raise StopProperty(bad)


def _judged(
    plan: Plan, answers: list[Any], stop: Stop | None, learner: Learner
) -> tuple[tuple[int, Problem] | None, Stop | None]:
    """Judge the answers; when a change reached a read and the answer cannot say which
    change did it, run the example again reading after every change, on a fresh kernel where
    one is cheap (the first run may have changed what the code keeps between calls: a list
    every empty read shares). Should the second run pass (learner code that behaves
    differently each time), the first answers are judged as they are, with every change
    shown."""
    try:
        return judge(plan, answers), stop
    except Imprecise:
        pass
    for step in plan.steps:
        if isinstance(step, Mutate):
            step.precise = True
    try:
        if learner.cheap_kernels:
            learner.load()
    except LoadFailure:
        return judge(plan, answers), stop
    again, stopped = learner.run([plan.request()])
    found = judge(plan, again)
    if found is not None or stopped is not None:
        return found, stopped
    return judge(plan, answers), stop


def _problem_of(stop: Stop, learner: Learner) -> Problem:
    """The problem a stop amounts to: a call past its CPU share, a wait, a death, a broken or
    forged pipe, the task's time up, a machine too busy to grade."""
    if stop.kind is StopKind.OVERRUN:
        raise StopProperty(Failure(f"cause.{Cause.TASK_TIMED_OUT.value}", Status.TIMED_OUT))
    if stop.kind is StopKind.BUSY:
        raise StopProperty(Failure(f"cause.{Cause.MACHINE_BUSY.value}", Status.ERROR))
    if stop.kind is StopKind.TIMED_OUT:
        # The limit the learner set (--time-limit): smaller examples tried while shrinking get
        # less time, but the first one that hung had all of it.
        said = Said(
            "outcome.timed_out" if learner.measures_cpu else "outcome.timed_out_wall",
            {"seconds": learner.clock.example, "call": stop.call},
        )
        return Problem(f"cause.{Cause.TIMED_OUT.value}", (said,), Status.TIMED_OUT)
    if stop.kind is StopKind.BLOCKED:
        said = Said("outcome.blocked", {"seconds": learner.clock.example})
        return Problem(f"cause.{Cause.BLOCKED.value}", (said,), Status.TIMED_OUT)
    if stop.kind is StopKind.DIED:
        return Problem(
            f"cause.{Cause.DIED.value}", (Said("outcome.died", {"code": stop.code}),), Status.ERROR
        )
    if stop.kind is StopKind.FORGED:
        return Problem(f"cause.{Cause.FORGED.value}", (), Status.TAMPERED)
    return Problem(f"cause.{Cause.BROKEN.value}", (), Status.ERROR)
