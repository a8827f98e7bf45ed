"""Smaller programs: fewer appends, shorter loops, plainer appends, shorter ids.

Every candidate is an edit of the program (a :class:`~grader.engine.drafts.Draft`), built
only when it is tried; :func:`~grader.engine.drafts.finish` makes it a valid program again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from grader.engine.drafts import Draft, DraftBuilder
from grader.engine.oracle import REQUIRED_KEYS
from grader.engine.programs import SPREAD, Append, Block, Program, Segment
from grader.engine.reduce_data import (
    FEW,
    cuts,
    data_builders,
    short_names,
    shorter_sequences,
    shorter_texts,
)
from grader.engine.reduce_names import shorter_ids

#: Block patterns whose appends carry call ids made from the block's label.
CALLING = ("calls", "calls_answered", "calls_reversed", "pairs")


def drafts(program: Program) -> Iterator[DraftBuilder]:
    """Builders of every one-step edit of ``program``, the biggest first: loops that continue
    one another made one, parts removed, loops shortened or unrolled, unused sessions dropped
    from the family, single appends made plainer, call ids and session ids shortened."""
    pieces = tuple(enumerate(program.segments))
    yield from _joined(program)
    for start, end in cuts(len(pieces), every_item=True):
        yield _just(Draft(program.family, pieces[:start] + pieces[end:]))
    for index, segment in pieces:
        if isinstance(segment, Block):
            for block in _smaller_blocks(segment):
                yield _swapped(program, index, _just(block))
    used = {str(append.session_id) for append in program.appends()}
    for session in program.family:
        if len(program.family) > 1 and session not in used:
            family = tuple(name for name in program.family if name != session)
            yield _just(Draft(family, pieces))
    for index, segment in pieces:
        if isinstance(segment, Append):
            for build in append_builders(segment):
                yield _swapped(program, index, build)
    yield from shorter_ids(program)


#: Loop patterns whose two loops, one after the other, make the same appends as one loop of
#: both their rounds (but for the call ids, which stay unique): a run of calls stays one run.
JOINABLE = ("filler", "calls", "pairs")


def _joined(program: Program) -> Iterator[DraftBuilder]:
    """The program with every two neighbouring loops that continue one another made one loop,
    then each such pair alone. No fewer calls, but one loop fewer to shrink and to read: a
    program that grew through every power of two, in a dozen loops, becomes one loop, and is
    shown as one."""
    pairs = [
        index
        for index in range(len(program.segments) - 1)
        if _joinable(program.segments[index], program.segments[index + 1])
    ]
    if len(pairs) > 1:
        yield _just(_join(program, set(pairs)))
    for index in pairs:
        yield _just(_join(program, {index}))


def _joinable(first: Segment, second: Segment) -> bool:
    """Whether two loops make one: the same pattern in the same sessions, or two loops that
    each open sessions of their own (one loop of both their rounds opens as many)."""
    if not (isinstance(first, Block) and isinstance(second, Block)):
        return False
    if first.pattern != second.pattern:
        return False
    if first.pattern == SPREAD:
        return True
    alternate = first.pattern == "alternate" and first.count % len(first.sessions) == 0
    return first.sessions == second.sessions and (first.pattern in JOINABLE or alternate)


def _join(program: Program, starts: set[int]) -> Draft:
    """The program with the loop at each of ``starts`` and the loop after it made one (the
    first loop's label kept)."""
    pieces: list[tuple[int, Segment]] = []
    for index, segment in enumerate(program.segments):
        if index - 1 in starts and pieces:
            origin, before = pieces[-1]
            assert isinstance(before, Block) and isinstance(segment, Block)
            pieces[-1] = (origin, replace(before, count=before.count + segment.count))
        else:
            pieces.append((index, segment))
    return Draft(program.family, tuple(pieces))


def unrollings(program: Program) -> Iterator[DraftBuilder]:
    """Builders of ``program`` with one short loop (up to :data:`FEW` rounds) written as its
    single appends: not smaller, but each append can then go on its own."""
    for index, segment in enumerate(program.segments):
        if isinstance(segment, Block) and 2 < segment.count <= FEW:
            yield _swapped(program, index, _just(tuple(segment.appends())))


def _just(value: Any) -> Callable[[], Any]:
    return lambda: value


def _swapped(
    program: Program, index: int, build: Callable[[], Segment | tuple[Segment, ...] | None]
) -> DraftBuilder:
    """A builder of ``program`` with segment ``index`` replaced by what ``build`` gives (one
    segment, or several; None: no draft)."""

    def swapped() -> Draft | None:
        new = build()
        if new is None:
            return None
        news = new if isinstance(new, tuple) else (new,)
        before = tuple(enumerate(program.segments[:index]))
        after = tuple(enumerate(program.segments[index + 1 :], start=index + 1))
        pieces = (*before, *((index, each) for each in news), *after)
        edited = frozenset(range(index, index + len(news)))
        return Draft(program.family, pieces, edited, program.segments)

    return swapped


def _smaller_blocks(block: Block) -> Iterator[Block | tuple[Segment, ...]]:
    """Shorter loops (half as many rounds, then fewer and fewer cut, down to one round less,
    so that a failure that needs N rounds shrinks to N), a loop of one or two rounds as its
    single appends, a loop between sessions with one session fewer, a shorter label."""
    count = block.count
    if count <= 2:
        yield tuple(block.appends())
    counts = [count // 2, *(count - count // 2**power for power in range(2, count.bit_length()))]
    for smaller in dict.fromkeys([*counts, count - 1]):
        if 0 < smaller < count:
            yield replace(block, count=smaller)
    if len(block.sessions) > 1:
        for kept in shorter_sequences(block.sessions, every_item=True):
            if len(kept) == 1:  # a loop between one session is a plain loop
                yield replace(block, pattern="filler", sessions=tuple(kept))
            elif kept:
                yield replace(block, sessions=tuple(kept))
    if block.pattern in CALLING:
        for label in shorter_texts(block.label):
            if label:
                yield replace(block, label=label)


def append_builders(append: Append) -> Iterator[Callable[[], Append | None]]:
    """Builders of the append made plainer without touching its call id: its payload as a
    ``dict``, its session id as a plain ``str``, an extra key dropped or shortened, a text
    shortened, extra data flattened or cut."""
    if append.wrapper != "dict":
        yield _just(replace(append, wrapper="dict"))
    if type(append.session_id) is not str:
        yield _just(replace(append, session_id=str.__str__(append.session_id)))
    payload, required = append.payload, REQUIRED_KEYS[append.event_type]
    extras = [key for key in payload if key not in required]
    for start, end in cuts(len(extras)):
        dropped = set(extras[start:end])
        yield _just(replace(append, payload={k: v for k, v in payload.items() if k not in dropped}))
    if len(extras) > FEW:
        yield lambda: _keys_compacted(append, extras)
    for key, value in payload.items():
        if key == "call_id":
            continue
        if key not in required:
            for renamed in shorter_texts(key):
                if renamed not in payload:
                    yield _renamed(append, key, renamed)
        for build in data_builders(value):
            yield _with_value(append, key, build)


def _renamed(append: Append, key: str, renamed: str) -> Callable[[], Append]:
    """A builder of the append with one payload key renamed (built only when tried: a
    payload of thousands of keys has thousands of renamings)."""

    def built() -> Append:
        payload = {(renamed if k == key else k): v for k, v in append.payload.items()}
        return replace(append, payload=payload)

    return built


def _keys_compacted(append: Append, extras: list[str]) -> Append | None:
    """The append with every extra key renamed at once to the shortest names not taken
    (``"0"``, ``"1"``, ..., ``"a"``, ...): a payload of thousands of keys gets short keys in
    one step, not one key a round. None when that shortens nothing."""
    required = [key for key in append.payload if key not in extras]
    names = short_names(len(extras), set(required))
    if sum(map(len, names)) >= sum(len(str.__str__(key)) for key in extras):
        return None
    renamed = dict(zip(extras, names, strict=True))
    payload = {renamed.get(k, k): v for k, v in append.payload.items()}
    return replace(append, payload=payload)


def _with_value(append: Append, key: str, build: Callable[[], Any]) -> Callable[[], Append | None]:
    def built() -> Append | None:
        value = build()
        return None if value is None else replace(append, payload={**append.payload, key: value})

    return built
