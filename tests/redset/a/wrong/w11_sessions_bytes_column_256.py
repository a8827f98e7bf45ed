r"""Wrong: the session-number column is a bytes object, so session 257 cannot be stored.

Columnar storage keeps each event's session number in a bytes column, one byte per event.
The 257th distinct session gets number 256, bytes([256]) raises ValueError, and a valid
append is refused.

Promise broken: event_log.py: "Any valid append is accepted ... any non-empty str as session id".
Dimension: sessions (2^8 + 1)
Witness size: 257 sessions

Witness:
    log = p.new()
    for i in range(257):
        log, _ = p.append(log, "s%d" % i, "user_message", {"content": "."})
    p.sessions(log)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple


class Event(NamedTuple):
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Columns:
    session_no: bytes = b""
    kinds: tuple = ()
    payloads: tuple = ()
    call_ids: tuple = ()
    table: tuple = ()  # session ids, by first appearance
    numbers: Mapping = field(default_factory=lambda: MappingProxyType({}))  # session id -> its index in table

    def row(self, i: int) -> Event:
        return Event(i + 1, self.table[self.session_no[i]], self.kinds[i], self.payloads[i])


def create_event_log() -> Columns:
    return Columns()


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def _require(payload: Mapping, *keys: str, non_empty: tuple = ()) -> None:
    for key in keys:
        if not isinstance(payload.get(key), str):
            raise ValueError(f"{key} must be a string")
        if key in non_empty and payload[key] == "":
            raise ValueError(f"{key} must not be empty")


def _call_history(log: Columns, number: int | None, call_id: str) -> list[str]:
    if number is None:
        return []
    return [log.kinds[i] for i, n in enumerate(log.session_no)
            if n == number and log.call_ids[i] is not None and log.call_ids[i] == call_id]


def append_event(log: Columns, session_id: str, event_type: str, payload: Mapping[str, Any]):
    if not isinstance(event_type, str) or event_type not in (
            "user_message", "assistant_message", "tool_call", "tool_result"):
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or len(session_id) == 0:
        raise ValueError("session_id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    number = log.numbers.get(session_id)
    call_id = None
    if event_type == "tool_call":
        _require(payload, "call_id", "name", "arguments", non_empty=("call_id", "name"))
        call_id = payload["call_id"]
        if _call_history(log, number, call_id):
            raise ValueError("call id already used in this session")
    elif event_type == "tool_result":
        _require(payload, "call_id", "content", non_empty=("call_id",))
        call_id = payload["call_id"]
        if _call_history(log, number, call_id) != ["tool_call"]:
            raise ValueError("no open call with this id")
    else:
        _require(payload, "content")
    table, numbers = log.table, log.numbers
    if number is None:
        number = len(table)
        table = table + (session_id,)
        numbers = MappingProxyType({**numbers, session_id: number})
    new = Columns(log.session_no + bytes([number]), log.kinds + (event_type,),
                  log.payloads + (_freeze(payload),), log.call_ids + (call_id,), table, numbers)
    return new, new.row(len(log.kinds))


def get_events_for_session(log: Columns, session_id: str, after_event_id: int = 0):
    number = log.numbers.get(session_id)
    return tuple(log.row(i) for i, n in enumerate(log.session_no)
                 if n == number and i + 1 > after_event_id)


def list_sessions(log: Columns):
    return log.table


def replay_session(log: Columns, session_id: str):
    messages: list[dict] = []
    for e in get_events_for_session(log, session_id):
        p = e.payload
        if e.type == "tool_call":
            call = {"id": p["call_id"], "type": "function",
                    "function": {"name": p["name"], "arguments": p["arguments"]}}
            if messages and "tool_calls" in messages[-1]:
                messages[-1]["tool_calls"].append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif e.type == "tool_result":
            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        else:
            messages.append({"role": "user" if e.type == "user_message" else "assistant",
                             "content": p["content"]})
    return messages
