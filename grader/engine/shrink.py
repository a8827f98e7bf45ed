"""The shrinker: the smallest example that still fails, found by asking the learner's code.

Hypothesis only draws examples; every failing one, drawn or written by hand, is shrunk here,
by the structure it has: a program loses appends and whole loops, loops get shorter, texts
and ids get shorter, payloads lose keys and nesting, a branching loses branches, a table
loses rows. :func:`reductions` gives the one-step reductions of an example, each a valid
example of the same property; :func:`shrink` takes the first that still fails, again and
again, until none does (the result is then 1-minimal) or the budget of attempts is spent.

Everything here is decided by counting, never by the clock: the same code always gets the
same smallest case, on any machine and at any load.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from grader.engine.checks import Branching
from grader.engine.drafts import DraftBuilder, finish
from grader.engine.outcomes import Failure
from grader.engine.programs import Program
from grader.engine.reduce_branches import branching_candidates
from grader.engine.reduce_data import shorter_texts, smaller_ints
from grader.engine.reduce_programs import drafts, unrollings
from grader.engine.sizes import key, measure

#: How many reductions one failure may try. A fair program of a few dozen appends shrinks
#: to its smallest in far fewer; past this many, the smallest found so far is shown.
ATTEMPTS = 400
Candidate = Callable[[], Any]


@runtime_checkable
class Reducible(Protocol):
    """An example that knows its own one-step reductions (a table of cases, say)."""

    def reductions(self) -> Iterable[Any]: ...


class StopShrinking(Exception):
    """Raised by a ``fails`` function: stop now and keep the smallest failure found so far
    (the learner's code hung or died too often, or the task is out of time)."""


@dataclass(frozen=True)
class Shrunk:
    """The smallest failing example found, its failure, the attempts it took, and whether
    it is 1-minimal (no reduction of it fails) or the search was cut short."""

    value: Any
    failure: Failure
    attempts: int
    minimal: bool


def shrink(
    value: Any,
    fails: Callable[[Any], Failure | None],
    budget: int = ATTEMPTS,
    failure: Failure | None = None,
) -> Shrunk:
    """Shrink a failing example.

    Args:
        value: the example.
        fails: runs an example; its failure, or None when it passes (may raise
            :class:`StopShrinking`).
        budget: the most examples to try.
        failure: ``value``'s failure, when already known (else it is run once more).

    Returns:
        The smallest failing example found. Each round tries the reductions of the current
        one, starting where the last success was (a pass over a long program does not start
        again from its first append), and takes the first that fails. Once none fails, each
        short loop is tried as single appends, shrunk again, and kept if that takes fewer
        calls (a loop over 11 sessions may hide two that show the bug; a loop that needs all
        its rounds stays a loop).

    Raises:
        ValueError: ``value`` does not fail.
    """
    if failure is None:
        failure = fails(value)
        if failure is None:
            raise ValueError("only a failing example can be shrunk")
    search = _Search(fails, budget, {key(value)})
    shrunk = search.descend(value, failure)
    while shrunk.minimal:
        unrolled = search.unrolled(shrunk)
        if unrolled is None:
            break
        shrunk = unrolled
    return Shrunk(shrunk.value, shrunk.failure, search.attempts, shrunk.minimal)


class _Search:
    """One shrinking: the attempts made so far, and every example tried."""

    def __init__(self, fails: Callable[[Any], Failure | None], budget: int, tried: set[Any]):
        self.fails, self.budget, self.tried = fails, budget, tried
        self.attempts = 0

    def attempt(self, candidate: Any) -> Failure | None:
        """The candidate's failure (None: it passes).

        Raises:
            StopShrinking: the budget is spent, or ``fails`` gave up.
        """
        if self.attempts >= self.budget:
            raise StopShrinking()
        self.attempts += 1
        self.tried.add(key(candidate))
        return self.fails(candidate)

    def descend(self, value: Any, failure: Failure) -> Shrunk:
        """Take the first reduction that fails, again and again, until none does."""
        start = 0
        while True:
            candidates = list(_candidates(value))
            size = measure(value)
            for offset in range(len(candidates)):
                index = (start + offset) % len(candidates)
                candidate = candidates[index]()
                if candidate is None or not measure(candidate) < size:
                    continue
                if key(candidate) in self.tried:
                    continue
                try:
                    found = self.attempt(candidate)
                except StopShrinking:
                    return Shrunk(value, failure, self.attempts, minimal=False)
                if found is not None:
                    value, failure, start = candidate, found, index
                    break
            else:
                return Shrunk(value, failure, self.attempts, minimal=True)

    def unrolled(self, shrunk: Shrunk) -> Shrunk | None:
        """A smaller failure found by trying one short loop as single appends and shrinking
        that: only one with fewer calls counts."""
        calls = measure(shrunk.value)[0]
        for candidate in _candidates(shrunk.value, unroll=True):
            built = candidate()
            if built is None or key(built) in self.tried:
                continue
            try:
                found = self.attempt(built)
            except StopShrinking:
                return None
            if found is None:
                continue
            deeper = self.descend(built, found)
            if measure(deeper.value)[0] < calls:
                return deeper
            if not deeper.minimal:
                return None
        return None


def reductions(value: Any) -> Iterator[Any]:
    """The one-step reductions of an example, each a valid example of the same kind, the
    biggest cut first: for a program, parts of it removed, then loops shortened, then single
    appends, ids and sessions made plainer and shorter (see
    :mod:`grader.engine.reduce_programs`)."""
    for candidate in _candidates(value):
        built = candidate()
        if built is not None:
            yield built


def _candidates(value: Any, unroll: bool = False) -> Iterator[Candidate]:
    """Functions that each build one reduction (None: not a valid example): a reduction is
    built only when it is tried, since checking a program's validity walks the model log.
    With ``unroll``, the example with one short loop as single appends, instead."""
    if isinstance(value, Program):
        edits = unrollings(value) if unroll else drafts(value)
        yield from (_program(draft) for draft in edits)
    elif isinstance(value, Branching):
        yield from branching_candidates(value, unroll)
    elif type(value) is tuple:
        for number, item in enumerate(value):
            for candidate in _candidates(item, unroll):
                yield _component(value, number, candidate)
    elif unroll:
        return
    elif isinstance(value, Reducible):
        yield from (_fixed(smaller) for smaller in value.reductions())
    elif isinstance(value, str):
        yield from (_fixed(shorter) for shorter in shorter_texts(value))
    elif isinstance(value, int) and not isinstance(value, bool):
        yield from (_fixed(smaller) for smaller in smaller_ints(value))


def _fixed(value: Any) -> Candidate:
    return lambda: value


def _program(draft: DraftBuilder) -> Candidate:
    def build() -> Program | None:
        edited = draft()
        finished = None if edited is None else finish(edited)
        return None if finished is None else finished[0]

    return build


def _component(value: tuple[Any, ...], number: int, candidate: Candidate) -> Candidate:
    def build() -> tuple[Any, ...] | None:
        item = candidate()
        return None if item is None else (*value[:number], item, *value[number + 1 :])

    return build
