"""The id is drawn from a counter shared by a log and its descendants before the input is
validated, so a refused append leaves a gap in the ids.

A copy of correct/c08_frozen_dict_log.py with that one change.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

BREAKS_TASK = "append_and_ids"
BASED_ON = "c08_frozen_dict_log"

REQUIRED = {
    "user_message": {"content": False},
    "assistant_message": {"content": False},
    "tool_call": {"call_id": True, "name": True, "arguments": False},
    "tool_result": {"call_id": True, "content": False},
}


@dataclass(frozen=True)
class Event:
    event_id: int
    session_id: str
    type: str
    data: dict[str, Any]

    @property
    def payload(self) -> dict[str, Any]:
        return copy.deepcopy(self.data)


@dataclass(frozen=True)
class EventLog:
    sessions: dict[str, tuple[Event, ...]] = field(default_factory=dict)
    ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))


def create_event_log() -> EventLog:
    """Return an empty log."""
    return EventLog()


def _validate(log: EventLog, session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in REQUIRED:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for key, non_empty in REQUIRED[event_type].items():
        if not isinstance(payload.get(key), str) or (non_empty and not payload[key]):
            raise ValueError(f"payload[{key!r}] must be a {'non-empty ' * non_empty}string")
    if event_type in ("tool_call", "tool_result"):
        call_id = payload["call_id"]
        history = [
            e.type
            for e in log.sessions.get(session_id, ())
            if e.type in ("tool_call", "tool_result") and e.data["call_id"] == call_id
        ]
        if event_type == "tool_call" and history:
            raise ValueError(f"call_id {call_id!r} already used in this session")
        if event_type == "tool_result" and history != ["tool_call"]:
            raise ValueError(f"call_id {call_id!r} has no open call in this session")


def append_event(
    log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]
) -> tuple[EventLog, Event]:
    """Return ``(new_log, event)``; raise ValueError and append nothing on bad input."""
    event_id = next(log.ids)
    _validate(log, session_id, event_type, payload)
    event = Event(event_id, session_id, event_type, copy.deepcopy(dict(payload)))
    sessions = dict(log.sessions)
    sessions[session_id] = (*sessions.get(session_id, ()), event)
    return EventLog(sessions, log.ids), event


def get_events_for_session(
    log: EventLog, session_id: str, after_event_id: int = 0
) -> tuple[Event, ...]:
    """Return the session's events with ``event_id > after_event_id``, oldest first."""
    return tuple(e for e in log.sessions.get(session_id, ()) if e.event_id > after_event_id)


def list_sessions(log: EventLog) -> tuple[str, ...]:
    """Return each session id once, in the order of its first event."""
    return tuple(log.sessions)


def replay_session(log: EventLog, session_id: str) -> list[dict[str, Any]]:
    """Return the session as Chat Completions messages, built fresh on every call."""
    messages: list[dict[str, Any]] = []
    in_call_run = False
    for event in get_events_for_session(log, session_id):
        p = event.payload
        if event.type == "tool_call":
            function = {"name": p["name"], "arguments": p["arguments"]}
            call = {"id": p["call_id"], "type": "function", "function": function}
            if not in_call_run:
                messages.append({"role": "assistant", "content": None, "tool_calls": []})
            messages[-1]["tool_calls"].append(call)
        elif event.type == "tool_result":
            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        else:
            role = {"user_message": "user", "assistant_message": "assistant"}[event.type]
            messages.append({"role": role, "content": p["content"]})
        in_call_run = event.type == "tool_call"
    return messages
