r"""Wrong: a session remembers only its last 1,024 answered calls.

Answered calls need no more checks, the author thought, so only the newest 1,024 are kept.
An older answered call id is forgotten and can be called again.

Promise broken: event_log.py: "Bad input is: ... a tool_call whose call_id this session already used".
Dimension: answered calls (2^10 + 1)
Witness size: 1025 answered calls

Witness:
    log = p.new()
    for i in range(1025):
        log, _ = p.append(log, "a", "tool_call", {"call_id": "c%d" % i, "name": "f", "arguments": "{}"})
        log, _ = p.append(log, "a", "tool_result", {"call_id": "c%d" % i, "content": "ok"})
    log, _ = p.append(log, "a", "tool_call", {"call_id": "c0", "name": "f", "arguments": "{}"})
    p.read(log, "a", 2050)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

KEEP_ANSWERED = 1024
KINDS = ("user_message", "assistant_message", "tool_call", "tool_result")


class Event(NamedTuple):
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


class Log(NamedTuple):
    """The events, and three indexes kept beside them, each replaced (never changed) on append."""

    events: tuple
    by_session: Mapping  # session id -> tuple of its events
    calls: Mapping  # session id -> mapping of call id -> "open" | "answered"
    order: tuple  # session ids by first event


def create_event_log() -> Log:
    return Log((), MappingProxyType({}), MappingProxyType({}), ())


def deep_copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: deep_copy(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(deep_copy(v) for v in value)
    return value


def required_text(payload: Mapping, key: str, non_empty: bool = False) -> str:
    value = payload.get(key)
    if not isinstance(value, str):
        raise ValueError(f"payload[{key!r}] must be a string")
    if non_empty and not value:
        raise ValueError(f"payload[{key!r}] must not be empty")
    return value


def validate(log: Log, session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in KINDS:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    if event_type in ("user_message", "assistant_message"):
        required_text(payload, "content")
        return
    call_id = required_text(payload, "call_id", non_empty=True)
    if event_type == "tool_call":
        required_text(payload, "name", non_empty=True)
        required_text(payload, "arguments")
    else:
        required_text(payload, "content")
    state = lookup_call(log, session_id, call_id)
    if event_type == "tool_call" and state is not None:
        raise ValueError(f"call_id {call_id!r} already used in session {session_id!r}")
    if event_type == "tool_result" and state != "open":
        raise ValueError(f"session {session_id!r} has no open call {call_id!r}")


def lookup_call(log: Log, session_id: str, call_id: str) -> str | None:
    return log.calls.get(session_id, {}).get(call_id)


def with_call(calls: Mapping, session_id: str, call_id: str, state: str) -> Mapping:
    inner = dict(calls.get(session_id, {}))
    inner[call_id] = state
    answered = [c for c, s in inner.items() if s == "answered"]
    if len(answered) > KEEP_ANSWERED:
        del inner[answered[0]]
    return MappingProxyType({**calls, session_id: MappingProxyType(inner)})


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]):
    validate(log, session_id, event_type, payload)
    event = Event(len(log.events) + 1, session_id, event_type, deep_copy(payload))
    calls = log.calls
    if event_type == "tool_call":
        calls = with_call(calls, session_id, payload["call_id"], "open")
    elif event_type == "tool_result":
        calls = with_call(calls, session_id, payload["call_id"], "answered")
    mine = log.by_session.get(session_id, ()) + (event,)
    by_session = MappingProxyType({**log.by_session, session_id: mine})
    order = log.order if session_id in log.by_session else log.order + (session_id,)
    return Log(log.events + (event,), by_session, calls, order), event


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0):
    return tuple(e for e in log.by_session.get(session_id, ()) if e.event_id > after_event_id)


def list_sessions(log: Log):
    return tuple(log.order)


def to_message(event: Event) -> dict:
    p = event.payload
    if event.type == "tool_result":
        return {"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]}
    role = "user" if event.type == "user_message" else "assistant"
    return {"role": role, "content": p["content"]}


def to_call(event: Event) -> dict:
    p = event.payload
    return {"id": p["call_id"], "type": "function",
            "function": {"name": p["name"], "arguments": p["arguments"]}}


def replay_session(log: Log, session_id: str):
    messages: list[dict] = []
    in_run = False
    for event in get_events_for_session(log, session_id):
        if event.type != "tool_call":
            messages.append(to_message(event))
            in_run = False
        elif in_run:
            messages[-1]["tool_calls"].append(to_call(event))
        else:
            messages.append({"role": "assistant", "content": None, "tool_calls": [to_call(event)]})
            in_run = True
    return messages
