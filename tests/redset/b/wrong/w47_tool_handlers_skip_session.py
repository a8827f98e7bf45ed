"""An event log in chunks whose tool events skip the session id check.

BUG: the session id is checked for messages only; the tool events go straight to the call
pairing, which happily accepts a tool_call in the session ``""`` (or any non-str that can
be compared).
BREAKS: "Bad input ... a session id that is not a non-empty str" (append_event), tried with
the tool event types.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

CHUNK = 1024
TYPES = ("user_message", "assistant_message", "tool_call", "tool_result")
NEEDS = {
    "user_message": ["content"],
    "assistant_message": ["content"],
    "tool_call": ["call_id", "name", "arguments"],
    "tool_result": ["call_id", "content"],
}
NON_EMPTY = ("call_id", "name")


class Event:
    __slots__ = ("event_id", "session_id", "type", "payload")

    def __init__(self, event_id: int, session_id: str, type: str, payload: Mapping[str, Any]):
        for name, value in zip(self.__slots__, (event_id, session_id, type, payload)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("events are facts; they cannot be changed")

    def __repr__(self) -> str:
        return f"Event({self.event_id}, {self.session_id!r}, {self.type!r}, {dict(self.payload)})"


def create_event_log() -> tuple[tuple[tuple[Event, ...], ...], tuple[Event, ...]]:
    return ((), ())


def size(log: Any) -> int:
    sealed, tail = log
    return len(sealed) * CHUNK + len(tail)


def all_events(log: Any) -> Iterator[Event]:
    sealed, tail = log
    for chunk in sealed:
        yield from chunk
    yield from tail


def with_event(log: Any, event: Event) -> Any:
    sealed, tail = log
    tail = tail + (event,)
    if len(tail) == CHUNK:
        return sealed + (tail,), ()
    return sealed, tail


def read_only(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: read_only(item) for k, item in value.items()})
    if isinstance(value, (tuple, list)):
        return tuple(map(read_only, value))
    return value


def refuse(why: str) -> None:
    raise ValueError(why)


def check(log: Any, session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str):
        refuse("event type must be a str")
    if event_type not in TYPES:
        refuse(f"unknown event type {event_type!r}")
    if event_type in ("user_message", "assistant_message") and (
            not isinstance(session_id, str) or len(session_id) == 0):
        refuse("session id must be a non-empty str")  # tool events: the pairing checks them
    if not isinstance(payload, Mapping):
        refuse("payload must be a mapping")
    for key in NEEDS[event_type]:
        if key not in payload or not isinstance(payload[key], str):
            refuse(f"{key} must be a str")
        if key in NON_EMPTY and not payload[key]:
            refuse(f"{key} must not be empty")
    if event_type in ("tool_call", "tool_result"):
        check_call(log, session_id, event_type, payload["call_id"])


def check_call(log: Any, session_id: str, event_type: str, call_id: str) -> None:
    called = answered = False
    for event in all_events(log):
        if event.session_id == session_id and event.type in ("tool_call", "tool_result"):
            if event.payload["call_id"] == call_id:
                called = called or event.type == "tool_call"
                answered = answered or event.type == "tool_result"
    if event_type == "tool_call" and called:
        refuse(f"call id {call_id!r} already used")
    if event_type == "tool_result" and not called:
        refuse(f"call id {call_id!r} never called")
    if event_type == "tool_result" and answered:
        refuse(f"call {call_id!r} already answered")


def append_event(log: Any, session_id: str, event_type: str, payload: Mapping[str, Any]
                 ) -> tuple[Any, Event]:
    check(log, session_id, event_type, payload)
    event = Event(size(log) + 1, session_id, event_type, read_only(payload))
    return with_event(log, event), event


def get_events_for_session(log: Any, session_id: str, after_event_id: int = 0
                           ) -> tuple[Event, ...]:
    return tuple(e for e in all_events(log)
                 if e.session_id == session_id and e.event_id > after_event_id)


def list_sessions(log: Any) -> tuple[str, ...]:
    return tuple(dict.fromkeys(e.session_id for e in all_events(log)))


def replay_session(log: Any, session_id: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for e in get_events_for_session(log, session_id):
        p = e.payload
        if e.type == "tool_call":
            call = {"id": p["call_id"], "type": "function",
                    "function": {"name": p["name"], "arguments": p["arguments"]}}
            if out and out[-1].get("tool_calls") is not None:
                out[-1]["tool_calls"].append(call)
                continue
            out.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif e.type == "tool_result":
            out.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        else:
            out.append({"role": "user" if e.type == "user_message" else "assistant",
                        "content": p["content"]})
    return out
