"""The resume filter drops the session's events only while they lead the whole log, so
after_event_id is ignored for a session whose first event is not the log's first.

A copy of correct/c10_functional_reduce.py with that one change.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from functools import reduce
from itertools import dropwhile
from typing import Any

BREAKS_TASK = "read_and_resume"
BASED_ON = "c10_functional_reduce"

SPEC = {
    "user_message": {"content": False},
    "assistant_message": {"content": False},
    "tool_call": {"call_id": True, "name": True, "arguments": False},
    "tool_result": {"call_id": True, "content": False},
}
TOOL_TYPES = frozenset({"tool_call", "tool_result"})


@dataclass(frozen=True)
class Event:
    event_id: int
    session_id: str
    type: str
    snapshot: dict[str, Any]

    @property
    def payload(self) -> dict[str, Any]:
        return copy.deepcopy(self.snapshot)


@dataclass(frozen=True)
class EventLog:
    events: tuple[Event, ...] = ()


def create_event_log() -> EventLog:
    """Return an empty log."""
    return EventLog()


def _field_ok(payload: Mapping[str, Any], key: str, non_empty: bool) -> bool:
    value = payload.get(key)
    return isinstance(value, str) and (bool(value) or not non_empty)


def _call_state(events: tuple[Event, ...], call_id: str) -> str:
    def step(state: str, event: Event) -> str:
        if event.type in TOOL_TYPES and event.snapshot["call_id"] == call_id:
            return "open" if event.type == "tool_call" else "answered"
        return state

    return reduce(step, events, "unused")


def append_event(
    log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]
) -> tuple[EventLog, Event]:
    """Return ``(new_log, event)``; raise ValueError and append nothing on bad input."""
    if not isinstance(event_type, str) or event_type not in SPEC:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    if not all(_field_ok(payload, key, ne) for key, ne in SPEC[event_type].items()):
        raise ValueError(f"payload does not fit {event_type}: {sorted(SPEC[event_type])}")
    if event_type in TOOL_TYPES:
        state = _call_state(get_events_for_session(log, session_id), payload["call_id"])
        if state != ("unused" if event_type == "tool_call" else "open"):
            raise ValueError(f"call_id {payload['call_id']!r} is {state} in this session")
    event = Event(len(log.events) + 1, session_id, event_type, copy.deepcopy(dict(payload)))
    return EventLog((*log.events, event)), event


def get_events_for_session(
    log: EventLog, session_id: str, after_event_id: int = 0
) -> tuple[Event, ...]:
    """Return the session's events with ``event_id > after_event_id``, oldest first."""
    # Ids grow along the log, so everything up to the resume point is one prefix.
    later = dropwhile(
        lambda e: e.session_id == session_id and e.event_id <= after_event_id, log.events
    )
    return tuple(e for e in later if e.session_id == session_id)


def list_sessions(log: EventLog) -> tuple[str, ...]:
    """Return each session id once, in the order of its first event."""
    return reduce(
        lambda seen, e: seen if e.session_id in seen else (*seen, e.session_id), log.events, ()
    )


def _apply(messages: tuple[dict[str, Any], ...], event: Event) -> tuple[dict[str, Any], ...]:
    p = event.payload
    if event.type == "user_message":
        return (*messages, {"role": "user", "content": p["content"]})
    if event.type == "assistant_message":
        return (*messages, {"role": "assistant", "content": p["content"]})
    if event.type == "tool_result":
        return (*messages, {"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
    function = {"name": p["name"], "arguments": p["arguments"]}
    call = {"id": p["call_id"], "type": "function", "function": function}
    if messages and "tool_calls" in messages[-1]:
        last = messages[-1]
        return (*messages[:-1], {**last, "tool_calls": [*last["tool_calls"], call]})
    return (*messages, {"role": "assistant", "content": None, "tool_calls": [call]})


def replay_session(log: EventLog, session_id: str) -> list[dict[str, Any]]:
    """Return the session as Chat Completions messages, built fresh on every call."""
    return list(reduce(_apply, get_events_for_session(log, session_id), ()))
