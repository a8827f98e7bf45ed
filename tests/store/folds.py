"""What the projections must hold, folded in plain Python from a session's events."""

from __future__ import annotations

from collections.abc import Iterable

from sqlite_demo import MessageRow, StoredEvent, ToolCallRow

_ROLES = {"user_message": "user", "assistant_message": "assistant"}


def expected_messages(events: Iterable[StoredEvent]) -> list[MessageRow]:
    """One row per user or assistant message event, in event order."""
    return [
        MessageRow(event.event_id, _ROLES[event.type], event.payload["content"])
        for event in events
        if event.type in _ROLES
    ]


def expected_tool_calls(events: Iterable[StoredEvent]) -> list[ToolCallRow]:
    """One row per tool_call event, in event order, with the content of its tool_result."""
    events = list(events)
    results = {
        event.payload["call_id"]: event.payload["content"]
        for event in events
        if event.type == "tool_result"
    }
    return [
        ToolCallRow(
            event.event_id,
            event.payload["call_id"],
            event.payload["name"],
            event.payload["arguments"],
            results.get(event.payload["call_id"]),
        )
        for event in events
        if event.type == "tool_call"
    ]
