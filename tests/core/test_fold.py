"""The replay fold: each event type's message, and how consecutive tool calls join."""

from __future__ import annotations

from typing import Any

import pytest

from eventlog import (
    EMPTY_CONVERSATION,
    Event,
    ReadOnlyPayload,
    apply_event,
    messages_of,
    replay_events,
)


def _events(*specs: tuple[str, dict[str, Any]]) -> list[Event]:
    return [Event(i, "s", kind, ReadOnlyPayload(body)) for i, (kind, body) in enumerate(specs, 1)]


def _call(call_id: str) -> tuple[str, dict[str, Any]]:
    return ("tool_call", {"call_id": call_id, "name": "lookup", "arguments": "{}"})


def _wire_call(call_id: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": "lookup", "arguments": "{}"}}


def test_the_chapter_conversation_replays_to_six_chat_messages() -> None:
    events = _events(
        ("user_message", {"content": "hello"}),
        ("assistant_message", {"content": "hi"}),
        ("user_message", {"content": "orders?"}),
        _call("call_1"),
        ("tool_result", {"call_id": "call_1", "content": "42"}),
        ("assistant_message", {"content": "You have 42 orders."}),
    )
    assert replay_events(events) == [
        {"role": "user", "content": "hello"},
        {"role": "assistant", "content": "hi"},
        {"role": "user", "content": "orders?"},
        {"role": "assistant", "content": None, "tool_calls": [_wire_call("call_1")]},
        {"role": "tool", "tool_call_id": "call_1", "content": "42"},
        {"role": "assistant", "content": "You have 42 orders."},
    ]


def test_consecutive_tool_calls_share_one_message_and_an_interruption_starts_another() -> None:
    events = _events(
        _call("a"),
        _call("b"),
        ("tool_result", {"call_id": "a", "content": "1"}),
        _call("c"),
    )
    messages = replay_events(events)
    assert [m.get("tool_calls") for m in messages] == [
        [_wire_call("a"), _wire_call("b")],
        None,
        [_wire_call("c")],
    ]


def test_folding_leaves_the_earlier_conversation_untouched() -> None:
    first, second = _events(_call("a"), _call("b"))
    before = apply_event(EMPTY_CONVERSATION, first)
    snapshot = repr(before)
    after = apply_event(before, second)
    assert repr(before) == snapshot
    assert len(messages_of(before)) == len(messages_of(after)) == 1


def test_an_empty_session_replays_to_no_messages() -> None:
    assert replay_events([]) == []


def test_an_unknown_event_type_cannot_be_folded() -> None:
    with pytest.raises(ValueError, match="unknown type"):
        apply_event(EMPTY_CONVERSATION, Event(1, "s", "note", ReadOnlyPayload({})))
