"""Correct: the log is a map from session to that session's own tuple of events.

An append copies only its session's tuple and the (small) map of sessions; the global id is
a counter kept beside the map, and the session order is a tuple that grows when a session is
new. Each session also keeps its open and answered call ids as frozensets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Session:
    events: tuple = ()
    open_calls: frozenset = frozenset()
    answered: frozenset = frozenset()


@dataclass(frozen=True, slots=True)
class Log:
    count: int = 0
    order: tuple = ()
    sessions: Mapping = field(default_factory=lambda: MappingProxyType({}))


def create_event_log() -> Log:
    return Log()


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def _required(event_type: str) -> dict:
    return {
        "user_message": {"content": 0},
        "assistant_message": {"content": 0},
        "tool_call": {"call_id": 1, "name": 1, "arguments": 0},
        "tool_result": {"call_id": 1, "content": 0},
    }[event_type]


def _next_session(session: Session, event_type: str, payload: Mapping) -> Session:
    if event_type not in ("tool_call", "tool_result"):
        return session
    call_id = payload["call_id"]
    used = call_id in session.open_calls or call_id in session.answered
    if event_type == "tool_call":
        if used:
            raise ValueError("call id already used in this session")
        return Session(session.events, session.open_calls | {call_id}, session.answered)
    if call_id not in session.open_calls:
        raise ValueError("this session has no open call with this id")
    return Session(session.events, session.open_calls - {call_id}, session.answered | {call_id})


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]):
    if type(event_type) is not str and not isinstance(event_type, str):
        raise ValueError("event type must be a known string")
    if event_type not in ("user_message", "assistant_message", "tool_call", "tool_result"):
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for key, non_empty in _required(event_type).items():
        if not isinstance(payload.get(key), str) or (non_empty and not payload.get(key)):
            raise ValueError(f"payload[{key!r}] is missing, not a string or empty")
    session = log.sessions.get(session_id, Session())
    session = _next_session(session, event_type, payload)
    event = Event(log.count + 1, session_id, event_type, _freeze(payload))
    session = Session(session.events + (event,), session.open_calls, session.answered)
    order = log.order if session_id in log.sessions else log.order + (session_id,)
    sessions = MappingProxyType({**log.sessions, session_id: session})
    return Log(log.count + 1, order, sessions), event


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0):
    events = log.sessions.get(session_id, Session()).events
    return tuple(e for e in events if e.event_id > after_event_id)


def list_sessions(log: Log):
    return log.order


def replay_session(log: Log, session_id: str):
    messages: list[dict] = []
    run: list[dict] | None = None
    for e in get_events_for_session(log, session_id):
        p = e.payload
        if e.type == "tool_call":
            call = {"id": p["call_id"], "type": "function",
                    "function": {"name": p["name"], "arguments": p["arguments"]}}
            if run is None:
                run = []
                messages.append({"role": "assistant", "content": None, "tool_calls": run})
            run.append(call)
            continue
        run = None
        if e.type == "tool_result":
            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        else:
            messages.append({"role": "user" if e.type == "user_message" else "assistant",
                             "content": p["content"]})
    return messages
