"""Events are a plain class with ``__slots__``; ``payload`` returns a fresh deep copy each time."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

TEXT_KEYS = {
    "user_message": ("content",),
    "assistant_message": ("content",),
    "tool_call": ("call_id", "name", "arguments"),
    "tool_result": ("call_id", "content"),
}
NON_EMPTY_KEYS = ("call_id", "name")


class Event:
    """One appended fact. Read-only properties; the payload is copied in and copied out."""

    __slots__ = ("_event_id", "_payload", "_session_id", "_type")

    def __init__(self, event_id: int, session_id: str, type: str, payload: Mapping[str, Any]):
        self._event_id = event_id
        self._session_id = session_id
        self._type = type
        self._payload = copy.deepcopy(dict(payload))

    @property
    def event_id(self) -> int:
        return self._event_id

    @property
    def session_id(self) -> str:
        return self._session_id

    @property
    def type(self) -> str:
        return self._type

    @property
    def payload(self) -> dict[str, Any]:
        # A fresh copy per read: the reader may change it, the log never sees it.
        return copy.deepcopy(self._payload)


class EventLog:
    """An immutable log: a tuple of events that is never changed after construction."""

    __slots__ = ("_events",)

    def __init__(self, events: tuple[Event, ...] = ()) -> None:
        self._events = events

    @property
    def events(self) -> tuple[Event, ...]:
        return self._events


def create_event_log() -> EventLog:
    """Return an empty log."""
    return EventLog()


def _validate(log: EventLog, session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in TEXT_KEYS:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or session_id == "":
        raise ValueError("session_id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for key in TEXT_KEYS[event_type]:
        if not isinstance(payload.get(key), str):
            raise ValueError(f"payload needs a string {key!r}")
        if key in NON_EMPTY_KEYS and payload[key] == "":
            raise ValueError(f"payload[{key!r}] must not be empty")
    if event_type in ("tool_call", "tool_result"):
        _check_call_id(log, session_id, event_type, payload["call_id"])


def _check_call_id(log: EventLog, session_id: str, event_type: str, call_id: str) -> None:
    history = {
        e.type
        for e in log.events
        if e.session_id == session_id
        and e.type in ("tool_call", "tool_result")
        and e.payload["call_id"] == call_id
    }
    if event_type == "tool_call" and history:
        raise ValueError(f"call_id {call_id!r} already used in this session")
    if event_type == "tool_result" and history != {"tool_call"}:
        raise ValueError(f"no open call {call_id!r} in this session")


def append_event(
    log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]
) -> tuple[EventLog, Event]:
    """Return ``(new_log, event)``; raise ValueError and append nothing on bad input."""
    _validate(log, session_id, event_type, payload)
    event = Event(len(log.events) + 1, session_id, event_type, payload)
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
    seen: list[str] = []
    for event in log.events:
        if event.session_id not in seen:
            seen.append(event.session_id)
    return tuple(seen)


def replay_session(log: EventLog, session_id: str) -> list[dict[str, Any]]:
    """Return the session as Chat Completions messages, built fresh on every call."""
    messages: list[dict[str, Any]] = []
    previous = ""
    for event in get_events_for_session(log, session_id):
        p = event.payload
        if event.type == "tool_call":
            call = {
                "id": p["call_id"],
                "type": "function",
                "function": {"name": p["name"], "arguments": p["arguments"]},
            }
            if previous == "tool_call":
                messages[-1]["tool_calls"].append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif event.type == "tool_result":
            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        else:
            role = "user" if event.type == "user_message" else "assistant"
            messages.append({"role": role, "content": p["content"]})
        previous = event.type
    return messages
