"""The replay fold: each event type's message, how consecutive tool calls join, and the view
that reads a conversation from its newest end."""

from __future__ import annotations

import json
from typing import Any

import pytest

from eventlog import (
    EMPTY_CONVERSATION,
    ConversationView,
    Event,
    ReadOnlyPayload,
    apply_event,
    messages_of,
    replay_events,
)


def _events(*specs: tuple[str, dict[str, Any]]) -> list[Event]:
    return [
        Event(i, "s", kind, ReadOnlyPayload(json.dumps(body)))
        for i, (kind, body) in enumerate(specs, 1)
    ]


def _call(call_id: str) -> tuple[str, dict[str, Any]]:
    return ("tool_call", {"call_id": call_id, "name": "lookup", "arguments": "{}"})


def _wire_call(call_id: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": "lookup", "arguments": "{}"}}


def _said(*texts: str) -> ConversationView:
    events = _events(*(("user_message", {"content": text}) for text in texts))
    conversation = EMPTY_CONVERSATION
    for event in events:
        conversation = apply_event(conversation, event)
    return ConversationView(conversation)


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
        apply_event(EMPTY_CONVERSATION, Event(1, "s", "note", ReadOnlyPayload("{}")))


def test_a_conversation_view_reads_like_the_list_of_its_messages() -> None:
    view = _said("a", "b", "c")
    as_list = [{"role": "user", "content": text} for text in "abc"]
    assert list(view) == as_list
    assert list(reversed(view)) == as_list[::-1]
    assert (len(view), view[0], view[-1], view[-3], view[1:]) == (
        3,
        as_list[0],
        as_list[-1],
        as_list[0],
        as_list[1:],
    )
    assert bool(view) and not ConversationView(EMPTY_CONVERSATION)


@pytest.mark.parametrize("index", [3, -4])
def test_a_conversation_view_refuses_an_index_past_either_end(index: int) -> None:
    with pytest.raises(IndexError):
        _said("a", "b", "c")[index]


def test_reading_a_view_from_its_newest_end_never_walks_further_than_asked() -> None:
    # A chain whose oldest link explodes when touched: the newest-end reads must not reach it.
    class Tripwire(tuple[dict[str, Any], None]):
        def __iter__(self) -> Any:
            raise AssertionError("the whole conversation was walked")

    newest = ({"role": "user", "content": "new"}, Tripwire(({"role": "user"}, None)))
    view = ConversationView(newest)  # type: ignore[arg-type]
    assert view[-1] == {"role": "user", "content": "new"}
    assert next(reversed(view)) == view[-1]
    assert view
