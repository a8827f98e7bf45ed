"""content is never type-checked, so a content that is not a string (None, 5) is accepted.

A copy of correct/c05_own_error.py with that one change.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

BREAKS_TASK = "reject_bad_input"
BASED_ON = "c05_own_error"

EVENT_TYPES = ("user_message", "assistant_message", "tool_call", "tool_result")
REQUIRED_KEYS = {
    "user_message": ("content",),
    "assistant_message": ("content",),
    "tool_call": ("call_id", "name", "arguments"),
    "tool_result": ("call_id", "content"),
}
NON_EMPTY_KEYS = frozenset({"call_id", "name"})
TOOL_TYPES = ("tool_call", "tool_result")


class EventRejected(ValueError):
    """The append was refused; the log is unchanged."""


class Payload(Mapping[str, Any]):
    """A read-only mapping: copied in, and every value copied out."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data = copy.deepcopy(dict(data))

    def __getitem__(self, key: str) -> Any:
        return copy.deepcopy(self._data[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


@dataclass(frozen=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload: Payload


@dataclass(frozen=True)
class EventLog:
    events: tuple[Event, ...] = ()


def create_event_log() -> EventLog:
    """Return an empty log."""
    return EventLog()


def _check_event_type(event_type: Any) -> None:
    if event_type not in EVENT_TYPES:
        raise EventRejected(f"unknown event type {event_type!r}")


def _check_session_id(session_id: Any) -> None:
    if not isinstance(session_id, str):
        raise EventRejected("session_id must be a string")
    if not session_id:
        raise EventRejected("session_id must not be empty")


def _check_payload(event_type: str, payload: Any) -> None:
    if not isinstance(payload, Mapping):
        raise EventRejected("payload must be a mapping")
    for key in REQUIRED_KEYS[event_type]:
        if key not in payload:
            raise EventRejected(f"{event_type} payload needs {key!r}")
        if key != "content" and not isinstance(payload[key], str):
            raise EventRejected(f"payload[{key!r}] must be a string")
        if key in NON_EMPTY_KEYS and not payload[key]:
            raise EventRejected(f"payload[{key!r}] must not be empty")


def _check_call_id(log: EventLog, session_id: str, event_type: str, call_id: str) -> None:
    seen = [
        e.type
        for e in log.events
        if e.session_id == session_id and e.type in TOOL_TYPES and e.payload["call_id"] == call_id
    ]
    if event_type == "tool_call" and "tool_call" in seen:
        raise EventRejected(f"call_id {call_id!r} already used in this session")
    if event_type == "tool_result" and "tool_call" not in seen:
        raise EventRejected(f"call_id {call_id!r} was never called in this session")
    if event_type == "tool_result" and "tool_result" in seen:
        raise EventRejected(f"call_id {call_id!r} already has a result")


def append_event(
    log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]
) -> tuple[EventLog, Event]:
    """Return ``(new_log, event)``; raise EventRejected and append nothing on bad input."""
    _check_event_type(event_type)
    _check_session_id(session_id)
    _check_payload(event_type, payload)
    if event_type in TOOL_TYPES:
        _check_call_id(log, session_id, event_type, payload["call_id"])
    event = Event(len(log.events) + 1, session_id, event_type, Payload(payload))
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


def replay_session(log: EventLog, session_id: str) -> list[dict[str, Any]]:
    """Return the session as Chat Completions messages, built fresh on every call."""
    messages: list[dict[str, Any]] = []
    collecting: dict[str, Any] | None = None  # the assistant message gathering a run of calls
    for event in get_events_for_session(log, session_id):
        p = event.payload
        if event.type == "tool_call":
            call = {"id": p["call_id"], "type": "function"}
            call["function"] = {"name": p["name"], "arguments": p["arguments"]}
            if collecting is None:
                collecting = {"role": "assistant", "content": None, "tool_calls": []}
                messages.append(collecting)
            collecting["tool_calls"].append(call)
            continue
        collecting = None
        if event.type == "tool_result":
            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        else:
            role = "user" if event.type == "user_message" else "assistant"
            messages.append({"role": role, "content": p["content"]})
    return messages
