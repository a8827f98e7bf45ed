"""Smaller branchings: fewer branches, a smaller program under them, plainer branch appends.

A branch is an append to one of the logs its program made (``base``: the log after that
many segments). When the program shrinks, each branch follows the log it was made from
(the log after the same segments, those that are left), and a branch that is no longer valid
there is dropped; a branch the edit changed must stay valid, or the candidate is none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from grader.engine.checks import Branching
from grader.engine.drafts import DraftBuilder, Rename, finish, no_new_traits
from grader.engine.oracle import ModelLog
from grader.engine.programs import Append, Block, Program, features_of
from grader.engine.reduce_data import shorter_sequences, shorter_texts, smaller_ints
from grader.engine.reduce_programs import append_builders, drafts, unrollings

Candidate = Callable[[], Branching | None]


def branching_candidates(example: Branching, unroll: bool = False) -> Iterator[Candidate]:
    """Every one-step reduction of ``example``, as a function that builds it (None: it is
    not a valid example): branches dropped, the program reduced, a branch moved to an older
    log, a branch append made plainer. With ``unroll``, the program with one short loop as
    single appends, instead (see :func:`~grader.engine.reduce_programs.unrollings`)."""
    if unroll:
        yield from (_under(example, draft) for draft in unrollings(example.program))
        return
    for kept in shorter_sequences(example.branches, every_item=True):
        yield _fixed(Branching(example.program, tuple(kept)))
    for draft in drafts(example.program):
        yield _under(example, draft)
    for number, (base, append) in enumerate(example.branches):
        for older in smaller_ints(base):
            yield _changed(example, number, older, _just(append))
        for build in append_builders(append):
            yield _changed(example, number, base, build)
        for shorter in _shorter_call_id(append):
            yield _changed(example, number, base, _just(shorter))


def _fixed(example: Branching) -> Candidate:
    return lambda: example


def _just(append: Append) -> Callable[[], Append | None]:
    return lambda: append


def _under(example: Branching, build_draft: DraftBuilder) -> Candidate:
    def build() -> Branching | None:
        draft = build_draft()
        finished = None if draft is None else finish(draft)
        if draft is None or finished is None:
            return None
        program, origins = finished
        moved = [
            (sum(1 for origin in origins if origin < base), draft.rename(append))
            for base, append in example.branches
        ]
        return Branching(program, tuple(_valid(program, moved) or ()))

    return build


def _changed(
    example: Branching, number: int, base: int, build_append: Callable[[], Append | None]
) -> Candidate:
    def build() -> Branching | None:
        append = build_append()
        if append is None:
            return None
        branches = [*example.branches[:number], (base, append), *example.branches[number + 1 :]]
        valid = _valid(example.program, branches, number, example.branches[number][1])
        return None if valid is None else Branching(example.program, tuple(valid))

    return build


def _shorter_call_id(append: Append) -> Iterator[Append]:
    """A branch's own call with a shorter id (nothing answers a branch's call)."""
    if append.event_type == "tool_call":
        for new in shorter_texts(append.payload["call_id"]):
            if new:
                yield replace(append, payload={**append.payload, "call_id": new})


def _valid(
    program: Program,
    branches: list[tuple[int, Append]],
    edited: int | None = None,
    before: Append | None = None,
) -> list[tuple[int, Append]] | None:
    """The branches that are valid on their logs, their traits named again; None when the
    ``edited`` one (made from ``before``) is not, or has a trait ``before`` lacked."""
    logs = _logs(program)
    kept = []
    for number, (base, append) in enumerate(branches):
        model = logs[min(base, len(logs) - 1)]
        valid = model.refusal(append.session_id, append.event_type, append.payload) is None
        if valid and number == edited and before is not None:
            valid = no_new_traits(model, append, before)
        if not valid:
            if number == edited:
                return None
            continue
        kept.append((base, replace(append, features=features_of(model, append))))
    return kept


def _logs(program: Program) -> list[ModelLog]:
    """The model of each log the program makes, the empty one first."""
    logs = [ModelLog()]
    for segment in program.segments:
        made = segment.appends() if isinstance(segment, Block) else [segment]
        logs.append(logs[-1].extend(made))
    return logs


__all__ = ["Rename", "branching_candidates"]
