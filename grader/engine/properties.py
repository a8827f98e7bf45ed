"""A property: a hypothesis test whose examples become plans, and the machinery that runs it.

Running a property returns None when every example passed, or the :class:`Failure` of the
smallest failing example: the first example that fails (the boundary examples run first,
then hypothesis's draws) is shrunk by :mod:`grader.engine.shrink`, asking the learner's code
again for each smaller candidate. Hypothesis only draws: it never shrinks, and never runs an
example twice. Determinism is a promise to learners and instructors: the same code always
gets the same score and the same counterexample, on every machine and in the browser. So:
a seed of its own per property (not derived from source text or timing), no example
database, no deadline, and a shrinker that counts attempts, never seconds.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, reject, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from grader.engine.answers import Problem, Skip
from grader.engine.judge import failure, judge
from grader.engine.learner import Learner, LoadFailure, Stop
from grader.engine.outcomes import Cause, Failure, Said, Status
from grader.engine.plan import Plan
from grader.engine.shrink import StopShrinking
from grader.engine.smallest import same_way, smallest_failure
from grader.engine.steps import Imprecise, Mutate

BASE_SETTINGS = settings(
    database=None,
    deadline=None,
    print_blob=False,
    report_multiple_bugs=False,
    verbosity=Verbosity.quiet,
    phases=(Phase.generate,),
    suppress_health_check=list(HealthCheck),
)
#: After an example that hangs or kills the learner's process, smaller ones get this much
#: time each (a fair example takes milliseconds) ...
SHRINK_SECONDS = 0.5
#: ... and after this many more such examples the smallest found so far is reported.
COSTLY_BUDGET = 6


@dataclass(frozen=True)
class Property:
    """One hypothesis test.

    Attributes:
        name: its id within the task (also its seed).
        strategy: draws its examples.
        build: adds an example's steps to a plan.
        examples: how many examples to draw.
        explicit: examples always run first (the boundary cases: 1,005 events, ...).
        promises: the promise ids it checks (the clause table maps each to a mutant).
    """

    name: str
    strategy: st.SearchStrategy[Any]
    build: Callable[[Plan, Any], None]
    examples: int
    explicit: tuple[Any, ...] = ()
    promises: tuple[str, ...] = ()


class StopProperty(BaseException):
    """Ends a property at once with this failure: the task's time is up (a ``BaseException``,
    which hypothesis lets through)."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.promise)
        self.failure = failure


class _Found(BaseException):
    """The first drawn example that failed: it ends hypothesis's run at once."""

    def __init__(self, value: Any, failure: Failure) -> None:
        super().__init__(failure.promise)
        self.value, self.failure = value, failure


def property_seed(task_id: str, name: str) -> int:
    return zlib.crc32(f"{task_id}/{name}".encode())


def run_property(prop: Property, task_id: str, learner: Learner, strict: bool) -> Failure | None:
    """Run one property against ``learner``; the failure of its smallest failing example, or
    None when it holds."""
    attempt = Attempt(prop, learner, strict)
    try:
        found = first_failure(prop, task_id, attempt)
        if found is None:
            return None
        fails = attempt.fails_like(found[1])
        return smallest_failure(prop.name, *found, fails, attempt.afresh(fails))
    except StopProperty as stop:
        return stop.failure
    except Unsatisfiable:
        return Failure("accept.plain")


def first_failure(
    prop: Property, task_id: str, attempt: Callable[[Any], Failure | None]
) -> tuple[Any, Failure] | None:
    """The first example that fails and its failure: the explicit examples in order, then
    ``prop.examples`` drawn by hypothesis (an example the task cannot judge is skipped)."""
    for value in prop.explicit:
        try:
            found = attempt(value)
        except Skip:
            continue
        if found is not None:
            return value, found
    if not prop.examples:
        return None

    def holds(value: Any) -> None:
        try:
            found = attempt(value)
        except Skip:
            reject()
        if found is not None:
            raise _Found(value, found)

    test = given(prop.strategy)(holds)
    test = seed(property_seed(task_id, prop.name))(
        settings(BASE_SETTINGS, max_examples=prop.examples)(test)
    )
    try:
        test()
    except _Found as drawn:
        return drawn.value, drawn.failure
    return None


class Attempt:
    """Runs one example of a property against the learner's code: its failure, or None.

    It keeps the cost of examples that hang or kill the learner's process: after the first
    one, every later example gets :data:`SHRINK_SECONDS`, and after :data:`COSTLY_BUDGET`
    more, shrinking stops with the smallest failure found so far.

    Raises (when called):
        Skip: the task cannot judge the example.
        StopProperty: the task's time is up.
    """

    def __init__(self, prop: Property, learner: Learner, strict: bool) -> None:
        self.prop, self.learner, self.strict = prop, learner, strict
        self.seconds: float | None = None
        self.costly_left = COSTLY_BUDGET

    def __call__(self, value: Any) -> Failure | None:
        return self.run(self.plan(value))

    def plan(self, value: Any) -> Plan:
        plan = Plan(self.strict)
        self.prop.build(plan, value)
        return plan

    def run(self, plan: Plan) -> Failure | None:
        learner = self.learner
        learner.begin_example(self.seconds)
        answers, stop = learner.run(plan.request())
        found, stop = _judged(plan, answers, stop, learner)
        if found is None and stop is not None:
            found = (min(stop.step, len(plan.steps) - 1), _stopped(stop, learner))
        if found is None:
            return None
        bad = failure(plan, *found)
        if stop is not None and bad.status in (Status.TIMED_OUT, Status.ERROR):
            self.seconds = min(SHRINK_SECONDS, learner.clock.example)
            self.costly_left -= 1
        return bad

    def fails_like(self, first: Failure) -> Callable[[Any], Failure | None]:
        """Runs a candidate while shrinking: its failure when it fails the way ``first`` did
        (see :func:`same_way`), else None."""

        def fails(value: Any) -> Failure | None:
            if self.costly_left < 0:
                raise StopShrinking()
            try:
                plan = self.plan(value)
            except Exception:  # Skip, or a candidate the property cannot build: no example
                return None
            try:
                found = self.run(plan)
            except Skip:
                return None
            except StopProperty:
                raise StopShrinking() from None
            return found if found is not None and same_way(first, found) else None

        return fails

    def afresh(self, fails: Callable[[Any], Failure | None]) -> Callable[[Any], Failure | None]:
        """``fails`` on a fresh process that loaded the learner's code again (a code that no
        longer loads keeps the failure it had)."""

        def run(value: Any) -> Failure | None:
            try:
                self.learner.load()
            except LoadFailure:
                raise StopShrinking() from None
            return fails(value)

        return run


def _judged(
    plan: Plan, answers: list[Any], stop: Stop | None, learner: Learner
) -> tuple[tuple[int, Problem] | None, Stop | None]:
    """Judge the answers; when a change reached a read and the answer cannot say which
    change did it, run the example again reading after every change. Should the second run
    pass (learner code that behaves differently each time), the first answers are judged as
    they are, with every change shown."""
    try:
        return judge(plan, answers), stop
    except Imprecise:
        pass
    for step in plan.steps:
        if isinstance(step, Mutate):
            step.precise = True
    again, stopped = learner.run(plan.request())
    found = judge(plan, again)
    if found is not None or stopped is not None:
        return found, stopped
    return judge(plan, answers), stop


def _stopped(stop: Stop, learner: Learner) -> Problem:
    """The problem a stop amounts to: a hang, a death, a broken or forged pipe, time up."""
    if stop.kind == "overrun":
        raise StopProperty(Failure(f"cause.{Cause.TASK_TIMED_OUT.value}", Status.TIMED_OUT))
    if stop.kind == "timed_out":
        # The limit the learner set (--time-limit): smaller examples tried while shrinking get
        # less time, but the first one that hung had all of it.
        said = Said("outcome.timed_out", {"seconds": learner.clock.example, "call": stop.call})
        return Problem(f"cause.{Cause.TIMED_OUT.value}", (said,), Status.TIMED_OUT)
    if stop.kind == "died":
        return Problem(
            f"cause.{Cause.DIED.value}", (Said("outcome.died", {"code": stop.code}),), Status.ERROR
        )
    if stop.kind == "forged":
        return Problem(f"cause.{Cause.FORGED.value}", (), Status.TAMPERED)
    return Problem(f"cause.{Cause.BROKEN.value}", (), Status.ERROR)
