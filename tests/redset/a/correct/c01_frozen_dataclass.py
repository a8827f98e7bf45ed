"""Correct: frozen dataclasses, a tuple of events, a payload frozen all the way down.

Validation is one ``match`` on the event type; the payload copy turns every mapping into a
``MappingProxyType`` over a new dict and every list or tuple into a new tuple, so neither the
writer nor a reader can reach what the log holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

KINDS = ("user_message", "assistant_message", "tool_call", "tool_result")


@dataclass(frozen=True, slots=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Log:
    events: tuple[Event, ...] = ()


def create_event_log() -> Log:
    return Log()


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({key: _frozen(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(item) for item in value)
    return value


def _text(payload: Mapping[str, Any], key: str, *, non_empty: bool = False) -> str:
    if key not in payload or not isinstance(payload[key], str):
        raise ValueError(f"payload[{key!r}] must be a string")
    if non_empty and not payload[key]:
        raise ValueError(f"payload[{key!r}] must not be empty")
    return payload[key]


def _call_state(log: Log, session_id: str, call_id: str) -> str | None:
    state = None
    for event in log.events:
        if event.session_id == session_id and event.type in ("tool_call", "tool_result"):
            if event.payload["call_id"] == call_id:
                state = event.type
    return state


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]):
    if not any(event_type == kind for kind in KINDS) or not isinstance(event_type, str):
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or session_id == "":
        raise ValueError("session_id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    match event_type:
        case "user_message" | "assistant_message":
            _text(payload, "content")
        case "tool_call":
            call_id = _text(payload, "call_id", non_empty=True)
            _text(payload, "name", non_empty=True)
            _text(payload, "arguments")
            if _call_state(log, session_id, call_id) is not None:
                raise ValueError(f"call id {call_id!r} already used")
        case "tool_result":
            call_id = _text(payload, "call_id", non_empty=True)
            _text(payload, "content")
            if _call_state(log, session_id, call_id) != "tool_call":
                raise ValueError(f"no open call {call_id!r}")
    event = Event(len(log.events) + 1, session_id, event_type, _frozen(payload))
    return Log(log.events + (event,)), event


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0):
    return tuple(
        e for e in log.events if e.session_id == session_id and e.event_id > after_event_id
    )


def list_sessions(log: Log):
    seen: dict[str, None] = {}
    for event in log.events:
        seen.setdefault(event.session_id, None)
    return tuple(seen)


def replay_session(log: Log, session_id: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    calls_open = False
    for event in get_events_for_session(log, session_id):
        p = event.payload
        if event.type == "tool_call":
            call = {
                "id": p["call_id"],
                "type": "function",
                "function": {"name": p["name"], "arguments": p["arguments"]},
            }
            if calls_open:
                messages[-1]["tool_calls"].append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
            calls_open = True
            continue
        calls_open = False
        if event.type == "tool_result":
            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        else:
            role = "user" if event.type == "user_message" else "assistant"
            messages.append({"role": role, "content": p["content"]})
    return messages
