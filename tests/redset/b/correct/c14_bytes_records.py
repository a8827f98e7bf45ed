"""The whole log is one ``bytes`` value: length-prefixed pickled records, end to end.

``bytes`` is immutable, so a log value can never change; appending builds a new value
from the old one's bytes and one record (memcpy in C). The first 8 bytes count the
events, so the next id is read without a walk. Each record is a small header, pickled
``(event_id, session_id, type, call_id)``, followed by the pickled payload as plain data,
so the pairing check and the filters unpickle headers only. Every read unpickles what it
returns: each reader's events and payloads are brand new objects.
"""

from __future__ import annotations

import pickle
import struct
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

SIZES = struct.Struct("<II")  # header length, payload length
COUNT = struct.Struct("<Q")  # the number of events, at the very start
TYPES = ("user_message", "assistant_message", "tool_call", "tool_result")


@dataclass(frozen=True, slots=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


def create_event_log() -> bytes:
    return COUNT.pack(0)


def plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {plain(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return str.__str__(value) if isinstance(value, str) else value


def frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(frozen(v) for v in value)
    return value


def records(log: bytes) -> Iterator[tuple[tuple[int, str, str, str | None], int, int]]:
    """Each record's header, and where its payload starts and ends."""
    view, at = memoryview(log), COUNT.size
    while at < len(log):
        head_size, body_size = SIZES.unpack_from(view, at)
        at += SIZES.size
        header = pickle.loads(view[at:at + head_size])
        yield header, at + head_size, at + head_size + body_size
        at += head_size + body_size


def count(log: bytes) -> int:
    return COUNT.unpack_from(log)[0]


def event_at(log: bytes, header: tuple[int, str, str, str | None], start: int, end: int) -> Event:
    event_id, session_id, event_type, _ = header
    return Event(event_id, session_id, event_type, frozen(pickle.loads(log[start:end])))


def check(log: bytes, session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in TYPES:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty str")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    keys = {"user_message": ("content",), "assistant_message": ("content",),
            "tool_call": ("call_id", "name", "arguments"),
            "tool_result": ("call_id", "content")}[event_type]
    for key in keys:
        value = payload.get(key)
        if not isinstance(value, str) or (key in ("call_id", "name") and not value):
            raise ValueError(f"bad {key!r}")
    if event_type in ("tool_call", "tool_result"):
        seen = [h[2] for h, _, _ in records(log)
                if h[1] == session_id and h[3] is not None and h[3] == payload["call_id"]]
        if event_type == "tool_call" and seen:
            raise ValueError("call_id already used in this session")
        if event_type == "tool_result" and seen != ["tool_call"]:
            raise ValueError("call_id is not an open call of this session")


def append_event(log: bytes, session_id: str, event_type: str, payload: Mapping[str, Any]
                 ) -> tuple[bytes, Event]:
    check(log, session_id, event_type, payload)
    data = plain(payload)
    call_id = data["call_id"] if event_type in ("tool_call", "tool_result") else None
    header = (count(log) + 1, str.__str__(session_id), str.__str__(event_type), call_id)
    head = pickle.dumps(header, protocol=pickle.HIGHEST_PROTOCOL)
    body = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
    grown = COUNT.pack(header[0]) + log[COUNT.size:] + SIZES.pack(len(head), len(body)) + head + body
    return grown, Event(header[0], session_id, event_type, frozen(data))


def get_events_for_session(log: bytes, session_id: str, after_event_id: int = 0
                           ) -> tuple[Event, ...]:
    return tuple(event_at(log, h, start, end) for h, start, end in records(log)
                 if h[1] == session_id and h[0] > after_event_id)


def list_sessions(log: bytes) -> tuple[str, ...]:
    return tuple(dict.fromkeys(h[1] for h, _, _ in records(log)))


def replay_session(log: bytes, session_id: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for event in get_events_for_session(log, session_id):
        p = event.payload
        if event.type == "tool_call":
            call = {"id": p["call_id"], "type": "function",
                    "function": {"name": p["name"], "arguments": p["arguments"]}}
            if messages and "tool_calls" in messages[-1]:
                messages[-1]["tool_calls"].append(call)
                continue
            messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif event.type == "tool_result":
            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        else:
            messages.append({"role": "user" if event.type == "user_message" else "assistant",
                             "content": p["content"]})
    return messages
