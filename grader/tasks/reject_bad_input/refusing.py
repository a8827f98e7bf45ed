"""Refusing bad appends and looking for what each may have left behind: the checks every
property of task 5 shares."""

from __future__ import annotations

from grader.engine.oracle import OPEN
from grader.engine.plan import Plan
from grader.engine.programs import Append, Block, Program
from grader.engine.steps import LogVar
from grader.tasks.reject_bad_input.bad_input import BadAppend

NO_TRACE = "append.refusal_leaves_no_trace"


def build(plan: Plan, program: Program) -> LogVar:
    """The log after every segment of ``program``, each append judged strictly."""
    log = plan.create()
    for segment in program.segments:
        log = (
            plan.block(log, segment) if isinstance(segment, Block) else plan.append(log, segment)[0]
        )
    return log


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
