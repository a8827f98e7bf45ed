"""The failure a property reports: that of the smallest example that still fails the same way.

This is where a grade meets the shrinker (:mod:`grader.engine.shrink`): whatever found the
first failing example (by digest or in full, see :mod:`grader.engine.trial`) hands it here
with a way to run one more example through the same path, and a way to start a fresh kernel.

A fresh kernel at both ends makes the case shown a property of the code alone, never of the
examples that happened to run before it in the same kernel (code that keeps state between
calls answers differently after a hundred examples than after ten): shrinking starts on a
fresh kernel, from the first example's failure as that kernel sees it, and the case shown is
run once more on another, and shown as it fails there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from grader.engine.outcomes import Example, Failure, Said, Status
from grader.engine.shrink import ATTEMPTS, StopShrinking, shrink

Run = Callable[[Any], Failure | None]


def smallest_failure(
    prop: str, value: Any, first: Failure, run: Run, fresh: Callable[[], None]
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

    Returns:
        The smallest example's failure, naming the promise that example breaks, carrying
        the example (:class:`~grader.engine.outcomes.Example`), and noting it when the
        example passes on its own: the learner's code kept something from the examples
        before it (a cache, a global), and the case shown does not fail when pasted.
        A wrong answer is shown as a fresh kernel gives it, so the case is the same whatever
        ran before it (by digest or in full); a hang or a crash is not run again on fresh
        kernels: it costs its CPU limit each time, and does not depend on what ran before.
    """
    fails = _same_way_as(first, run)
    alone = False  # whether the case fails on a fresh kernel, with nothing run before it
    if first.status is Status.FAILED:
        again = _on_fresh_kernel(value, first, fails, fresh)
        if again is not None:  # it fails on its own: so must every smaller case shown
            first, fails, alone = again, _confirmed(fails, fresh), True
    shrunk = shrink(value, fails, ATTEMPTS, first)
    found = replace(
        shrunk.failure, example=Example(prop, shrunk.value, shrunk.attempts, shrunk.minimal)
    )
    if alone or found.status is not Status.FAILED:
        return found  # (a confirmed failure is already the one a fresh kernel shows)
    again = _on_fresh_kernel(shrunk.value, found, _same_way_as(first, run), fresh)
    if again is None:
        return found.noting(Said("note.flaky"))
    return replace(again, example=found.example)


def _on_fresh_kernel(
    value: Any, known: Failure, fails: Run, fresh: Callable[[], None]
) -> Failure | None:
    """``value``'s failure on a fresh kernel: None when it passes there; ``known`` when no
    fresh kernel could be had (the code no longer loads, the task is out of time)."""
    try:
        fresh()
        return fails(value)
    except StopShrinking:
        return known


def _confirmed(fails: Run, fresh: Callable[[], None]) -> Run:
    """``fails``, where a candidate that fails is run again on a fresh kernel, and counts
    only if it fails there too: what earlier candidates left in the kernel (a shared list
    they filled, a cache) must not make a case look smaller than one that fails on its own.
    A candidate that passes costs no fresh kernel: what they leave makes code fail more,
    and only a failure is kept."""

    def confirmed(value: Any) -> Failure | None:
        if fails(value) is None:
            return None
        fresh()
        return fails(value)

    return confirmed


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
