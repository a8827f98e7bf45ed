"""Correct: classes that lock themselves after ``__init__``, and a dict that refuses changes.

``EventLog`` and ``Event`` raise on any assignment once built. Payloads are copied into
``LockedDict``, a ``dict`` subclass whose every mutating method raises, with tuples for lists;
it is still a real ``dict``, so anything that reads dicts reads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _refuse(self, *args: Any, **kwargs: Any) -> None:
    raise TypeError("this payload is read-only")


class LockedDict(dict):
    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    update = pop = popitem = clear = setdefault = _refuse

    def __copy__(self) -> dict:
        return dict(self)


class Locked:
    __slots__ = ("_ready",)

    def __setattr__(self, name: str, value: Any) -> None:
        if getattr(self, "_ready", False):
            raise AttributeError(f"{type(self).__name__} is immutable")
        object.__setattr__(self, name, value)

    def _lock(self) -> None:
        object.__setattr__(self, "_ready", True)


class Event(Locked):
    __slots__ = ("event_id", "session_id", "type", "payload")

    def __init__(self, event_id: int, session_id: str, type: str, payload: LockedDict) -> None:
        self.event_id, self.session_id, self.type, self.payload = event_id, session_id, type, payload
        self._lock()


class EventLog(Locked):
    __slots__ = ("events", "sessions")

    def __init__(self, events: tuple = (), sessions: tuple = ()) -> None:
        self.events = events
        self.sessions = sessions
        self._lock()

    def state_of(self, session_id: str, call_id: str) -> str:
        state = "unused"
        for event in self.events:
            if event.session_id == session_id and event.type[:5] == "tool_":
                if event.payload["call_id"] == call_id:
                    state = "open" if event.type == "tool_call" else "answered"
        return state

    def plus(self, event: Event) -> "EventLog":
        known = event.session_id in self.sessions
        sessions = self.sessions if known else (*self.sessions, event.session_id)
        return EventLog((*self.events, event), sessions)


def _lock_all(value: Any) -> Any:
    if isinstance(value, Mapping):
        return LockedDict((key, _lock_all(item)) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_lock_all(item) for item in value)
    return value


def create_event_log() -> EventLog:
    return EventLog()


class Rules:
    texts = {"user_message": ("content",), "assistant_message": ("content",),
             "tool_call": ("call_id", "name", "arguments"), "tool_result": ("call_id", "content")}
    non_empty = ("call_id", "name")

    @classmethod
    def check(cls, log: EventLog, session_id: Any, event_type: Any, payload: Any) -> None:
        if not (isinstance(event_type, str) and event_type in cls.texts):
            raise ValueError(f"unknown event type {event_type!r}")
        if not (isinstance(session_id, str) and session_id):
            raise ValueError(f"bad session id {session_id!r}")
        if not isinstance(payload, Mapping):
            raise ValueError("the payload must be a mapping")
        for key in cls.texts[event_type]:
            if not isinstance(payload.get(key), str):
                raise ValueError(f"{key} must be a string")
            if key in cls.non_empty and not payload[key]:
                raise ValueError(f"{key} must not be empty")
        if event_type[:5] == "tool_":
            state = log.state_of(session_id, payload["call_id"])
            if (event_type == "tool_call") != (state == "unused") or state == "answered":
                raise ValueError(f"call id {payload['call_id']!r} cannot be used here ({state})")


def append_event(log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]):
    Rules.check(log, session_id, event_type, payload)
    event = Event(len(log.events) + 1, session_id, event_type, _lock_all(payload))
    return log.plus(event), event


def get_events_for_session(log: EventLog, session_id: str, after_event_id: int = 0):
    return [e for e in log.events if e.session_id == session_id and e.event_id > after_event_id]


def list_sessions(log: EventLog):
    return list(log.sessions)


def replay_session(log: EventLog, session_id: str):
    messages: list[dict] = []
    for e in get_events_for_session(log, session_id):
        p = e.payload
        if e.type == "tool_call":
            call = {"id": p["call_id"], "type": "function",
                    "function": {"name": p["name"], "arguments": p["arguments"]}}
            if messages and messages[-1].get("tool_calls") is not None:
                messages[-1]["tool_calls"].append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif e.type == "tool_result":
            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        else:
            messages.append({"role": "user" if e.type == "user_message" else "assistant",
                             "content": p["content"]})
    return messages
