"""Shorter ids in a program: a call's id (its result renamed with it), a session's id
wherever it is used. Each renaming is a :class:`~grader.engine.drafts.Draft` whose renaming
a branch off the program follows too."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from grader.engine.drafts import Draft, DraftBuilder, Rename
from grader.engine.oracle import TOOL_TYPES
from grader.engine.programs import Append, Block, Program, Segment
from grader.engine.reduce_data import short_names, shorter_texts


def shorter_ids(program: Program) -> Iterator[DraftBuilder]:
    """Builders of ``program`` with every call id made as short as it can be at once, then
    with one call id, or one session id, shortened."""
    compacted = _compacted_call_ids(program)
    if compacted is not None:
        yield _renaming(program, compacted)
    yield from _shorter_call_ids(program)
    yield from _shorter_sessions(program)


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


def _compacted_call_ids(program: Program) -> Rename | None:
    """A renaming of every single append's call id to the shortest ids its session has not
    taken (``"0"``, ``"1"``, ...), or None when that shortens nothing: a case of sixty calls
    gets short ids in one step, not one id a round."""
    taken: dict[str, set[str]] = {}
    for append in program.appends():
        if append.event_type in TOOL_TYPES:
            taken.setdefault(str(append.session_id), set()).add(str(append.payload["call_id"]))
    singles: dict[str, list[str]] = {}
    for segment in program.segments:
        if isinstance(segment, Append) and segment.event_type == "tool_call":
            ids = singles.setdefault(str(segment.session_id), [])
            if str(segment.payload["call_id"]) not in ids:
                ids.append(str(segment.payload["call_id"]))
    names: dict[tuple[str, str], str] = {}
    for session, ids in singles.items():
        kept = taken[session] - set(ids)  # a loop's ids stay as they are
        names |= {
            (session, old): new for old, new in zip(ids, short_names(len(ids), kept), strict=True)
        }
    if sum(map(len, names.values())) >= sum(len(old) for _, old in names):
        return None

    def rename(append: Append) -> Append:
        if append.event_type not in TOOL_TYPES:
            return append
        new = names.get((str(append.session_id), str(append.payload["call_id"])))
        return (
            append if new is None else replace(append, payload={**append.payload, "call_id": new})
        )

    return rename


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
    named = [s.session_id for s in program.segments if isinstance(s, Append)] + [
        name for s in program.segments if isinstance(s, Block) for name in s.sessions
    ]  # a loop's own sessions; those it makes from them (s0, s1, ...) follow their base
    sessions = dict.fromkeys([*map(str, program.family), *map(str, named)])
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
