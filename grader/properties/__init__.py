"""The graded properties, one module per task, and the machinery that runs one of them.

A property is a hypothesis test over generated programs. Running it returns ``None`` when
every example passed, or the :class:`~grader.failures.Failure` of the smallest example
hypothesis could shrink to.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from grader import messages
from grader.failures import Failure, PropertyFailure, StopProperty
from grader.programs import Append
from grader.remote import Learner

# Determinism is a promise to learners: the same code always gets the same score and the
# same counterexample. So: a seed derived from the test (derandomize), no example database,
# no timing-based deadline, no "explain" phase (its notes depend on coverage tracing).
BASE_SETTINGS = settings(
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=False,
    report_multiple_bugs=False,
    verbosity=Verbosity.quiet,
    phases=(Phase.explicit, Phase.generate, Phase.shrink),
    suppress_health_check=list(HealthCheck),
)


def _ignore_local_constants() -> None:
    """Stop hypothesis from mixing literals found in loaded modules into generated data.

    Recent hypothesis versions scan every non-library module in ``sys.modules`` for constants
    and sometimes draw those instead of random values (caching them under ``.hypothesis/`` in
    the current folder). Here that would make the examples depend on what else happens to be
    loaded, for instance other learners' files graded earlier in the same process, and would
    write into the learner's folder. The grader's strategies are built to cover what matters,
    so the scan is switched off; on versions without it this does nothing.
    """
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - a hypothesis version without this module
        return
    empty = getattr(providers, "_local_constants", None)
    if empty is not None and hasattr(providers, "_get_local_constants"):
        providers._get_local_constants = lambda: empty


_ignore_local_constants()


@dataclass(frozen=True)
class Property:
    """One hypothesis test: examples from ``strategy``, each checked by ``check``.

    ``checks`` names the message ids of the contract's clauses it checks: a failure of this
    property names one of them, and a passing task lists them as what was checked.
    """

    name: str
    strategy: st.SearchStrategy[Any]
    check: Callable[[Learner, Any], None]
    max_examples: int
    checks: tuple[str, ...] = ()


def sessions_of(program: list[Append]) -> list[str]:
    """The session ids a program appends to, in order of first use."""
    return list(dict.fromkeys(append.session_id for append in program))


#: After the first example that hangs or kills the learner's process, shrinking tries smaller
#: ones with this much time each (a fair call on a tiny example takes microseconds) ...
SHRINK_SECONDS = 0.5
#: ... and stops after this many more such examples, keeping the smallest found so far.
COSTLY_BUDGET = 6
_COSTLY = (messages.STATUS_TIMED_OUT, messages.STATUS_ERROR)


@dataclass
class _Budget:
    """The time limit for the next example, and what costly failures are left."""

    seconds: float | None = None
    left: int = COSTLY_BUDGET


def run_property(prop: Property, learner: Learner) -> Failure | None:
    """Run one property; return the shrunk failure, or None when it holds."""
    budget = _Budget()

    @settings(BASE_SETTINGS, max_examples=prop.max_examples)
    @given(prop.strategy)
    def property_holds(example: Any) -> None:
        learner.start_example(budget.seconds)
        try:
            prop.check(learner, example)
        except PropertyFailure as found:
            _spend(budget, found.failure, learner)
            raise

    try:
        property_holds()
    except (PropertyFailure, StopProperty) as found:
        return found.failure
    except Unsatisfiable:
        return Failure(messages.REFUSED_EVERY_APPEND)
    except BaseExceptionGroup as group:  # hypothesis's FlakyFailure is an exception group
        return _from_group(group)
    return None


def _spend(budget: _Budget, failure: Failure, learner: Learner) -> None:
    """Account for a failure that cost a hung or dead child; stop when the budget is gone."""
    if failure.status not in _COSTLY:
        return
    budget.seconds = min(SHRINK_SECONDS, learner.clock.example)
    budget.left -= 1
    if budget.left < 0:
        raise StopProperty(failure)


def _from_group(group: BaseExceptionGroup[Any]) -> Failure:
    matched, _ = group.split(PropertyFailure)
    if matched is None:
        raise group
    first = _first_leaf(matched)
    assert isinstance(first, PropertyFailure)
    return dataclasses.replace(first.failure, note=messages.FLAKY)


def _first_leaf(group: BaseExceptionGroup[Any]) -> BaseException:
    error: BaseException = group
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error
