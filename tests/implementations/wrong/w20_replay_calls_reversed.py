"""Merged tool calls are listed newest first instead of in event order.

A copy of correct/c03_json_payload.py with that one change.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

BREAKS_TASK = "replay"
BASED_ON = "c03_json_payload"

SCHEMA = {
    "user_message": {"content": "may be empty"},
    "assistant_message": {"content": "may be empty"},
    "tool_call": {"call_id": "non-empty", "name": "non-empty", "arguments": "may be empty"},
    "tool_result": {"call_id": "non-empty", "content": "may be empty"},
}


@dataclass(frozen=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload_json: str

    @property
    def payload(self) -> dict[str, Any]:
        # Parsing builds new objects each time, so no reader can reach the stored text.
        return json.loads(self.payload_json)


@dataclass(frozen=True)
class EventLog:
    events: tuple[Event, ...] = ()


def create_event_log() -> EventLog:
    """Return an empty log."""
    return EventLog()


def _to_json(payload: Mapping[str, Any]) -> str:
    if not all(isinstance(key, str) for key in payload):
        raise ValueError("payload keys must be strings")
    try:
        return json.dumps(dict(payload), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise ValueError(f"payload cannot be stored as JSON: {error}") from None


def _validate(log: EventLog, session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in SCHEMA:
        raise ValueError(f"unknown event type {event_type!r}")
    if not (isinstance(session_id, str) and session_id):
        raise ValueError("session_id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for key, rule in SCHEMA[event_type].items():
        value = payload.get(key)
        if not isinstance(value, str) or (rule == "non-empty" and not value):
            raise ValueError(f"payload[{key!r}] must be a string ({rule})")
    if event_type in ("tool_call", "tool_result"):
        _check_call_id(log, session_id, event_type, payload["call_id"])


def _check_call_id(log: EventLog, session_id: str, event_type: str, call_id: str) -> None:
    called = answered = False
    for event in get_events_for_session(log, session_id):
        if event.type in ("tool_call", "tool_result") and event.payload["call_id"] == call_id:
            called = called or event.type == "tool_call"
            answered = answered or event.type == "tool_result"
    if event_type == "tool_call" and called:
        raise ValueError(f"call_id {call_id!r} already used in this session")
    if event_type == "tool_result" and (not called or answered):
        raise ValueError(f"no open call {call_id!r} in this session")


def append_event(
    log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]
) -> tuple[EventLog, Event]:
    """Return ``(new_log, event)``; raise ValueError and append nothing on bad input."""
    _validate(log, session_id, event_type, payload)
    event = Event(len(log.events) + 1, session_id, event_type, _to_json(payload))
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
    events = get_events_for_session(log, session_id)
    for index, event in enumerate(events):
        p = event.payload
        if event.type == "tool_call":
            call = {"id": p["call_id"], "type": "function"}
            call["function"] = {"name": p["name"], "arguments": p["arguments"]}
            if index > 0 and events[index - 1].type == "tool_call":
                messages[-1]["tool_calls"].insert(0, call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif event.type == "tool_result":
            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        elif event.type == "user_message":
            messages.append({"role": "user", "content": p["content"]})
        else:
            messages.append({"role": "assistant", "content": p["content"]})
    return messages
