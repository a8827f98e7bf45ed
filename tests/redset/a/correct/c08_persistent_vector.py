"""Correct: the events live in a persistent vector, a 32-way trie copied along one path.

Appending copies the nodes on the path to the new slot (at most a handful of 32-slot tuples)
and shares everything else, so old logs and branches stay intact and cheap. The trie grows a
level when the root is full (after 32, 1,024, 32,768 events). Call states live in a dict that
is copied on each tool event; session order is read by walking the events.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

WIDTH = 32
BITS = 5


@dataclass(frozen=True, slots=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Vector:
    root: tuple
    count: int
    shift: int  # BITS * (levels - 1)

    def appended(self, item: Any) -> "Vector":
        if self.count == WIDTH << self.shift:  # the root is full: grow one level
            root = (self.root, _path(self.shift, item))
            return Vector(root, self.count + 1, self.shift + BITS)
        return Vector(_put(self.root, self.shift, self.count, item), self.count + 1, self.shift)

    def __iter__(self) -> Iterator[Any]:
        return _walk(self.root, self.shift)


def _path(shift: int, item: Any) -> tuple:
    node: Any = (item,)
    for _ in range(shift // BITS):
        node = (node,)
    return node


def _put(node: tuple, shift: int, index: int, item: Any) -> tuple:
    if shift == 0:
        return (*node, item)
    slot = (index >> shift) & (WIDTH - 1)
    if slot < len(node):
        return (*node[:slot], _put(node[slot], shift - BITS, index, item))
    return (*node, _path(shift - BITS, item))


def _walk(node: tuple, shift: int) -> Iterator[Any]:
    if shift == 0:
        yield from node
        return
    for child in node:
        yield from _walk(child, shift - BITS)


@dataclass(frozen=True, slots=True)
class Log:
    events: Vector
    calls: Mapping  # (session, call id) -> "open" | "answered"


def create_event_log() -> Log:
    return Log(Vector((), 0, 0), MappingProxyType({}))


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def _string(payload: Mapping, key: str, non_empty: bool) -> Any:
    value = payload.get(key)
    if not isinstance(value, str) or (non_empty and not value):
        raise ValueError(f"payload[{key!r}] must be a{' non-empty' if non_empty else ''} string")
    return value


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]):
    if event_type not in ("user_message", "assistant_message", "tool_call", "tool_result"):
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(event_type, str):
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    calls = log.calls
    if event_type.endswith("_message"):
        _string(payload, "content", False)
    else:
        key = (session_id, _string(payload, "call_id", True))
        if event_type == "tool_call":
            _string(payload, "name", True)
            _string(payload, "arguments", False)
            if key in calls:
                raise ValueError("this call id was used before in the session")
            state = "open"
        else:
            _string(payload, "content", False)
            if calls.get(key) != "open":
                raise ValueError("no open call with this id in the session")
            state = "answered"
        calls = MappingProxyType({**calls, key: state})
    event = Event(log.events.count + 1, session_id, event_type, _freeze(payload))
    return Log(log.events.appended(event), calls), event


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0):
    return tuple(e for e in log.events if e.session_id == session_id and e.event_id > after_event_id)


def list_sessions(log: Log):
    return tuple({e.session_id: None for e in log.events})


def replay_session(log: Log, session_id: str):
    messages: list[dict] = []
    for e in get_events_for_session(log, session_id):
        p = e.payload
        if e.type != "tool_call":
            if e.type == "tool_result":
                messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
            else:
                messages.append({"role": e.type[: e.type.index("_")], "content": p["content"]})
            continue
        call = {"id": p["call_id"], "type": "function",
                "function": {"name": p["name"], "arguments": p["arguments"]}}
        if messages and "tool_calls" in messages[-1]:
            messages[-1]["tool_calls"].append(call)
        else:
            messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
    return messages
