"""A log whose versions share one growing list; an older log is checked against the newest state.

BUG: appending to an older log rebuilds a store for the branch, but the call pairing is
checked against the shared store's state (the newest log's), not the older log's.
BREAKS: "Logs are independent values: appending to an older log starts a branch"
(append_event): a result valid on the older log is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

REQUIRED = {
    "user_message": ("content",),
    "assistant_message": ("content",),
    "tool_call": ("call_id", "name", "arguments"),
    "tool_result": ("call_id", "content"),
}


@dataclass(frozen=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


@dataclass
class Store:
    events: list[Event] = field(default_factory=list)
    positions: dict[str, list[int]] = field(default_factory=dict)
    calls: dict[str, dict[str, str]] = field(default_factory=dict)
    first: dict[str, int] = field(default_factory=dict)  # session -> position of first event
    messages: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Log:
    store: Store
    length: int


def create_event_log() -> Log:
    return Log(Store(), 0)


def freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({key: freeze(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(item) for item in value)
    return value


def rebuilt(events: list[Event]) -> Store:
    """A fresh store holding ``events``, its indexes built from scratch."""
    store = Store()
    for event in events:
        add_to(store, event)
    return store


def check_fields(session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in REQUIRED:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for key in REQUIRED[event_type]:
        if not isinstance(payload.get(key), str):
            raise ValueError(f"payload[{key!r}] must be a string")
    if event_type in ("tool_call", "tool_result") and not payload["call_id"]:
        raise ValueError("call_id must not be empty")
    if event_type == "tool_call" and not payload["name"]:
        raise ValueError("name must not be empty")


def check_call(store: Store, session_id: str, event_type: str, call_id: str) -> None:
    state = store.calls.get(session_id, {}).get(call_id)
    if event_type == "tool_call" and state is not None:
        raise ValueError(f"call id {call_id!r} already used")
    if event_type == "tool_result" and state is None:
        raise ValueError(f"call id {call_id!r} was never called")
    if event_type == "tool_result" and state == "answered":
        raise ValueError(f"call {call_id!r} already has a result")


def add_to(store: Store, event: Event) -> None:
    """Record ``event`` at the end of ``store`` and bring every index up to date."""
    position = len(store.events)
    store.events.append(event)
    store.positions.setdefault(event.session_id, []).append(position)
    store.first.setdefault(event.session_id, position)
    if event.type in ("tool_call", "tool_result"):
        table = store.calls.setdefault(event.session_id, {})
        table[event.payload["call_id"]] = "open" if event.type == "tool_call" else "answered"
    project(store.messages.setdefault(event.session_id, []), event)


def project(messages: list[dict[str, Any]], event: Event) -> None:
    p = event.payload
    if event.type == "tool_call":
        call = {"id": p["call_id"], "type": "function",
                "function": {"name": p["name"], "arguments": p["arguments"]}}
        if messages and "tool_calls" in messages[-1]:
            messages[-1]["tool_calls"].append(call)
        else:
            messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
    elif event.type == "tool_result":
        messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
    else:
        role = "user" if event.type == "user_message" else "assistant"
        messages.append({"role": role, "content": p["content"]})


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]
                 ) -> tuple[Log, Event]:
    check_fields(session_id, event_type, payload)
    at_end = log.length == len(log.store.events)
    store = log.store if at_end else rebuilt(log.store.events[: log.length])
    if event_type in ("tool_call", "tool_result"):
        check_call(log.store, session_id, event_type, payload["call_id"])
    event = Event(log.length + 1, session_id, event_type, freeze(payload))
    add_to(store, event)
    return Log(store, log.length + 1), event


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0
                           ) -> tuple[Event, ...]:
    store = log.store
    return tuple(
        store.events[p]
        for p in store.positions.get(session_id, ())
        if p < log.length and store.events[p].event_id > after_event_id
    )


def list_sessions(log: Log) -> tuple[str, ...]:
    first = log.store.first
    return tuple(sorted((s for s in first if first[s] < log.length), key=first.__getitem__))


def copy_message(message: dict[str, Any]) -> dict[str, Any]:
    if "tool_calls" not in message:
        return dict(message)
    calls = [{**c, "function": dict(c["function"])} for c in message["tool_calls"]]
    return {**message, "tool_calls": calls}


def replay_session(log: Log, session_id: str) -> list[dict[str, Any]]:
    if log.length == len(log.store.events):
        messages = log.store.messages.get(session_id, [])
    else:
        messages = []
        for event in get_events_for_session(log, session_id):
            project(messages, event)
    return [copy_message(m) for m in messages]
