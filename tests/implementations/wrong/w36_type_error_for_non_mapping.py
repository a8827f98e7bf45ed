"""A payload that is not a mapping raises TypeError, which is not a ValueError.

A copy of correct/c04_mappingproxy.py with that one change.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

BREAKS_TASK = "reject_bad_input"
BASED_ON = "c04_mappingproxy"

REQUIRED = {
    "user_message": ["content"],
    "assistant_message": ["content"],
    "tool_call": ["call_id", "name", "arguments"],
    "tool_result": ["call_id", "content"],
}
MUST_NOT_BE_EMPTY = {"call_id", "name"}


@dataclass(frozen=True, slots=True)
class Event:
    event_id: int
    session_id: str
    type: str
    stored_payload: MappingProxyType[str, Any]

    @property
    def payload(self) -> MappingProxyType[str, Any]:
        return MappingProxyType(copy.deepcopy(dict(self.stored_payload)))


@dataclass(frozen=True, slots=True)
class EventLog:
    events: tuple[Event, ...] = ()


def create_event_log() -> EventLog:
    """Return an empty log."""
    return EventLog()


def _require_text(payload: Mapping[str, Any], key: str) -> None:
    if key not in payload:
        raise ValueError(f"payload is missing {key!r}")
    if not isinstance(payload[key], str):
        raise ValueError(f"payload[{key!r}] must be a string")
    if key in MUST_NOT_BE_EMPTY and not payload[key]:
        raise ValueError(f"payload[{key!r}] must not be empty")


def _call_history(log: EventLog, session_id: str, call_id: str) -> list[str]:
    return [
        e.type
        for e in log.events
        if e.session_id == session_id
        and e.type in ("tool_call", "tool_result")
        and e.stored_payload["call_id"] == call_id
    ]


def append_event(
    log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]
) -> tuple[EventLog, Event]:
    """Return ``(new_log, event)``; raise ValueError and append nothing on bad input."""
    if not isinstance(event_type, str) or event_type not in REQUIRED:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise TypeError("payload must be a mapping")
    for key in REQUIRED[event_type]:
        _require_text(payload, key)
    if event_type in ("tool_call", "tool_result"):
        history = _call_history(log, session_id, payload["call_id"])
        if event_type == "tool_call" and history:
            raise ValueError("call_id already used in this session")
        if event_type == "tool_result" and history != ["tool_call"]:
            raise ValueError("tool_result needs an open tool_call in this session")
    stored = MappingProxyType(copy.deepcopy(dict(payload)))
    event = Event(len(log.events) + 1, session_id, event_type, stored)
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
    last_type = None
    for event in get_events_for_session(log, session_id):
        p = event.payload
        if event.type == "user_message":
            messages.append({"role": "user", "content": p["content"]})
        elif event.type == "assistant_message":
            messages.append({"role": "assistant", "content": p["content"]})
        elif event.type == "tool_result":
            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        else:
            function = {"name": p["name"], "arguments": p["arguments"]}
            call = {"id": p["call_id"], "type": "function", "function": function}
            if last_type == "tool_call":
                messages[-1]["tool_calls"].append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        last_type = event.type
    return messages
