"""Smaller programs: fewer appends, shorter loops, plainer appends, shorter ids.

Every candidate is an edit of the program (a :class:`Draft`) that :func:`finish` turns back
into a program of valid appends by walking the model log: an append the edit left invalid
is dropped with it (removing a call removes its result too), unless the edit was made to
that very append, in which case the candidate is no example at all. Each kept single append
has its unusual traits named again (:func:`~grader.engine.programs.features_of`), so that a
refused append names the trait the smaller program still has.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from grader.engine.oracle import ANSWERED, OPEN, REQUIRED_KEYS, TOOL_TYPES, ModelLog
from grader.engine.programs import Append, Block, Program, Segment, features_of
from grader.engine.reduce_data import FEW, cuts, data_builders, shorter_sequences, shorter_texts

Rename = Callable[[Append], Append]
DraftBuilder = Callable[[], "Draft | None"]
#: Block patterns whose appends carry call ids made from the block's label.
CALLING = ("calls", "calls_answered", "calls_reversed", "pairs")


def _same(append: Append) -> Append:
    return append


@dataclass(frozen=True)
class Draft:
    """A program being edited: each segment with the index it had (a loop unrolled into
    single appends gives each the loop's index), the positions the edit changed (which must
    stay valid, and no more unusual than they were), the segments before the edit, and the
    renaming it made (which a branch off the program follows too)."""

    family: tuple[str, ...]
    pieces: tuple[tuple[int, Segment], ...]
    edited: frozenset[int] = frozenset()
    before: tuple[Segment, ...] = ()
    rename: Rename = _same


def finish(draft: Draft) -> tuple[Program, tuple[int, ...]] | None:
    """The valid program a draft stands for, and the old index of each of its segments;
    None when an append the edit changed is no longer valid, or has an unusual trait it did
    not have (``"{}"`` halved is ``"{"``, arguments that are not JSON: a smaller example
    that fails for another reason is not the same failure)."""
    model, kept = ModelLog(), []
    for position, (origin, segment) in enumerate(draft.pieces):
        if isinstance(segment, Block):
            valid = _block_fits(model, segment)
        else:
            valid = model.refusal(segment.session_id, segment.event_type, segment.payload) is None
            if valid and position in draft.edited:
                valid = no_new_traits(model, segment, draft.before[origin])
        if not valid:
            if position in draft.edited:
                return None
            continue
        if isinstance(segment, Block):
            model = model.extend(segment.appends())
        else:
            segment = replace(segment, features=features_of(model, segment))
            model, _ = model.append(segment.session_id, segment.event_type, segment.payload)
        kept.append((origin, segment))
    program = Program(draft.family, tuple(segment for _, segment in kept))
    return program, tuple(origin for origin, _ in kept)


def no_new_traits(model: ModelLog, new: Append, old: Segment) -> bool:
    """Whether ``new`` has no unusual trait that ``old`` (the append it was made from) lacks
    on the same log; an append that was a loop's round may have any."""
    if not isinstance(old, Append):
        return True
    return set(features_of(model, new)) <= set(features_of(model, old))


def _block_fits(model: ModelLog, block: Block) -> bool:
    """Whether every append of the loop is valid where it stands (call states only: a loop
    of a thousand appends is checked without building a thousand logs)."""
    calls = dict(model.calls)
    view = ModelLog((), MappingProxyType(calls))  # a live view: it sees every update below
    for append in block.appends():
        if view.refusal(append.session_id, append.event_type, append.payload) is not None:
            return False
        if append.event_type in TOOL_TYPES:
            key = (str(append.session_id), str(append.payload["call_id"]))
            calls[key] = OPEN if append.event_type == "tool_call" else ANSWERED
    return True


def drafts(program: Program) -> Iterator[DraftBuilder]:
    """Builders of every one-step edit of ``program``, the biggest first: parts removed,
    loops shortened or unrolled, unused sessions dropped from the family, single appends made
    plainer, call ids and session ids shortened."""
    pieces = tuple(enumerate(program.segments))
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
    yield from _shorter_call_ids(program)
    yield from _shorter_sessions(program)


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
    for key, value in payload.items():
        if key == "call_id":
            continue
        if key not in required:
            for renamed in shorter_texts(key):
                if renamed not in payload:
                    renamed_payload = {(renamed if k == key else k): v for k, v in payload.items()}
                    yield _just(replace(append, payload=renamed_payload))
        for build in data_builders(value):
            yield _with_value(append, key, build)


def _with_value(append: Append, key: str, build: Callable[[], Any]) -> Callable[[], Append | None]:
    def built() -> Append | None:
        value = build()
        return None if value is None else replace(append, payload={**append.payload, key: value})

    return built


def _shorter_call_ids(program: Program) -> Iterator[DraftBuilder]:
    """Each call of a single append with a shorter id, its result renamed with it."""
    used = {(str(a.session_id), str(a.payload["call_id"])) for a in program.appends()
            if a.event_type in TOOL_TYPES}  # fmt: skip
    for segment in program.segments:
        if not (isinstance(segment, Append) and segment.event_type == "tool_call"):
            continue
        session, old = str(segment.session_id), segment.payload["call_id"]
        for new in shorter_texts(old):
            if new and (new == str(old) or (session, new) not in used):
                yield _renaming(program, _call_renamer(session, old, new))


def _call_renamer(session: str, old: str, new: str) -> Rename:
    def rename(append: Append) -> Append:
        payload = append.payload
        if append.event_type not in TOOL_TYPES or str(append.session_id) != session:
            return append
        if str(payload["call_id"]) != str(old):
            return append
        return replace(append, payload={**payload, "call_id": new})

    return rename


def _shorter_sessions(program: Program) -> Iterator[DraftBuilder]:
    """Each session id shortened wherever it is used; the shorter id may be another
    session's, which merges the two (``s150`` becomes ``s1``, a session a loop made)."""
    sessions = dict.fromkeys(
        [*map(str, program.family), *(str(a.session_id) for a in program.appends())]
    )
    for session in sessions:
        for new in shorter_texts(session):
            if new:
                yield _renaming(program, _session_renamer(session, new))


def _session_renamer(old: str, new: str) -> Rename:
    def rename(append: Append) -> Append:
        session = append.session_id
        if str(session) != old:
            return append
        return replace(append, session_id=new if type(session) is str else type(session)(new))

    return rename


def _renaming(program: Program, rename: Rename) -> DraftBuilder:
    return lambda: _renamed(program, rename)


def _renamed(program: Program, rename: Rename) -> Draft:
    """``program`` with ``rename`` applied to every single append, and to the sessions of the
    family and of every loop (a loop's call ids are its label's: renamed with the label)."""
    pieces, edited = [], set()
    for index, segment in enumerate(program.segments):
        if isinstance(segment, Append):
            new: Segment = rename(segment)
        else:
            sessions = tuple(_renamed_session(rename, name) for name in segment.sessions)
            new = replace(segment, sessions=sessions)
        if new != segment:
            edited.add(index)
        pieces.append((index, new))
    family = tuple(dict.fromkeys(_renamed_session(rename, name) for name in program.family))
    return Draft(family, tuple(pieces), frozenset(edited), program.segments, rename)


def _renamed_session(rename: Rename, session: Any) -> Any:
    return rename(Append(session, "user_message", {"content": ""})).session_id
