"""Refusing bad appends and looking for what each may have left behind: the checks every
property of task 5 shares."""

from __future__ import annotations

from collections.abc import Iterator

from grader.engine.oracle import OPEN, ModelLog
from grader.engine.plan import Plan
from grader.engine.programs import Append, Block, Program, Segment, session_of
from grader.engine.steps import LogVar
from grader.tasks.reject_bad_input.bad_input import BadAppend

NO_TRACE = "append.refusal_leaves_no_trace"
#: The sizes either side of 2**11 at which a session that grows through them is read as the
#: program is built: code that pages or windows a long session by 2,048 loses a last page of
#: one at 2,049. Only the long gaps' session grows so far. The reads ride on the appends the
#: program makes anyway, so a correct file that is slow at every append (a deep copy of its
#: session each time) pays for three reads, not for a long session of their own, which would
#: cost it seconds of the batch's time per submission. (No replay: task 5 does not use
#: replay_session, and a replay bug must not cost its points, nor a replay not written yet.)
LOOKED_AT = (2047, 2048, 2049)


def build(plan: Plan, program: Program) -> LogVar:
    """The log after every segment of ``program``, each append judged strictly; a session
    read whenever it holds a size of :data:`LOOKED_AT` (see :func:`_look`)."""
    log = plan.create()
    for segment in program.segments:
        for part in _split_at_looks(log.model, segment):
            log = plan.block(log, part) if isinstance(part, Block) else plan.append(log, part)[0]
            _look(plan, log, session_of(part))
    return log


def _split_at_looks(model: ModelLog, segment: Segment) -> Iterator[Segment]:
    """``segment``, a loop of one session's messages cut where its session reaches a size
    of :data:`LOOKED_AT`."""
    if not (isinstance(segment, Block) and segment.pattern == "filler"):
        yield segment
        return
    before = len(model.events_for(segment.sessions[0]))
    cuts = [size - before for size in LOOKED_AT if before < size < before + segment.count]
    done = 0
    for cut in [*cuts, segment.count]:
        yield Block(segment.pattern, cut - done, segment.sessions, segment.label)
        done = cut


def _look(plan: Plan, log: LogVar, session: str) -> None:
    """At 2**11 + 1 events the session is read whole (where a paging bug loses the last one);
    at 2**11 - 1 and 2**11 events, its last three events are read, where a window or a page
    that cuts too early shows, at a fraction of a whole read's cost to the grade."""
    events = log.model.events_for(session)
    if len(events) == LOOKED_AT[-1]:
        plan.read_events(log, session)
    elif len(events) in LOOKED_AT:
        plan.read_events(log, session, events[-4].event_id)


def refuse_all(plan: Plan, log: LogVar, rows: list[BadAppend], sessions: list[str]) -> None:
    """Each bad append, then a look for what it may have left: a new event in its session (or
    in any session: after the log's last id, so each look costs nothing when it is right),
    then every session read whole again, as it read before any of them."""
    for session in sessions:
        plan.read_events(log, session, repeat=NO_TRACE)
    last = len(log.model.events)
    for row in rows:
        plan.refuse(log, row.session_id, row.event_type, row.payload, row.reason)
        named = [row.session_id] if isinstance(row.session_id, str) and row.session_id else [""]
        for session in dict.fromkeys([*named, *sessions]):
            plan.read_events(log, session, after=last, repeat=NO_TRACE, promise=NO_TRACE)
    for session in sessions:
        plan.read_events(log, session, repeat=NO_TRACE)
    _traces(plan, log, rows)


def _traces(plan: Plan, log: LogVar, rows: list[BadAppend]) -> None:
    """Appends a refused call would have spoiled: the next id, a call id the refused call
    named, a result for an open call a refused result named."""
    model = log.model
    follow = [Append("next", "user_message", {"content": "next"})]
    for row in rows:
        call_id = row.payload.get("call_id") if isinstance(row.payload, dict) else None
        session = row.session_id
        if not (isinstance(session, str) and session and isinstance(call_id, str) and call_id):
            continue
        if row.event_type == "tool_call" and model.call_state(session, call_id) == "unused":
            follow.append(
                Append(
                    session, "tool_call", {"call_id": call_id, "name": "search", "arguments": "{}"}
                )
            )
        if row.event_type == "tool_result" and call_id in model.calls_in(session, OPEN):
            follow.append(Append(session, "tool_result", {"call_id": call_id, "content": "ok"}))
    unique = {repr((a.session_id, a.event_type, a.payload)): a for a in follow}
    for append in unique.values():
        if model.refusal(append.session_id, append.event_type, append.payload) is None:
            plan.append(log, append, role="refusal_leaves_no_trace")
