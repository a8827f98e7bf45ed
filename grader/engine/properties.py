"""A property: a hypothesis test whose examples become plans, and the machinery that runs it.

Running a property returns None when every example passed, or the :class:`Failure` of the
smallest example hypothesis could shrink to. Determinism is a promise to learners and
instructors: the same code always gets the same score and the same counterexample, on every
machine and in the browser. So: a seed of its own per property (not derived from source text
or timing), no example database, no deadline, no "explain" phase.
"""

from __future__ import annotations

import dataclasses
import sys
import warnings
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, reject, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisWarning, Unsatisfiable

if sys.version_info >= (3, 11):  # noqa: UP036 - the grader runs on 3.10 in Gradescope
    from builtins import BaseExceptionGroup
else:  # pragma: no cover - Python 3.10 (Gradescope's Ubuntu 22.04), where hypothesis needs it
    from exceptiongroup import BaseExceptionGroup

from grader.engine.answers import Problem, Skip
from grader.engine.judge import failure, judge
from grader.engine.learner import Learner, Stop
from grader.engine.outcomes import Cause, Failure, Said, Status
from grader.engine.plan import Plan
from grader.engine.steps import Imprecise, Mutate

BASE_SETTINGS = settings(
    database=None,
    deadline=None,
    print_blob=False,
    report_multiple_bugs=False,
    verbosity=Verbosity.quiet,
    phases=(Phase.generate, Phase.shrink),
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


class PropertyFailure(Exception):
    """Raised inside a property test; hypothesis shrinks the example that raised it."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.promise)
        self.failure = failure


class StopProperty(BaseException):
    """Ends a property at once with this failure: no more examples, no shrinking (a
    ``BaseException``, which hypothesis lets through). For time that is up, and for costly
    failures past their budget."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.promise)
        self.failure = failure


def property_seed(task_id: str, name: str) -> int:
    return zlib.crc32(f"{task_id}/{name}".encode())


def run_property(prop: Property, task_id: str, learner: Learner, strict: bool) -> Failure | None:
    """Run one property against ``learner``; its failure, or None when it holds.

    The explicit examples run first, as they are (hypothesis would not shrink them either,
    and would spend time describing each large one in case it failed); then hypothesis draws
    ``prop.examples`` more and shrinks the first that fails."""
    budget = {"left": COSTLY_BUDGET, "seconds": None}

    def attempt(value: Any) -> None:
        learner.begin_example(budget["seconds"])
        plan = Plan(strict)
        prop.build(plan, value)
        answers, stop = learner.run(plan.request())
        found, stop = _judged(plan, answers, stop, learner)
        if found is None and stop is not None:
            found = (min(stop.step, len(plan.steps) - 1), _stopped(stop, learner))
        if found is not None:
            bad = failure(plan, *found)
            _spend(budget, bad, learner, stop)
            raise PropertyFailure(bad)

    def holds(value: Any) -> None:
        try:
            attempt(value)
        except Skip:
            reject()

    try:
        for value in prop.explicit:
            try:
                attempt(value)
            except Skip:
                continue
        if prop.examples:
            test = given(prop.strategy)(holds)
            test = seed(property_seed(task_id, prop.name))(
                settings(BASE_SETTINGS, max_examples=prop.examples)(test)
            )
            with warnings.catch_warnings():
                # The failing example's repr is built once and never shown: the learner sees
                # the transcript instead, so hypothesis's warning about its size is noise.
                warnings.filterwarnings("ignore", "Generating overly large repr", HypothesisWarning)
                test()
    except (PropertyFailure, StopProperty) as found:
        return found.failure
    except Unsatisfiable:
        return Failure("accept.plain")
    except BaseExceptionGroup as group:  # hypothesis's FlakyFailure is an exception group
        return _from_group(group)
    return None


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


def _spend(budget: dict[str, Any], bad: Failure, learner: Learner, stop: Stop | None) -> None:
    """Account for a failure that cost a hung or dead process; stop when the budget is gone."""
    if stop is None or bad.status not in (Status.TIMED_OUT, Status.ERROR):
        return
    budget["seconds"] = min(SHRINK_SECONDS, learner.clock.example)
    budget["left"] -= 1
    if budget["left"] < 0:
        raise StopProperty(bad)


def _from_group(group: BaseExceptionGroup[Any]) -> Failure:
    matched, _ = group.split(PropertyFailure)
    if matched is None:
        raise group
    first: BaseException = matched
    while isinstance(first, BaseExceptionGroup):
        first = first.exceptions[0]
    assert isinstance(first, PropertyFailure)
    return dataclasses.replace(first.failure).noting(Said("note.flaky"))
