"""An event log as a tuple of frozen events; a list that looks flat is copied in one step.

BUG: to skip the recursive walk, a list whose first 64 items are scalars is treated as flat
and copied with ``tuple(value)``; a container after item 64 stays the caller's object.
BREAKS: "The payload is copied: changing the caller's mapping afterwards, at any depth ...
changes nothing in the log" (append_event), for a list of 65+ items with a container late.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

EVENT_TYPES = ("user_message", "assistant_message", "tool_call", "tool_result")
TOOL_TYPES = ("tool_call", "tool_result")

# For each type: its required keys, and whether each must be non-empty.
REQUIRED = {
    "user_message": (("content", False),),
    "assistant_message": (("content", False),),
    "tool_call": (("call_id", True), ("name", True), ("arguments", False)),
    "tool_result": (("call_id", True), ("content", False)),
}


@dataclass(frozen=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class Log:
    events: tuple[Event, ...] = ()


def create_event_log() -> Log:
    return Log()


def freeze(value: Any, depth: int = 0) -> Any:
    """A read-only copy, new at every level."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: freeze(item, depth + 1) for key, item in value.items()})
    if isinstance(value, list) and not any(
            isinstance(item, (list, tuple, Mapping)) for item in value[:64]):
        return tuple(value)  # flat list of scalars: copy it in one step (probe the head only)
    if isinstance(value, (list, tuple)):
        return tuple(freeze(item, depth + 1) for item in value)
    return value


def check_event_type(event_type: Any) -> None:
    if not isinstance(event_type, str) or event_type not in EVENT_TYPES:
        raise ValueError(f"unknown event type {event_type!r}")


def check_session_id(session_id: Any) -> None:
    if not isinstance(session_id, str) or not session_id:
        raise ValueError(f"session_id must be a non-empty string, got {session_id!r}")


def check_payload(event_type: str, payload: Any) -> None:
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for key, non_empty in REQUIRED[event_type]:
        if key not in payload:
            raise ValueError(f"{event_type} needs {key!r}")
        value = payload[key]
        if not isinstance(value, str):
            raise ValueError(f"{event_type} {key!r} must be a string")
        if non_empty and not value:
            raise ValueError(f"{event_type} {key!r} must not be empty")


def call_state(events: tuple[Event, ...], session_id: str, call_id: str) -> str | None:
    """The type of the last tool event of this session for this call id, or None."""
    state = None
    for event in events:
        if event.session_id != session_id or event.type not in TOOL_TYPES:
            continue
        if event.payload["call_id"] == call_id:
            state = event.type
    return state


def check_pairing(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]) -> None:
    if event_type not in TOOL_TYPES:
        return
    call_id = payload["call_id"]
    state = call_state(log.events, session_id, call_id)
    if event_type == "tool_call" and state is not None:
        raise ValueError(f"call_id {call_id!r} already used in {session_id!r}")
    if event_type == "tool_result" and state is None:
        raise ValueError(f"call_id {call_id!r} was never called in {session_id!r}")
    if event_type == "tool_result" and state == "tool_result":
        raise ValueError(f"call_id {call_id!r} already has a result")


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]
                 ) -> tuple[Log, Event]:
    check_event_type(event_type)
    check_session_id(session_id)
    check_payload(event_type, payload)
    check_pairing(log, session_id, event_type, payload)
    event = Event(len(log.events) + 1, session_id, event_type, freeze(payload))
    return Log(log.events + (event,)), event


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0
                           ) -> tuple[Event, ...]:
    return tuple(
        event
        for event in log.events
        if event.session_id == session_id and event.event_id > after_event_id
    )


def list_sessions(log: Log) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for event in log.events:
        seen.setdefault(event.session_id, None)
    return tuple(seen)


def message_for(event: Event) -> dict[str, Any]:
    payload = event.payload
    if event.type == "user_message":
        return {"role": "user", "content": payload["content"]}
    if event.type == "assistant_message":
        return {"role": "assistant", "content": payload["content"]}
    if event.type == "tool_result":
        return {"role": "tool", "tool_call_id": payload["call_id"], "content": payload["content"]}
    call = {"id": payload["call_id"], "type": "function",
            "function": {"name": payload["name"], "arguments": payload["arguments"]}}
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def replay_session(log: Log, session_id: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for event in get_events_for_session(log, session_id):
        message = message_for(event)
        if event.type == "tool_call" and messages and "tool_calls" in messages[-1]:
            messages[-1]["tool_calls"].extend(message["tool_calls"])
        else:
            messages.append(message)
    return messages
