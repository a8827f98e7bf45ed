"""Task 4's examples at the edges (issue 28): replays of exactly 2**n - 1, 2**n and 2**n + 1
messages, and of runs of that many calls, and of a result of 131,073 characters (task 1's);
replays after refused appends; extra payload keys named like a message's own, on every kind
of event; a run of calls with another session's result, message and call inside it.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from grader.engine.boundaries import boundaries, growth
from grader.engine.plan import Plan
from grader.engine.programs import Append, Block, Program
from grader.engine.properties import Property
from grader.engine.steps import LogVar
from grader.tasks.append_and_ids.edges import LONG_RESULT
from grader.values import Text

MOST_MESSAGES = 1025
LONGEST_RUN = 513


def replay_as_it_grows(plan: Plan, program: Program) -> None:
    """The program's first session replayed after every segment; at the end, every other."""
    log = plan.create()
    session = program.family[0]
    for segment in program.segments:
        log = (
            plan.block(log, segment) if isinstance(segment, Block) else plan.append(log, segment)[0]
        )
        plan.replay(log, session)
    for other in program.family[1:]:
        plan.replay(log, other)


def _call(session: str, call_id: str) -> Append:
    return Append(session, "tool_call", {"call_id": call_id, "name": "search", "arguments": "{}"})


def _result(session: str, call_id: str) -> Append:
    return Append(session, "tool_result", {"call_id": call_id, "content": "ok"})


#: A session growing to 1,025 messages, replayed at each boundary; around it, a run of two
#: calls in another session, 1,026 positions apart: only the session's own events end a run,
#: so ``a`` replays to one message of both calls. Code that joins calls only when they are
#: close in the log (at most 1,024 positions apart, say) splits it.
REPLAY_SIZES = Program(
    ("m", "a"),
    (
        _call("a", "c1"),
        *growth("filler", "m", boundaries(MOST_MESSAGES), "loop"),
        _call("a", "c2"),
    ),
)
#: One run of calls growing to 513, replayed at each boundary: one message of k calls.
RUN_SIZES = Program(("r",), growth("calls", "r", boundaries(LONGEST_RUN), "run"))


#: Sessions with calls open, answered and reused, then appends each refused for its own
#: reason: ``(session, event type, payload)``.
BEFORE_REFUSALS = Program(
    ("a", "b"),
    (
        Append("a", "user_message", {"content": "hi"}),
        _call("a", "c1"),
        _result("a", "c1"),
        _call("a", "c2"),
        _call("b", "c1"),
        Append("a", "assistant_message", {"content": "ok"}),
    ),
)
REFUSED: tuple[tuple[str, Any, Any], ...] = (
    ("a", "tool_result", {"call_id": "c1", "content": "again"}),
    ("a", "tool_result", {"call_id": "c9", "content": "never called"}),
    ("a", "tool_call", {"call_id": "c1", "name": "search", "arguments": "{}"}),
    ("a", "tool_call", {"call_id": "c2", "name": "search", "arguments": "{}"}),
    ("b", "tool_result", {"call_id": "c2", "content": "another session's"}),
    ("a", "tool_call", {"call_id": "c3", "name": "", "arguments": "{}"}),
    ("a", "user_message", {}),
    ("b", "system", {"content": "hi"}),
    ("a", "assistant_message", {"content": None}),
)
REASONS = (
    "result_already_given", "result_without_call", "call_id_reused", "call_id_reused",
    "result_without_call", "empty_value", "missing_key", "unknown_type", "wrong_value_type",
)  # fmt: skip


def replay_after_refusals(plan: Plan, program: Program) -> None:
    """Every session replayed, then every refused append tried, then every session replayed
    again: the same messages (and once more after the log's next valid append)."""
    log = plan.create()
    for segment in program.segments:
        log = (
            plan.block(log, segment) if isinstance(segment, Block) else plan.append(log, segment)[0]
        )
    _replay_all(plan, log, program.family)
    for (session, event_type, payload), reason in zip(REFUSED, REASONS, strict=True):
        plan.refuse(log, session, event_type, payload, reason)
        plan.replay(log, session, repeat="append.refusal_leaves_no_trace")
    _replay_all(plan, log, program.family)
    log, _ = plan.append(log, _result("a", "c2"))
    _replay_all(plan, log, program.family)


def _replay_all(plan: Plan, log: LogVar, family: tuple[str, ...]) -> None:
    for session in family:
        plan.replay(log, session, repeat="append.refusal_leaves_no_trace")


#: Extra keys named like a chat message's own, on every kind of event: none may reach a
#: replayed message (a tool call's message keeps ``content: None``). Among them the optional
#: fields the API knows for an assistant message (``refusal``, ``audio``, ``function_call``)
#: and those a response carries (``annotations``, ``reasoning_content``): a message holds the
#: keys the contract shows, and no field a payload happens to hold is passed through.
MESSAGE_KEYS: dict[str, Any] = {
    "role": "system", "name": "ann", "tool_calls": [{"id": "x"}], "tool_call_id": "t9",
    "id": "other", "type": "custom", "function": {"name": "g", "arguments": "{}"},
    "refusal": "no", "audio": {"id": "audio_1"}, "function_call": {"name": "g", "arguments": "{}"},
    "annotations": [{"type": "url_citation"}], "reasoning_content": "because",
}  # fmt: skip
MESSAGE_KEY_EXTRAS = Program(
    ("a",),
    (
        Append("a", "user_message", {**MESSAGE_KEYS, "arguments": "{}", "content": "hi"}),
        Append(
            "a",
            "tool_call",
            {
                **MESSAGE_KEYS,
                "content": "leaked",
                "call_id": "c1",
                "name": "search",
                "arguments": "{}",
            },
        ),
        Append(
            "a",
            "tool_call",
            {**MESSAGE_KEYS, "content": "", "call_id": "c2", "name": "search", "arguments": "{}"},
        ),
        Append(
            "a",
            "tool_result",
            {**MESSAGE_KEYS, "arguments": "{}", "call_id": "c1", "content": "ok"},
        ),
        Append("a", "assistant_message", {**MESSAGE_KEYS, "call_id": "c2", "content": "done"}),
    ),
)

#: A run of calls with another session's events inside it, one of each kind, the first a
#: result for a call id the run holds too: only events of the session replayed end a run, so
#: ``a`` replays to one message of three calls. (INTERLEAVED has a call and a user message.)
FOREIGN_EVENTS_IN_A_RUN = Program(
    ("a", "b"),
    (
        _call("b", "c1"),
        _call("a", "c1"),
        _result("b", "c1"),
        _call("a", "c2"),
        Append("b", "assistant_message", {"content": "b"}),
        _call("a", "c3"),
        _result("a", "c1"),
    ),
)

#: A subclass of str as the session replayed, beside the plain id it equals.
TEXT_SESSIONS = Program(
    (Text("a"), "a"),
    (
        Append(Text("a"), "tool_call", {"call_id": "c1", "name": "search", "arguments": "{}"}),
        Append("a", "tool_call", {"call_id": "c2", "name": "search", "arguments": "{}"}),
        Append(Text("a"), "tool_result", {"call_id": "c1", "content": "ok"}),
    ),
)

PROPERTIES = (
    Property(
        "sizes",
        st.nothing(),
        replay_as_it_grows,
        0,
        (REPLAY_SIZES, RUN_SIZES, LONG_RESULT),
        ("replay.mapping", "replay.merge"),
    ),
    Property(
        "after_refusals",
        st.nothing(),
        replay_after_refusals,
        0,
        (BEFORE_REFUSALS,),
        ("append.refusal_leaves_no_trace", "replay.mapping"),
    ),
)
