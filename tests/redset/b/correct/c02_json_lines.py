"""A log kept as JSON text: one line per event, the way it would be written to a file.

Every append writes one line; every read parses lines back, so each reader gets objects
of its own and nothing it does reaches the text. Plain JSON would lose three things the
contract keeps, so values are written in a small tagged form:

- an ``int`` as ``{"i": "<hex>"}``: Python will not print an int of more than 4,300 digits in
  decimal, and a JSON number would not tell ``1`` from ``1.0`` once read by another tool;
- a ``str`` holding a surrogate as ``{"u": [code units]}``: JSON text joins an escaped pair of
  surrogates into one character, and a session id must come back exactly as it was given;
- a mapping as ``{"m": [[key, value], ...]}``, so a tagged object cannot be mistaken for one.

The call table (which call ids each session has used and answered) is kept beside the
lines as read-only mappings, copied on write, so the pairing check needs no parsing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

REQUIRED = {
    "user_message": ("content",),
    "assistant_message": ("content",),
    "tool_call": ("call_id", "name", "arguments"),
    "tool_result": ("call_id", "content"),
}
ENCODER = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), allow_nan=False)


class Event(NamedTuple):
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


class Log(NamedTuple):
    lines: tuple[str, ...]
    calls: Mapping[str, Mapping[str, bool]]  # session -> call id -> answered?


def create_event_log() -> Log:
    return Log((), MappingProxyType({}))


def has_surrogate(text: str) -> bool:
    return not text.isascii() and any("\ud800" <= ch <= "\udfff" for ch in text)


def encode(value: Any) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return value
    if isinstance(value, int):
        return {"i": format(value, "x")}
    if isinstance(value, str):
        plain = str.__str__(value)
        return {"u": [ord(ch) for ch in plain]} if has_surrogate(plain) else plain
    if isinstance(value, Mapping):
        return {"m": [[encode(key), encode(item)] for key, item in value.items()]}
    return [encode(item) for item in value]


def decode(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(decode(item) for item in value)
    if not isinstance(value, dict):
        return value
    if "i" in value:
        return int(value["i"], 16)
    if "u" in value:
        return "".join(map(chr, value["u"]))
    return MappingProxyType({decode(key): decode(item) for key, item in value["m"]})


def to_line(event_id: int, session_id: str, event_type: str, payload: Mapping[str, Any]) -> str:
    return ENCODER.encode([event_id, encode(session_id), event_type, encode(payload)])


def from_line(line: str) -> Event:
    event_id, session_id, event_type, payload = json.loads(line)
    return Event(event_id, decode(session_id), event_type, decode(payload))


def check(session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in REQUIRED:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty str")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for key in REQUIRED[event_type]:
        value = payload.get(key)
        if not isinstance(value, str) or (key in ("call_id", "name") and not value):
            raise ValueError(f"{key!r} must be a {'non-empty ' if key != 'content' else ''}str")


def next_calls(log: Log, session_id: str, event_type: str, call_id: str) -> Log:
    table = log.calls.get(session_id, {})
    if event_type == "tool_call":
        if call_id in table:
            raise ValueError(f"call_id {call_id!r} already used in this session")
        answered = False
    elif call_id not in table:
        raise ValueError(f"call_id {call_id!r} was never called in this session")
    elif table[call_id]:
        raise ValueError(f"call_id {call_id!r} already has a result")
    else:
        answered = True
    new_table = MappingProxyType({**table, call_id: answered})
    return Log(log.lines, MappingProxyType({**log.calls, session_id: new_table}))


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]
                 ) -> tuple[Log, Event]:
    check(session_id, event_type, payload)
    if event_type in ("tool_call", "tool_result"):
        log = next_calls(log, session_id, event_type, str.__str__(payload["call_id"]))
    line = to_line(len(log.lines) + 1, session_id, str.__str__(event_type), payload)
    return Log(log.lines + (line,), log.calls), from_line(line)


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0
                           ) -> tuple[Event, ...]:
    start = max(0, min(after_event_id, len(log.lines)))  # line k holds event k + 1
    events = (from_line(line) for line in log.lines[start:])
    return tuple(event for event in events if event.session_id == session_id)


def list_sessions(log: Log) -> tuple[str, ...]:
    return tuple(dict.fromkeys(from_line(line).session_id for line in log.lines))


def replay_session(log: Log, session_id: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for event in get_events_for_session(log, session_id):
        p = event.payload
        if event.type == "user_message":
            messages.append({"role": "user", "content": p["content"]})
        elif event.type == "assistant_message":
            messages.append({"role": "assistant", "content": p["content"]})
        elif event.type == "tool_result":
            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        else:
            call = {"id": p["call_id"], "type": "function",
                    "function": {"name": p["name"], "arguments": p["arguments"]}}
            if messages and "tool_calls" in messages[-1]:
                messages[-1]["tool_calls"].append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
    return messages
