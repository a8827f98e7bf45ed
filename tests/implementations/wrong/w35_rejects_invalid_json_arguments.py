"""tool_call arguments that are not valid JSON are rejected, though they must be stored as given.

A copy of correct/c01_namedtuple_events.py with that one change.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

BREAKS_TASK = "reject_bad_input"
BASED_ON = "c01_namedtuple_events"

# Required keys per event type, and whether each must be non-empty.
REQUIRED = {
    "user_message": {"content": False},
    "assistant_message": {"content": False},
    "tool_call": {"call_id": True, "name": True, "arguments": False},
    "tool_result": {"call_id": True, "content": False},
}


class FrozenPayload(Mapping[str, Any]):
    """A mapping readers cannot change: every read returns a deep copy of the stored value."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data = copy.deepcopy(dict(data))

    def __getitem__(self, key: str) -> Any:
        return copy.deepcopy(self._data[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


class Event(NamedTuple):
    event_id: int
    session_id: str
    type: str
    payload: FrozenPayload


class EventLog(NamedTuple):
    events: tuple[Event, ...] = ()


def create_event_log() -> EventLog:
    """Return an empty log."""
    return EventLog()


def _validate(session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in REQUIRED:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for key, non_empty in REQUIRED[event_type].items():
        if key not in payload or not isinstance(payload[key], str):
            raise ValueError(f"payload[{key!r}] must be a string")
        if non_empty and not payload[key]:
            raise ValueError(f"payload[{key!r}] must not be empty")
    if event_type == "tool_call":
        json.loads(payload["arguments"])  # raises JSONDecodeError, a ValueError


def _check_call_id(log: EventLog, session_id: str, event_type: str, call_id: str) -> None:
    same_call = [
        event.type
        for event in log.events
        if event.session_id == session_id
        and event.type in ("tool_call", "tool_result")
        and event.payload["call_id"] == call_id
    ]
    if event_type == "tool_call" and same_call:
        raise ValueError(f"call_id {call_id!r} already used in this session")
    if event_type == "tool_result" and same_call != ["tool_call"]:
        raise ValueError(f"call_id {call_id!r} is not an open call in this session")


def append_event(
    log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]
) -> tuple[EventLog, Event]:
    """Return ``(new_log, event)``; raise ValueError and append nothing on bad input."""
    _validate(session_id, event_type, payload)
    if event_type in ("tool_call", "tool_result"):
        _check_call_id(log, session_id, event_type, payload["call_id"])
    event = Event(len(log.events) + 1, session_id, event_type, FrozenPayload(payload))
    return EventLog((*log.events, event)), event


def get_events_for_session(
    log: EventLog, session_id: str, after_event_id: int = 0
) -> tuple[Event, ...]:
    """Return the session's events with ``event_id > after_event_id``, oldest first."""
    return tuple(
        e for e in log.events if e.session_id == session_id and e.event_id > after_event_id
    )


def list_sessions(log: EventLog) -> tuple[str, ...]:
    """Return each session id once, in the order of its first event."""
    return tuple(dict.fromkeys(e.session_id for e in log.events))


def _message(event: Event) -> dict[str, Any]:
    p = event.payload
    if event.type == "user_message":
        return {"role": "user", "content": p["content"]}
    if event.type == "assistant_message":
        return {"role": "assistant", "content": p["content"]}
    if event.type == "tool_result":
        return {"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]}
    return {"role": "assistant", "content": None, "tool_calls": [_call(event)]}


def _call(event: Event) -> dict[str, Any]:
    p = event.payload
    function = {"name": p["name"], "arguments": p["arguments"]}
    return {"id": p["call_id"], "type": "function", "function": function}


def replay_session(log: EventLog, session_id: str) -> list[dict[str, Any]]:
    """Return the session as Chat Completions messages, built fresh on every call."""
    messages: list[dict[str, Any]] = []
    previous_type = None
    for event in get_events_for_session(log, session_id):
        if event.type == "tool_call" and previous_type == "tool_call":
            messages[-1]["tool_calls"].append(_call(event))
        else:
            messages.append(_message(event))
        previous_type = event.type
    return messages
