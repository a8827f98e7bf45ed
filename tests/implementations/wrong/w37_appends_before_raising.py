"""A refused tool event stays on the log's list: the ValueError is raised, but the event was
appended anyway.

A copy of correct/c06_lists_everywhere.py with that one change.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

BREAKS_TASK = "reject_bad_input"
BASED_ON = "c06_lists_everywhere"

FIELDS = {
    "user_message": [("content", False)],
    "assistant_message": [("content", False)],
    "tool_call": [("call_id", True), ("name", True), ("arguments", False)],
    "tool_result": [("call_id", True), ("content", False)],
}


@dataclass(frozen=True)
class Event:
    event_id: int
    session_id: str
    type: str
    _payload: dict[str, Any]

    @property
    def payload(self) -> dict[str, Any]:
        return copy.deepcopy(self._payload)


@dataclass(frozen=True)
class EventLog:
    events: list[Event] = field(default_factory=list)


def create_event_log() -> EventLog:
    """Return an empty log."""
    return EventLog()


def _check_fields(session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in FIELDS:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or session_id == "":
        raise ValueError("session_id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for key, non_empty in FIELDS[event_type]:
        if not isinstance(payload.get(key), str) or (non_empty and payload[key] == ""):
            raise ValueError(f"payload[{key!r}] is missing or not a valid string")


def _calls_pair_up(session_events: list[Event]) -> bool:
    used: set[str] = set()
    open_calls: set[str] = set()
    for event in session_events:
        call_id = event.payload.get("call_id")
        if event.type == "tool_call":
            if call_id in used:
                return False
            used.add(call_id)
            open_calls.add(call_id)
        elif event.type == "tool_result":
            if call_id not in open_calls:
                return False
            open_calls.remove(call_id)
    return True


def append_event(
    log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]
) -> tuple[EventLog, Event]:
    """Return ``(new_log, event)``; raise ValueError and append nothing on bad input."""
    _check_fields(session_id, event_type, payload)
    event = Event(len(log.events) + 1, session_id, event_type, copy.deepcopy(dict(payload)))
    log.events.append(event)
    if not _calls_pair_up(get_events_for_session(log, session_id)):
        raise ValueError("call ids of this session would no longer pair up")
    log.events.pop()
    return EventLog([*log.events, event]), event


def get_events_for_session(log: EventLog, session_id: str, after_event_id: int = 0) -> list[Event]:
    """Return the session's events with ``event_id > after_event_id``, oldest first."""
    return [e for e in log.events if e.session_id == session_id and e.event_id > after_event_id]


def list_sessions(log: EventLog) -> list[str]:
    """Return each session id once, in the order of its first event."""
    return list(dict.fromkeys(e.session_id for e in log.events))


def _new_message(event: Event) -> dict[str, Any]:
    p = event.payload
    if event.type == "tool_call":
        return {"role": "assistant", "content": None, "tool_calls": []}
    if event.type == "tool_result":
        return {"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]}
    role = "user" if event.type == "user_message" else "assistant"
    return {"role": role, "content": p["content"]}


def replay_session(log: EventLog, session_id: str) -> list[dict[str, Any]]:
    """Return the session as Chat Completions messages, built fresh on every call."""
    messages: list[dict[str, Any]] = []
    previous_type = None
    for event in get_events_for_session(log, session_id):
        if not (event.type == "tool_call" == previous_type):
            messages.append(_new_message(event))
        if event.type == "tool_call":
            p = event.payload
            function = {"name": p["name"], "arguments": p["arguments"]}
            messages[-1]["tool_calls"].append(
                {"id": p["call_id"], "type": "function", "function": function}
            )
        previous_type = event.type
    return messages
