"""Strategies for bad appends: every way the contract says append_event must refuse.

Each example holds a valid prefix (tool-heavy, so open and answered calls exist), then one bad
append per kind of refusal the prefix makes possible, built so that exactly that rule is
broken (the oracle double-checks), then one valid append to make afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from grader.oracle import EVENT_TYPES, REQUIRED_KEYS, ModelLog, Refusal
from grader.programs import Append, Style, intents, materialise

# Results drawn often (a result with nothing to answer becomes a call), so prefixes tend to
# hold open and answered calls: the call-id refusals need them.
TOOL_HEAVY = ("tool_call", "tool_result", "user_message", "tool_result", "assistant_message")
STYLE = Style(sessions=("a", "b"), kinds=TOOL_HEAVY, max_appends=5)
BAD_TYPES = ("system", "", "User_message", "tool", "tool-call", None, 7)
BAD_SESSIONS = ("", None, 7, b"a", ["a"])
NOT_MAPPINGS = (None, "hi", [("content", "hi")], ["content"], 42)
WRONG_VALUES = (None, 1, True, b"x", ["x"], {"x": "y"})


@dataclass(frozen=True)
class BadAppend:
    """Arguments append_event must refuse, and why."""

    session_id: Any
    event_type: Any
    payload: Any
    reason: Refusal


@dataclass(frozen=True)
class RefusalCase:
    """A valid prefix, one bad append per kind of refusal, and a valid append to make last."""

    prefix: list[Append]
    bad_appends: list[BadAppend]
    next_append: Append


@st.composite
def refusal_cases(draw: st.DrawFn) -> RefusalCase:
    """Every kind of bad append (that the prefix makes possible) in each example.

    Drawing one bad append per kind, rather than one kind per example, keeps the number of
    examples (and so the grading time) small while every kind is tried many times.
    """
    prefix = materialise(draw(st.lists(intents(STYLE), max_size=STYLE.max_appends)), STYLE)
    model = ModelLog()
    for append in prefix:
        model, _ = model.append(append.session_id, append.event_type, append.payload)
    bad_appends = []
    for reason in Refusal:
        if _possible(reason, model):
            session, event_type, payload = _bad_append(draw, reason, model)
            assert model.refusal(session, event_type, payload) == reason
            bad_appends.append(BadAppend(session, event_type, payload, reason))
    follow = Append(_pick(draw, STYLE.sessions), "user_message", {"content": "next"})
    return RefusalCase(prefix, bad_appends, follow)


def _pick(draw: st.DrawFn, options: Sequence[Any]) -> Any:
    """One of ``options``; an integer draw is cached by hypothesis, a sampled_from over a
    fresh list is rebuilt and validated on every call, which the time budget cannot afford."""
    return options[draw(st.integers(0, len(options) - 1))]


def _possible(reason: Refusal, model: ModelLog) -> bool:
    if reason is Refusal.CALL_ID_REUSED:
        return any(model.used_call_ids(s) for s in STYLE.sessions)
    if reason is Refusal.RESULT_ALREADY_GIVEN:
        return any(_answered(model, s) for s in STYLE.sessions)
    return True


def _answered(model: ModelLog, session: str) -> list[str]:
    return [c for c in model.used_call_ids(session) if model.call_state(session, c) == "answered"]


def _valid_payload(event_type: str, model: ModelLog, session: str) -> dict[str, Any]:
    if event_type == "tool_call":
        used = set(model.used_call_ids(session))
        fresh = next(f"call_{n}" for n in range(1, 99) if f"call_{n}" not in used)
        return {"call_id": fresh, "name": "search", "arguments": "{}"}
    if event_type == "tool_result":
        open_calls = model.open_calls(session)
        return {"call_id": open_calls[0] if open_calls else "call_1", "content": "42"}
    return {"content": "hi"}


def _bad_append(draw: st.DrawFn, reason: Refusal, model: ModelLog) -> tuple[Any, Any, Any]:
    session = _pick(draw, STYLE.sessions)
    if reason is Refusal.UNKNOWN_TYPE:
        return session, _pick(draw, BAD_TYPES), {"content": "hi"}
    if reason is Refusal.BAD_SESSION_ID:
        return _pick(draw, BAD_SESSIONS), "user_message", {"content": "hi"}
    if reason in (Refusal.PAYLOAD_NOT_MAPPING, Refusal.MISSING_KEY, Refusal.WRONG_VALUE_TYPE):
        return _broken_payload(draw, reason, model, session)
    if reason is Refusal.EMPTY_VALUE:
        event_type = _pick(draw, ("tool_call", "tool_result"))
        key = _pick(draw, ("call_id", "name") if event_type == "tool_call" else ("call_id",))
        return session, event_type, {**_valid_payload(event_type, model, session), key: ""}
    return _call_id_trouble(draw, reason, model)


def _broken_payload(
    draw: st.DrawFn, reason: Refusal, model: ModelLog, session: str
) -> tuple[Any, Any, Any]:
    event_type = _pick(draw, EVENT_TYPES)
    if reason is Refusal.PAYLOAD_NOT_MAPPING:
        return session, event_type, _pick(draw, NOT_MAPPINGS)
    payload = _valid_payload(event_type, model, session)
    key = _pick(draw, tuple(REQUIRED_KEYS[event_type]))
    if reason is Refusal.MISSING_KEY:
        return session, event_type, {k: v for k, v in payload.items() if k != key}
    return session, event_type, {**payload, key: _pick(draw, WRONG_VALUES)}


def _call_id_trouble(draw: st.DrawFn, reason: Refusal, model: ModelLog) -> tuple[Any, Any, Any]:
    if reason is Refusal.CALL_ID_REUSED:
        session = _pick(draw, [s for s in STYLE.sessions if model.used_call_ids(s)])
        call_id = _pick(draw, model.used_call_ids(session))
        return session, "tool_call", {"call_id": call_id, "name": "search", "arguments": "{}"}
    if reason is Refusal.RESULT_ALREADY_GIVEN:
        session = _pick(draw, [s for s in STYLE.sessions if _answered(model, s)])
        return (
            session,
            "tool_result",
            {"call_id": _pick(draw, _answered(model, session)), "content": "again"},
        )
    session = _pick(draw, STYLE.sessions)
    used_here = set(model.used_call_ids(session))
    # Best of all: an id another session did call, which proves ids are scoped per session.
    elsewhere = [c for s in STYLE.sessions for c in model.used_call_ids(s) if c not in used_here]
    call_id = elsewhere[0] if elsewhere else "call_9"
    return session, "tool_result", {"call_id": call_id, "content": "42"}


#: Appended before the table's tool_result rows are tried: with this call open, each of them
#: breaks exactly one rule. The other rows are tried on the empty log.
OPEN_CALL = Append("a", "tool_call", {"call_id": "call_1", "name": "search", "arguments": "{}"})
_VALID = {
    "user_message": {"content": "hi"},
    "assistant_message": {"content": "hi"},
    "tool_call": {"call_id": "call_2", "name": "search", "arguments": "{}"},
    "tool_result": {"call_id": "call_1", "content": "42"},
}


def bad_append_table() -> list[BadAppend]:
    """Every bad append that needs no history, each breaking exactly one rule.

    Cheap to try them all (a refusal is one call), and trying all of them does not leave a
    rule like "content must be a str" to the luck of the draw.
    """
    rows = [BadAppend("a", t, {"content": "hi"}, Refusal.UNKNOWN_TYPE) for t in BAD_TYPES]
    rows += [
        BadAppend(s, "user_message", {"content": "hi"}, Refusal.BAD_SESSION_ID)
        for s in BAD_SESSIONS
    ]
    for event_type, valid in _VALID.items():
        rows += [BadAppend("a", event_type, p, Refusal.PAYLOAD_NOT_MAPPING) for p in NOT_MAPPINGS]
        for key, must_be_non_empty in REQUIRED_KEYS[event_type].items():
            missing = {k: v for k, v in valid.items() if k != key}
            rows.append(BadAppend("a", event_type, missing, Refusal.MISSING_KEY))
            rows += [
                BadAppend("a", event_type, {**valid, key: value}, Refusal.WRONG_VALUE_TYPE)
                for value in WRONG_VALUES
            ]
            if must_be_non_empty:
                rows.append(BadAppend("a", event_type, {**valid, key: ""}, Refusal.EMPTY_VALUE))
    empty = ModelLog()
    opened, _ = empty.append(OPEN_CALL.session_id, OPEN_CALL.event_type, OPEN_CALL.payload)
    for row in rows:
        model = opened if row.event_type == "tool_result" else empty
        assert model.refusal(row.session_id, row.event_type, row.payload) == row.reason
    return rows
