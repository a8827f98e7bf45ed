"""The failure a property reports: that of the smallest example that still fails the same way.

This is where a grade meets the shrinker (:mod:`grader.engine.shrink`): whatever runs the
examples finds the first that fails, then hands it here with a function that runs one more
example through the same path (:meth:`grader.engine.properties.Attempt.fails_like`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from grader.engine.outcomes import Example, Failure, Said, Status
from grader.engine.shrink import ATTEMPTS, StopShrinking, shrink


def smallest_failure(
    prop: str,
    value: Any,
    first: Failure,
    fails: Callable[[Any], Failure | None],
    afresh: Callable[[Any], Failure | None] | None = None,
) -> Failure:
    """The failure of the smallest example of property ``prop`` (its name) that still fails.

    Args:
        prop: the property's name (the failure's example records it).
        value: the first example that failed.
        first: its failure.
        fails: runs one example through the same path as every example: its failure, None
            when it passes or fails another way (see :func:`same_way`); it may raise
            :class:`~grader.engine.shrink.StopShrinking` to keep the smallest found so far.
        afresh: like ``fails``, on a fresh process that loaded the code again (default:
            ``fails``): the example shown is run once more there.

    Returns:
        The smallest example's failure, naming the promise that example breaks, carrying
        the example (:class:`~grader.engine.outcomes.Example`), and noting it when the
        example passes on its own: the learner's code kept something from the examples
        before it (a cache, a global), and the case shown does not fail when pasted.
    """
    shrunk = shrink(value, fails, ATTEMPTS, first)
    found = replace(
        shrunk.failure, example=Example(prop, shrunk.value, shrunk.attempts, shrunk.minimal)
    )
    if found.status is Status.FAILED:
        try:
            again = (afresh or fails)(shrunk.value)
        except StopShrinking:
            again = found
        if again is None:
            found = found.noting(Said("note.flaky"))
    return found


def same_way(first: Failure, found: Failure) -> bool:
    """Whether a smaller example's failure is the same as the first one: the same status (a
    wrong answer is not shrunk into a hang, nor a crash into a wrong answer) and the same
    promise. A refused valid append may name another of its unusual traits: an append is
    blamed on its first trait, and a smaller one that is still refused without that trait
    shows it was not the cause (a reduction never adds a trait)."""
    if found.status is not first.status:
        return False
    refused = found.promise.startswith("accept.") and first.promise.startswith("accept.")
    return found.promise == first.promise or refused
