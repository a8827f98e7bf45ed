"""Task 5's examples at the edges (issue 28): 513 calls open at once, answered oldest first;
results 2**n - 1, 2**n and 2**n + 1 events after their calls, up to 4,097, and a call id
reused 1,316 and 4,107 events after it was first used; a subclass of ``str`` for the event
type and every text; every bad input with every event type; refused appends tried twice;
refused appends on older logs and on branches; refused tool events each followed at once by
an append to the newest log.
"""

from __future__ import annotations

from hypothesis import strategies as st

from grader.engine.boundaries import boundaries
from grader.engine.oracle import EVENT_TYPES, ModelLog, Refusal
from grader.engine.plan import Plan
from grader.engine.programs import SPREAD, Append, Block, Program, Segment, fresh_call_id, tagged
from grader.engine.properties import Property
from grader.tasks.reject_bad_input.bad_input import (
    BAD_SESSIONS,
    NOT_MAPPINGS,
    BadAppend,
    call_trouble,
    valid_payload,
)
from grader.tasks.reject_bad_input.refusing import NO_TRACE, build, refuse_all
from grader.values import Text

#: The most calls open at once: a session of 1,026 tool events, past 512 open and 512
#: answered. An honest implementation that checks a call id against the whole session,
#: copying it (correct/c06), spends about 0.9 s of CPU on it (of the example's 5 s); twice as
#: many would cost it four times that.
MOST_OPEN = 513
LONGEST_GAP = 1025
#: The long gaps, past 2**11 and 2**12, in a program of their own (see LONG_GAPS).
LONG_GAPS_OF = (2047, 2048, 2049, 4095, 4096, 4097)
#: Below this, a gap is made on its own: call, filler, result.
SHORT_GAP = 64


def _call(session: str, call_id: str) -> Append:
    return Append(session, "tool_call", {"call_id": call_id, "name": "search", "arguments": "{}"})


def _result(session: str, call_id: str) -> Append:
    return Append(session, "tool_result", {"call_id": call_id, "content": "ok"})


#: 513 calls, then their results oldest first: the first result comes with 513 calls open,
#: the last with one; then every call answered, 513 of them.
CALLS_AT_ONCE = Program(("a",), (Block("calls_answered", MOST_OPEN, ("a",), "loop0"),))


def gap_program(session: str, gaps: tuple[int, ...], own_up_to: int = 0) -> Program:
    """A result ``gap`` events after its call, for each gap: the short ones one after the
    other (call, filler, result); the long ones overlapping, every call first, each result
    placed so that exactly its gap of the log's events lies between it and its call. The
    filler opens a session per event: the calls' session stays short, and so does the
    history a session-by-session check walks. Except before the results of long gaps up to
    ``own_up_to``: that filler is the calls' session's own, so those gaps are the session's
    too."""
    segments: list[Segment] = []
    short = [gap for gap in gaps if gap < SHORT_GAP]
    long = [gap for gap in gaps if gap >= SHORT_GAP]
    for gap in short:
        segments += [_call(session, f"g{gap}"), _filler(gap)]
        segments.append(_result(session, f"g{gap}"))
    segments += [_call(session, f"g{gap}") for gap in long]
    position = len(long)  # counted from the first long call
    for number, gap in enumerate(long):
        answer_at = number + gap + 1
        if answer_at > position:
            own = session if gap <= own_up_to else None
            segments.append(_filler(gap, answer_at - position, own))
        segments.append(_result(session, f"g{gap}"))
        position = answer_at + 1
    return tagged(Program((session,), tuple(segments)))


def _filler(gap: int, count: int | None = None, session: str | None = None) -> Block:
    count = gap if count is None else count
    if session is not None:
        return Block("filler", count, (session,), f"f{gap}")
    return Block(SPREAD, count, (f"f{gap}_",), f"f{gap}")


#: Every gap up to 1,025, then (in the ``refusals`` property) the first call's id reused
#: 1,316 events on.
GAPS = gap_program("a", boundaries(LONGEST_GAP))
#: A call answered at once, then the gaps past 2**11 and 2**12; then (in ``refusals``) the
#: first call's id reused 4,107 events on, its call and its result both far behind. The
#: gaps up to 2,049 are the calls' session's own: its 2,044 messages lie between those calls
#: and their results, so a result looked for among the session's last 2,048 events is
#: refused. The filler of the longer gaps opens a session per event, so the log is long
#: (4,107 events) and no session longer than 2,058: an honest check of the appended session
#: (correct/c06 copies it whole at every append) spends some 3 s of CPU here, while a log
#: kept, or searched, only within its newest 2,048 or 4,096 events is met. Apart from GAPS so
#: that a failure here, whose every attempt at a smaller case runs some 4,000 appends, is
#: shrunk from a program of 21 parts, not 105.
LONG_GAPS = gap_program("a", (1, *LONG_GAPS_OF), own_up_to=2049)

#: A subclass of ``str`` for every string an append takes, the event type and payload keys
#: (at the top and nested) included.
TEXT_SUBCLASSES = tagged(
    Program(
        ("a",),
        (
            Append(
                Text("a"),
                Text("user_message"),
                {
                    "content": Text("hi"),
                    "meta": [Text("x"), {Text("k"): Text("v")}],
                    Text("tag"): 1,
                },
            ),
            Append(
                "a",
                Text("tool_call"),
                {"call_id": Text("c1"), "name": Text("search"), "arguments": Text("{}")},
            ),
            Append(Text("a"), Text("tool_result"), {"call_id": Text("c1"), "content": Text("ok")}),
            Append("a", Text("assistant_message"), {"content": Text("")}, "proxy"),
        ),
    )
)


def every_type(plan: Plan, _: object) -> None:
    """Every bad session id and every payload that is not a mapping, with every event type
    (the rest of the payload valid for it), on an empty log and next to an open call."""
    empty = plan.create()
    refuse_all(plan, empty, _with_every_type(ModelLog()), ["a"])
    opened, _ = plan.append(empty, _call("a", "call_1"))
    refuse_all(plan, opened, _with_every_type(opened.model), ["a"])


def _with_every_type(model: ModelLog) -> list[BadAppend]:
    rows = [
        BadAppend(bad, kind, valid_payload(kind, model, "a"), Refusal.BAD_SESSION_ID.value)
        for kind in EVENT_TYPES
        for bad in BAD_SESSIONS
    ]
    rows += [
        BadAppend("a", kind, bad, Refusal.PAYLOAD_NOT_MAPPING.value)
        for kind in EVENT_TYPES
        for bad in NOT_MAPPINGS
    ]
    return [row for row in rows if model.refusal(row.session_id, row.event_type, row.payload)]


#: Calls answered, open and reused in two sessions: every call-id refusal it allows.
CALL_HISTORY = Program(
    ("a", "b"),
    (
        _call("a", "c1"), _result("a", "c1"), _call("a", "c2"), _call("b", "c1"),
        Append("a", "user_message", {"content": "hi"}), _call("a", "c3"), _result("a", "c3"),
    ),
)  # fmt: skip


def refused_twice(plan: Plan, program: Program) -> None:
    """Each call-id refusal tried twice in a row: refused both times, leaving no trace; then,
    with the open calls answered, the same appends refused again (a refused append leaves every
    later rule as it was)."""
    log = build(plan, program)
    sessions = list(program.family)
    rows = call_trouble(log.model, sessions, 0) + call_trouble(log.model, sessions, 1)
    twice = [row for row in rows for _ in (1, 2)]
    refuse_all(plan, log, twice, sessions)
    for session in sessions:
        for call in log.model.calls_in(session, "open"):
            log, _ = plan.append(log, _result(session, call), role="refusal_leaves_no_trace")
    refuse_all(plan, log, twice, sessions)


#: A call answered and a call open, then (in ``newest_after_refusals``) a fresh call's life.
SHORT_HISTORY = Program(("a",), (_call("a", "c1"), _result("a", "c1"), _call("a", "c2")))


def newest_after_refusals(plan: Plan, program: Program) -> None:
    """A fresh call's life, each step after a refusal of it, every append on the newest log:
    a call refused for its name, then for its arguments, then made; a result refused for its
    content, then given; a result given again, then the call made again, both refused.

    Every other look for a trace first appends a probe to the log the refusals were tried on,
    so what follows it extends an older log: code whose log versions share one store, and
    which rebuilds it for a branch, had its trace wiped before anything looked. Here nothing
    comes between a refusal and the append it could spoil."""
    log = build(plan, program)
    session = program.family[0]
    call_id = fresh_call_id(log.model, session)
    call = {"call_id": call_id, "name": "search", "arguments": "{}"}
    result = {"call_id": call_id, "content": "ok"}
    plan.refuse(log, session, "tool_call", {**call, "name": ""}, Refusal.EMPTY_VALUE.value)
    plan.refuse(log, session, "tool_call", {**call, "arguments": None},
                Refusal.WRONG_VALUE_TYPE.value)  # fmt: skip
    log, _ = plan.append(log, Append(session, "tool_call", call), role="refusal_leaves_no_trace")
    plan.refuse(log, session, "tool_result", {**result, "content": None},
                Refusal.WRONG_VALUE_TYPE.value)  # fmt: skip
    log, _ = plan.append(
        log, Append(session, "tool_result", result), role="refusal_leaves_no_trace"
    )
    plan.refuse(log, session, "tool_result", result, Refusal.RESULT_ALREADY_GIVEN.value)
    plan.refuse(log, session, "tool_call", call, Refusal.CALL_ID_REUSED.value)


def older_logs(plan: Plan, program: Program) -> None:
    """Refusals tried on every older log the program made, and on a branch of each: the calls
    made later exist on newer logs only, so a result for one is refused there."""
    log, logs = plan.create(), []
    logs.append(log)
    for segment in program.segments:
        log = (
            plan.block(log, segment) if isinstance(segment, Block) else plan.append(log, segment)[0]
        )
        logs.append(log)
    sessions = list(program.family)
    for older in logs[:-1]:
        branch, _ = plan.append(older, Append("a", "user_message", {"content": "branch"}))
        for target in (older, branch):
            refuse_all(plan, target, _later_calls(target.model, log.model, sessions), sessions)


def _later_calls(older: ModelLog, newest: ModelLog, sessions: list[str]) -> list[BadAppend]:
    """The call-id refusals ``older`` allows itself, and a result for each call of
    ``newest`` that ``older`` has not made (or has answered already), each once."""
    rows = call_trouble(older, sessions, 0)
    for session, call in newest.calls:
        payload = {"call_id": call, "content": "from a newer log"}
        refusal = older.refusal(session, "tool_result", payload)
        if refusal is not None:
            rows.append(BadAppend(session, "tool_result", payload, refusal.value))
    unique = {(row.session_id, row.event_type, row.payload["call_id"]): row for row in rows}
    return list(unique.values())


PROPERTIES = (
    Property(
        "every_type",
        st.nothing(),
        every_type,
        0,
        (None,),
        ("append.refuses_bad_input", NO_TRACE),
    ),
    Property(
        "refused_twice",
        st.nothing(),
        refused_twice,
        0,
        (CALL_HISTORY,),
        ("append.refuses_bad_input", NO_TRACE),
    ),
    Property(
        "newest_after_refusals",
        st.nothing(),
        newest_after_refusals,
        0,
        (SHORT_HISTORY,),
        ("append.refuses_bad_input", NO_TRACE),
    ),
    Property(
        "older_logs",
        st.nothing(),
        older_logs,
        0,
        (CALL_HISTORY,),
        ("append.refuses_bad_input", NO_TRACE),
    ),
)
