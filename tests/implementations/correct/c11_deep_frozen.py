"""Payloads and replayed messages are frozen all the way down: read-only mappings and tuples.

Nothing a reader gets can be changed at all, at any depth: a ``types.MappingProxyType`` over
dicts that are themselves frozen, and tuples where lists were.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

NEEDS = {
    "user_message": {"content": str},
    "assistant_message": {"content": str},
    "tool_call": {"call_id": str, "name": str, "arguments": str},
    "tool_result": {"call_id": str, "content": str},
}
NON_EMPTY = ("call_id", "name")


@dataclass(frozen=True, slots=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload_items: tuple[tuple[str, Any], ...]

    @property
    def payload(self) -> Mapping[str, Any]:
        return freeze(dict(self.payload_items))


def freeze(value: Any) -> Any:
    """A read-only copy of ``value``: dicts become read-only mappings, lists tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: freeze(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    return value


EventLog = tuple[Event, ...]


def create_event_log() -> EventLog:
    """Return an empty log: the empty tuple."""
    return ()


def _valid_payload(event_type: str, payload: Any) -> bool:
    if not isinstance(payload, Mapping):
        return False
    for key, kind in NEEDS[event_type].items():
        if not isinstance(payload.get(key), kind):
            return False
        if key in NON_EMPTY and not payload[key]:
            return False
    return True


def _call_id_fits(log: EventLog, session_id: str, event_type: str, call_id: str) -> bool:
    earlier = [
        e.type
        for e in log
        if e.session_id == session_id
        and e.type in ("tool_call", "tool_result")
        and e.payload["call_id"] == call_id
    ]
    return earlier == [] if event_type == "tool_call" else earlier == ["tool_call"]


def append_event(
    log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]
) -> tuple[EventLog, Event]:
    """Return ``(new_log, event)``; raise ValueError and append nothing on bad input."""
    if not isinstance(event_type, str) or event_type not in NEEDS:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty string")
    if not _valid_payload(event_type, payload):
        raise ValueError(f"invalid payload for {event_type}")
    tool_event = event_type in ("tool_call", "tool_result")
    if tool_event and not _call_id_fits(log, session_id, event_type, payload["call_id"]):
        raise ValueError(f"call_id {payload['call_id']!r} does not fit this session")
    items = tuple((key, copy.deepcopy(value)) for key, value in payload.items())
    event = Event(len(log) + 1, session_id, event_type, items)
    return (*log, event), event


def get_events_for_session(
    log: EventLog, session_id: str, after_event_id: int = 0
) -> tuple[Event, ...]:
    """Return the session's events with ``event_id > after_event_id``, oldest first."""
    return tuple(e for e in log if e.session_id == session_id and e.event_id > after_event_id)


def list_sessions(log: EventLog) -> tuple[str, ...]:
    """Return each session id once, in the order of its first event."""
    return tuple(dict.fromkeys(e.session_id for e in log))


def replay_session(log: EventLog, session_id: str) -> tuple[dict[str, Any], ...]:
    """Return the session as Chat Completions messages, built fresh on every call."""
    messages: list[dict[str, Any]] = []
    previous = None
    for event in get_events_for_session(log, session_id):
        p = event.payload
        if event.type == "tool_call":
            function = {"name": p["name"], "arguments": p["arguments"]}
            call = {"id": p["call_id"], "type": "function", "function": function}
            if previous == "tool_call":
                messages[-1]["tool_calls"].append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif event.type == "tool_result":
            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        elif event.type == "user_message":
            messages.append({"role": "user", "content": p["content"]})
        else:
            messages.append({"role": "assistant", "content": p["content"]})
        previous = event.type
    return tuple(freeze(message) for message in messages)
