"""Correct: payloads are kept as ``marshal`` bytes of a plain copy; reads unmarshal fresh ones.

``marshal`` knows only exact built-in types, so the copy first turns every mapping into a
``dict``, every list or tuple into a ``list`` and every ``str`` subclass into a ``str``: equal,
as the contract counts it. Bytes cannot be changed, so nothing outside reaches the log; every
read hands out new events the caller owns.
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping
from typing import Any, NamedTuple


class Row(NamedTuple):
    session_id: str
    kind: str
    blob: bytes


class Log(NamedTuple):
    rows: tuple
    open_calls: frozenset  # (session, call id) with no result yet
    done_calls: frozenset  # (session, call id) answered


class Event:
    def __init__(self, event_id: int, row: Row) -> None:
        self.event_id = event_id
        self.session_id = row.session_id
        self.type = row.kind
        self.payload = marshal.loads(row.blob)


def _plain(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, Mapping):
        return {str.__str__(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def create_event_log() -> Log:
    return Log((), frozenset(), frozenset())


REQUIRED = {
    "user_message": ["content"],
    "assistant_message": ["content"],
    "tool_call": ["call_id", "name", "arguments"],
    "tool_result": ["call_id", "content"],
}


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]):
    if not isinstance(event_type, str) or event_type not in REQUIRED:
        raise ValueError("unknown event type")
    if not isinstance(session_id, str) or session_id == "":
        raise ValueError("bad session id")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for key in REQUIRED[event_type]:
        if key not in payload or not isinstance(payload[key], str):
            raise ValueError(f"{key} must be a string")
        if key in ("call_id", "name") and payload[key] == "":
            raise ValueError(f"{key} must not be empty")
    open_calls, done_calls = log.open_calls, log.done_calls
    if event_type == "tool_call":
        key = (session_id, payload["call_id"])
        if key in open_calls or key in done_calls:
            raise ValueError("call id already used")
        open_calls = open_calls | {key}
    elif event_type == "tool_result":
        key = (session_id, payload["call_id"])
        if key not in open_calls:
            raise ValueError("no open call with this id")
        open_calls, done_calls = open_calls - {key}, done_calls | {key}
    row = Row(session_id, event_type, marshal.dumps(_plain(payload)))
    new = Log(log.rows + (row,), open_calls, done_calls)
    return new, Event(len(new.rows), row)


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0):
    start = max(after_event_id, 0)
    return [
        Event(number, row)
        for number, row in enumerate(log.rows[start:], start=start + 1)
        if row.session_id == session_id
    ]


def list_sessions(log: Log):
    seen: dict = {}
    for row in log.rows:
        seen.setdefault(row.session_id, True)
    return list(seen)


def replay_session(log: Log, session_id: str):
    messages: list = []
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
            if messages and messages[-1].get("tool_calls"):
                messages[-1]["tool_calls"].append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
    return messages
