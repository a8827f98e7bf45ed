"""The failure a property reports: that of the smallest example that still fails the same way.

This is where a grade meets the shrinker (:mod:`grader.engine.shrink`): whatever found the
first failing example (by digest or in full, see :mod:`grader.engine.trial`) hands it here
with a way to run one more example through the same path, and a way to start a fresh kernel.

Fresh kernels make the case shown a property of the code alone, never of the examples that
happened to run before it in the same kernel: code that keeps state between calls (a list
shared by every empty read, a cache) answers differently after a hundred examples than after
ten, and a grade by digest runs other examples before a failing one than a grade in full.
So a wrong answer is run again on a fresh kernel, and shrunk from the failure it has there:

* where it fails there (almost always), every smaller candidate runs on a fresh kernel of
  its own, so the case shown fails when pasted alone, and each of its reductions passes
  alone (where a fresh kernel costs seconds, a browser's, the candidates share one, started
  fresh, and the case shown is run once more on another);
* where it passes there (it fails only after other examples), the kernel that ran it once
  runs it again, then the candidates: what ran before each is then the same in any grade,
  and the report notes that the case passes on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from grader.engine.outcomes import Example, Failure, Said, Status
from grader.engine.shrink import ATTEMPTS, StopShrinking, shrink

Run = Callable[[Any], Failure | None]


def smallest_failure(
    prop: str, value: Any, first: Failure, run: Run, fresh: Callable[[], None], cheap: bool
) -> Failure:
    """The failure of the smallest example of property ``prop`` (its name) that still fails.

    Args:
        prop: the property's name (the failure's example records it).
        value: the first example that failed.
        first: its failure.
        run: runs one example through the same path as every example: its failure, or None
            when it passes; it may raise :class:`~grader.engine.shrink.StopShrinking` to keep
            the smallest found so far.
        fresh: starts a fresh kernel with the code loaded again (may raise StopShrinking).
        cheap: whether a fresh kernel costs milliseconds (one per candidate), not seconds.

    Returns:
        The smallest example's failure, naming the promise that example breaks (the one a
        fresh kernel shows), carrying the example (:class:`~grader.engine.outcomes.Example`),
        and noting it when the example passes on its own. A hang or a crash is not run again
        on fresh kernels: it costs its CPU limit each time, and does not depend on what ran
        before.
    """

    def alone(candidate: Any) -> Failure | None:
        fresh()
        return run(candidate)

    each, checked = run, False  # how candidates run; whether the case shown is run alone
    if first.status is Status.FAILED:
        again = _guarded(alone, value, first)
        if again is not None and again.status is Status.FAILED:
            first, each, checked = again, alone if cheap else run, cheap
        else:  # it fails only after other examples: here, after itself
            first = _guarded(run, value, first) or first
    shrunk = shrink(value, _same_way_as(first, each), ATTEMPTS, first)
    found = replace(
        shrunk.failure, example=Example(prop, shrunk.value, shrunk.attempts, shrunk.minimal)
    )
    if checked or found.status is not Status.FAILED:
        return found
    again = _guarded(_same_way_as(found, alone), shrunk.value, found)
    if again is None:
        return found.noting(Said("note.flaky"))
    return replace(again, example=found.example)


def _guarded(run: Run, value: Any, known: Failure) -> Failure | None:
    """``run(value)``, or ``known`` when it could not run (the code no longer loads, the
    task is out of time)."""
    try:
        return run(value)
    except StopShrinking:
        return known


def _same_way_as(first: Failure, run: Run) -> Run:
    def fails(value: Any) -> Failure | None:
        found = run(value)
        return found if found is not None and same_way(first, found) else None

    return fails


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
