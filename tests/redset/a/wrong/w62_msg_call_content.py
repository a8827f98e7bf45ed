r"""Wrong: a call message carries the payload's 'content' key as its text.

The API allows text beside tool calls, so replay uses payload.get('content') for the
assistant message of a call instead of None.

Promise broken: replay.py: "tool_call -> {\"role\": \"assistant\", \"content\": None, ...}" and "extra payload keys stay out".
Dimension: extra payload key named like a message field ('content' on a tool_call)
Witness size: 1 append

Witness:
    log = p.new()
    log, _ = p.append(log, "a", "tool_call", {"call_id": "c", "name": "f", "arguments": "{}", "content": "thinking"})
    p.replay(log, "a")
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

EVENT_TYPES = ("user_message", "assistant_message", "tool_call", "tool_result")
REQUIRED = {
    "user_message": {"content": False},
    "assistant_message": {"content": False},
    "tool_call": {"call_id": True, "name": True, "arguments": False},
    "tool_result": {"call_id": True, "content": False},
}


@dataclass(frozen=True, slots=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class EventLog:
    events: tuple = ()


def create_event_log() -> EventLog:
    return EventLog()


def freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({key: freeze(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(item) for item in value)
    return value


def check_payload(event_type: str, payload: Any) -> None:
    if not isinstance(payload, Mapping):
        raise ValueError(f"payload must be a mapping, got {type(payload).__name__}")
    for key, non_empty in REQUIRED[event_type].items():
        value = payload.get(key)
        if not isinstance(value, str):
            raise ValueError(f"payload[{key!r}] must be a string")
        if non_empty and not value:
            raise ValueError(f"payload[{key!r}] must not be empty")


def call_state(log: EventLog, session_id: str, call_id: str) -> str:
    state = "unused"
    for event in log.events:
        if event.session_id != session_id or event.type not in ("tool_call", "tool_result"):
            continue
        if event.payload["call_id"] == call_id:
            state = "open" if event.type == "tool_call" else "answered"
    return state


def check_call(log: EventLog, session_id: str, event_type: str, payload: Mapping) -> None:
    if event_type not in ("tool_call", "tool_result"):
        return
    state = call_state(log, session_id, payload["call_id"])
    if event_type == "tool_call" and state != "unused":
        raise ValueError("call_id already used in this session")
    if event_type == "tool_result" and state != "open":
        raise ValueError("tool_result needs an open call with this call_id")


def append_event(log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]):
    if not isinstance(event_type, str) or event_type not in EVENT_TYPES:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty string")
    check_payload(event_type, payload)
    check_call(log, session_id, event_type, payload)
    event = Event(len(log.events) + 1, session_id, event_type, freeze(payload))
    return EventLog(log.events + (event,)), event


def get_events_for_session(log: EventLog, session_id: str, after_event_id: int = 0):
    return tuple(
        event
        for event in log.events
        if event.session_id == session_id and event.event_id > after_event_id
    )


def list_sessions(log: EventLog):
    return tuple(dict.fromkeys(event.session_id for event in log.events))


def message_for(event: Event) -> dict[str, Any]:
    payload = event.payload
    if event.type == "user_message":
        return {"role": "user", "content": payload["content"]}
    if event.type == "assistant_message":
        return {"role": "assistant", "content": payload["content"]}
    if event.type == "tool_result":
        return {"role": "tool", "tool_call_id": payload["call_id"], "content": payload["content"]}
    call = {
        "id": payload["call_id"],
        "type": "function",
        "function": {"name": payload["name"], "arguments": payload["arguments"]},
    }
    return {"role": "assistant", "content": payload.get("content"), "tool_calls": [call]}


def replay_session(log: EventLog, session_id: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    previous = None
    for event in get_events_for_session(log, session_id):
        message = message_for(event)
        if event.type == "tool_call" and previous == "tool_call":
            messages[-1]["tool_calls"].extend(message["tool_calls"])
        else:
            messages.append(message)
        previous = event.type
    return messages
