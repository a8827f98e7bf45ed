"""Reads match session ids by prefix, so reading session "a" also returns session "ab".

A copy of correct/c09_cons_list.py with that one change.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

BREAKS_TASK = "read_and_resume"
BASED_ON = "c09_cons_list"

RULES = {
    "user_message": (("content", False),),
    "assistant_message": (("content", False),),
    "tool_call": (("call_id", True), ("name", True), ("arguments", False)),
    "tool_result": (("call_id", True), ("content", False)),
}


@dataclass(frozen=True, slots=True)
class Event:
    event_id: int
    session_id: str
    type: str
    body: dict[str, Any]

    @property
    def payload(self) -> Mapping[str, Any]:
        return MappingProxyType(copy.deepcopy(self.body))


@dataclass(frozen=True, slots=True)
class Cell:
    event: Event
    rest: Cell | None


EventLog = Cell | None


def create_event_log() -> EventLog:
    """Return an empty log: the empty list, ``None``."""
    return None


def _newest_first(log: EventLog) -> list[Event]:
    events = []
    while log is not None:
        events.append(log.event)
        log = log.rest
    return events


def _reject_bad_input(log: EventLog, session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in RULES:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for key, non_empty in RULES[event_type]:
        if not isinstance(payload.get(key), str) or (non_empty and not payload[key]):
            raise ValueError(f"payload[{key!r}] is missing, not a string, or empty")
    if event_type not in ("tool_call", "tool_result"):
        return
    same_call = [
        e.type
        for e in _newest_first(log)
        if e.session_id == session_id
        and e.type in ("tool_call", "tool_result")
        and e.body["call_id"] == payload["call_id"]
    ]
    expected = [] if event_type == "tool_call" else ["tool_call"]
    if same_call != expected:
        raise ValueError(f"call_id {payload['call_id']!r} does not fit this session")


def append_event(
    log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]
) -> tuple[EventLog, Event]:
    """Return ``(new_log, event)``; raise ValueError and append nothing on bad input."""
    _reject_bad_input(log, session_id, event_type, payload)
    event_id = 1 if log is None else log.event.event_id + 1
    event = Event(event_id, session_id, event_type, copy.deepcopy(dict(payload)))
    return Cell(event, log), event


def get_events_for_session(
    log: EventLog, session_id: str, after_event_id: int = 0
) -> tuple[Event, ...]:
    """Return the session's events with ``event_id > after_event_id``, oldest first."""
    found = []
    # Newest first, so the walk can stop at the first id that is not after the resume point.
    while log is not None and log.event.event_id > after_event_id:
        if log.event.session_id.startswith(session_id):
            found.append(log.event)
        log = log.rest
    return tuple(reversed(found))


def list_sessions(log: EventLog) -> tuple[str, ...]:
    """Return each session id once, in the order of its first event."""
    return tuple(dict.fromkeys(e.session_id for e in reversed(_newest_first(log))))


def replay_session(log: EventLog, session_id: str) -> list[dict[str, Any]]:
    """Return the session as Chat Completions messages, built fresh on every call."""
    messages: list[dict[str, Any]] = []
    for event in reversed(_newest_first(log)):
        if event.session_id != session_id:
            continue
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
            if messages and "tool_calls" in messages[-1]:
                messages[-1]["tool_calls"].append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
    return messages
