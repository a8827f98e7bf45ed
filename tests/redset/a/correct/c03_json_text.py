"""Correct: every event is kept as JSON text; every read decodes a fresh copy.

The log is a tuple of ``(session_id, JSON line)`` pairs plus an index of call states, rebuilt
by copy on each tool event. The session id stays outside the JSON text: decoding would turn a
surrogate pair into the character it encodes, and session ids are compared exactly. Nothing a caller holds is shared with the log: the append returns a new event object
decoded from the stored text, and every read decodes again, so callers may change what they
get. Call ids in the index are the strings as given, so they compare exactly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

TYPES = frozenset({"user_message", "assistant_message", "tool_call", "tool_result"})


class Event:
    __slots__ = ("event_id", "session_id", "type", "payload")

    def __init__(self, event_id: int, session_id: str, type: str, payload: dict) -> None:
        self.event_id = event_id
        self.session_id = session_id
        self.type = type
        self.payload = payload


class Log:
    __slots__ = ("_lines", "_calls")

    def __init__(self, lines: tuple[str, ...], calls: Mapping) -> None:
        self._lines = lines
        self._calls = calls


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"not JSON: {type(value).__name__}")


_encode = json.JSONEncoder(default=_plain).encode


def create_event_log() -> Log:
    return Log((), MappingProxyType({}))


def _decode(row: tuple[str, str]) -> Event:
    session_id, line = row
    event_id, kind, payload = json.loads(line)
    return Event(event_id, session_id, kind, payload)


def _need_text(payload: Mapping, key: str, non_empty: bool = False) -> str:
    value = payload.get(key)
    if type(value) is not str and not isinstance(value, str):
        raise ValueError(f"{key} must be a string")
    if non_empty and not value:
        raise ValueError(f"{key} must not be empty")
    return value


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]):
    try:
        known = isinstance(event_type, str) and event_type in TYPES
    except TypeError:
        known = False
    if not known:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    calls = log._calls
    if event_type in ("user_message", "assistant_message"):
        _need_text(payload, "content")
    else:
        call_id = _need_text(payload, "call_id", True)
        if event_type == "tool_call":
            _need_text(payload, "name", True)
            _need_text(payload, "arguments")
        else:
            _need_text(payload, "content")
        state = calls.get(session_id, {}).get(call_id)
        if event_type == "tool_call" and state is not None:
            raise ValueError("call id already used in this session")
        if event_type == "tool_result" and state != "open":
            raise ValueError("no open call with this id in this session")
        inner = dict(calls.get(session_id, {}))
        inner[call_id] = "open" if event_type == "tool_call" else "answered"
        calls = MappingProxyType({**calls, session_id: MappingProxyType(inner)})
    row = (session_id, _encode([len(log._lines) + 1, event_type, payload]))
    return Log(log._lines + (row,), calls), _decode(row)


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0):
    found = []
    for number, row in enumerate(log._lines, start=1):
        if row[0] == session_id and number > after_event_id:
            found.append(_decode(row))
    return found


def list_sessions(log: Log):
    return list({session_id: 0 for session_id, _ in log._lines})


def replay_session(log: Log, session_id: str):
    messages: list[dict] = []
    for event in get_events_for_session(log, session_id):
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
            role = {"user_message": "user", "assistant_message": "assistant"}[event.type]
            messages.append({"role": role, "content": p["content"]})
    return messages
