"""An indexed event log whose call table is keyed by UTF-8 bytes.

BUG: call ids are keyed by ``call_id.encode("utf-8", "ignore")``: a lone surrogate is
dropped, so ``"c\udfff"`` and ``"c"`` are one call id.
BREAKS: "Call ids are compared exactly" (append_event): a valid tool_call is refused as a
reuse, and a result can answer the wrong call.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

KINDS = {
    "user_message": {"content": False},
    "assistant_message": {"content": False},
    "tool_call": {"call_id": True, "name": True, "arguments": False},
    "tool_result": {"call_id": True, "content": False},
}
OPEN, ANSWERED = "open", "answered"


class Event(NamedTuple):
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


class Log(NamedTuple):
    count: int
    sessions: tuple[str, ...]  # in the order of their first event
    by_session: Mapping[Any, tuple[Event, ...]]
    calls: Mapping[Any, Mapping[Any, str]]  # session -> call id -> OPEN or ANSWERED


def create_event_log() -> Log:
    return Log(0, (), MappingProxyType({}), MappingProxyType({}))


def session_key(session_id: str) -> Any:
    return session_id


def call_key(call_id: str) -> Any:
    return call_id.encode("utf-8", "ignore")  # ids travel as UTF-8


def frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: frozen(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(frozen(v) for v in value)
    return value


def validate(session_id: Any, event_type: Any, payload: Any) -> None:
    if not (isinstance(event_type, str) and event_type in KINDS):
        raise ValueError(f"unknown event type: {event_type!r}")
    if not (isinstance(session_id, str) and session_id):
        raise ValueError(f"bad session id: {session_id!r}")
    if not isinstance(payload, Mapping):
        raise ValueError("the payload must be a mapping")
    for key, non_empty in KINDS[event_type].items():
        value = payload.get(key)
        if not isinstance(value, str) or (non_empty and value == ""):
            raise ValueError(f"payload[{key!r}] must be a{' non-empty' if non_empty else ''} str")


def next_calls(log: Log, session: Any, event_type: str, call_id: str) -> Mapping[Any, str]:
    """The session's call table after this tool event; raises if the event breaks pairing."""
    table = log.calls.get(session, {})
    key = call_key(call_id)
    state = table.get(key)
    if event_type == "tool_call":
        if state is not None:
            raise ValueError(f"call id {call_id!r} is already used in this session")
        return MappingProxyType({**table, key: OPEN})
    if state is None:
        raise ValueError(f"no call {call_id!r} in this session")
    if state == ANSWERED:
        raise ValueError(f"call {call_id!r} already has its result")
    return MappingProxyType({**table, key: ANSWERED})


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]
                 ) -> tuple[Log, Event]:
    validate(session_id, event_type, payload)
    session = session_key(session_id)
    calls = log.calls
    if event_type in ("tool_call", "tool_result"):
        table = next_calls(log, session, event_type, payload["call_id"])
        calls = MappingProxyType({**log.calls, session: table})
    event = Event(log.count + 1, session_id, event_type, frozen(payload))
    known = session in log.by_session
    by_session = MappingProxyType(
        {**log.by_session, session: log.by_session.get(session, ()) + (event,)})
    sessions = log.sessions if known else log.sessions + (session_id,)
    return Log(log.count + 1, sessions, by_session, calls), event


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0
                           ) -> tuple[Event, ...]:
    events = log.by_session.get(session_key(session_id), ())
    start = bisect.bisect_right(events, after_event_id, key=lambda event: event.event_id)
    return events[start:]


def list_sessions(log: Log) -> tuple[str, ...]:
    return log.sessions


def to_message(event: Event) -> dict[str, Any]:
    p = event.payload
    if event.type == "tool_call":
        function = {"name": p["name"], "arguments": p["arguments"]}
        call = {"id": p["call_id"], "type": "function", "function": function}
        return {"role": "assistant", "content": None, "tool_calls": [call]}
    if event.type == "tool_result":
        return {"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]}
    role = "user" if event.type == "user_message" else "assistant"
    return {"role": role, "content": p["content"]}


def replay_session(log: Log, session_id: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    previous = None
    for event in get_events_for_session(log, session_id):
        message = to_message(event)
        if event.type == "tool_call" and previous == "tool_call":
            messages[-1]["tool_calls"] += message["tool_calls"]
        else:
            messages.append(message)
        previous = event.type
    return messages
