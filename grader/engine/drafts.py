"""Edits of a program, and the valid program each stands for.

A reduction of a program is an edit (a :class:`Draft`): segments removed, one replaced, ids
renamed. :func:`finish` turns it back into a program of valid appends by walking the model
log: an append the edit left invalid is dropped with it (removing a call removes its result
too), unless the edit was made to that very append, in which case the candidate is no
example at all. Each kept single append has its unusual traits named again
(:func:`~grader.engine.programs.features_of`), so that a refused append names the trait the
smaller program still has, and an edited append may lose traits, never gain one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from types import MappingProxyType

from grader.engine.oracle import ANSWERED, OPEN, TOOL_TYPES, ModelLog
from grader.engine.programs import Append, Block, Program, Segment, features_of

Rename = Callable[[Append], Append]
DraftBuilder = Callable[[], "Draft | None"]


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
