"""How a property is run against a learner's code, from the bank or in full.

Running a property returns None when every example passed, or the :class:`Failure` of the
smallest failing example the shrinker found. Determinism is a promise to learners and
instructors: the same code always gets the same score and the same smallest case, on every
machine, at any load, and in the browser.

Two ways to run, with the same verdicts (a test grades the corpus both ways):

* from the bank (:mod:`grader.engine.bank`): every example in one message, answered with
  digests, compared with a correct implementation's; an example that differs is asked again
  in full and judged, the first failing one shrunk;
* in full: every example's answers judged as they come (the examples drawn live when the bank
  is stale).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from grader.engine.bank import BankedProperty
from grader.engine.learner import Learner
from grader.engine.outcomes import Failure
from grader.engine.properties import Property


def run_banked(
    get_property: Callable[[], Property],
    banked: BankedProperty,
    learner: Learner,
    strict: bool,
    shrink: bool = True,
) -> Failure | None:
    """Run a property's banked examples against ``learner`` by digest; the smallest failure,
    or None when it holds. ``get_property`` is only called when an example fails: a grade
    that passes never imports the properties (nor hypothesis)."""
    learner.begin_example()
    parts, stop = learner.run(banked.request, digest=True, count=len(banked))
    trial = None
    for number, expected in enumerate(banked.digests):
        if number < len(parts):
            answer = parts[number]
            if isinstance(answer, dict) and answer.get("d") == expected:
                continue
        elif stop is None:
            break
        if trial is None:
            from grader.engine.trial import Trial

            trial = Trial(get_property(), learner, strict, shrink)
        value = banked.values[number]
        if number < len(parts):
            found = trial.after_digest(value, expected, parts[number])
        else:
            assert stop is not None
            found = trial.after_stop(value, stop)
        if found is not None:
            return found
        if number >= len(parts):  # an example this task cannot judge stopped the rest
            return trial.in_full(banked.values[number + 1 :])
    return None


def run_property(
    prop: Property, values: Sequence[Any], learner: Learner, strict: bool, shrink: bool = True
) -> Failure | None:
    """Run ``prop`` over ``values`` against ``learner``, every answer judged in full; the
    smallest failure, or None when it holds."""
    from grader.engine.trial import Trial

    return Trial(prop, learner, strict, shrink).in_full(values)
