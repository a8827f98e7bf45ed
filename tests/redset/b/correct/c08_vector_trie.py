"""A copy-on-write trie: the log is a persistent vector of 32-way nodes plus a tail.

The shape Clojure uses for its vectors. The newest (up to) 32 events sit in a tail tuple;
when the tail is full it is pushed into a tree of 32-way tuples, copying only the path
from the root to the new leaf. Every older log keeps its own root and tail, which are
never changed, so appending costs O(log32 n) and branches share all untouched nodes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

BITS = 5
WIDTH = 1 << BITS
MASK = WIDTH - 1


@dataclass(frozen=True, slots=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Vector:
    count: int = 0
    shift: int = BITS
    root: tuple[Any, ...] = ()
    tail: tuple[Event, ...] = ()

    def tail_offset(self) -> int:
        return self.count - len(self.tail)

    def push(self, item: Event) -> Vector:
        if len(self.tail) < WIDTH:
            return Vector(self.count + 1, self.shift, self.root, self.tail + (item,))
        if (self.count >> BITS) > (1 << self.shift):  # the root is full: grow a level
            root = (self.root, new_path(self.shift, self.tail))
            return Vector(self.count + 1, self.shift + BITS, root, (item,))
        root = push_tail(self.count, self.shift, self.root, self.tail)
        return Vector(self.count + 1, self.shift, root, (item,))

    def leaves(self) -> Iterator[tuple[Event, ...]]:
        yield from walk(self.root, self.shift, self.tail_offset())
        yield self.tail

    def __iter__(self) -> Iterator[Event]:
        for leaf in self.leaves():
            yield from leaf


def new_path(shift: int, leaf: tuple[Event, ...]) -> tuple[Any, ...]:
    node: tuple[Any, ...] = leaf
    for _ in range(0, shift, BITS):
        node = (node,)
    return node


def push_tail(count: int, shift: int, node: tuple[Any, ...], tail: tuple[Event, ...]
              ) -> tuple[Any, ...]:
    """A copy of ``node`` with ``tail`` added as the next leaf (only this path is copied)."""
    index = ((count - 1) >> shift) & MASK
    if shift == BITS:
        child: tuple[Any, ...] = tail
    elif index < len(node):
        child = push_tail(count, shift - BITS, node[index], tail)
    else:
        child = new_path(shift - BITS, tail)
    if index < len(node):
        return node[:index] + (child,) + node[index + 1:]
    return node + (child,)


def walk(node: tuple[Any, ...], shift: int, limit: int) -> Iterator[tuple[Event, ...]]:
    if limit <= 0:
        return
    if shift == 0:
        yield node
        return
    for child in node:
        yield from walk(child, shift - BITS, limit)


def create_event_log() -> Vector:
    return Vector()


def freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


SHAPE = {
    "user_message": ("content",),
    "assistant_message": ("content",),
    "tool_call": ("call_id", "name", "arguments"),
    "tool_result": ("call_id", "content"),
}


def check(log: Vector, session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in SHAPE:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty str")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for key in SHAPE[event_type]:
        if not isinstance(payload.get(key), str):
            raise ValueError(f"{key!r} must be a str")
        if key in ("call_id", "name") and payload[key] == "":
            raise ValueError(f"{key!r} must not be empty")
    if event_type in ("tool_call", "tool_result"):
        states = {e.type for e in log if e.session_id == session_id
                  and e.type in ("tool_call", "tool_result")
                  and e.payload["call_id"] == payload["call_id"]}
        if event_type == "tool_call" and states:
            raise ValueError("call_id already used in this session")
        if event_type == "tool_result" and states != {"tool_call"}:
            raise ValueError("call_id is not an open call of this session")


def append_event(log: Vector, session_id: str, event_type: str, payload: Mapping[str, Any]
                 ) -> tuple[Vector, Event]:
    check(log, session_id, event_type, payload)
    event = Event(log.count + 1, session_id, event_type, freeze(payload))
    return log.push(event), event


def get_events_for_session(log: Vector, session_id: str, after_event_id: int = 0
                           ) -> tuple[Event, ...]:
    return tuple(e for e in log if e.session_id == session_id and e.event_id > after_event_id)


def list_sessions(log: Vector) -> tuple[str, ...]:
    return tuple(dict.fromkeys(e.session_id for e in log))


def replay_session(log: Vector, session_id: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for e in get_events_for_session(log, session_id):
        p = e.payload
        if e.type != "tool_call":
            if e.type == "tool_result":
                out.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
            else:
                out.append({"role": "user" if e.type == "user_message" else "assistant",
                            "content": p["content"]})
            continue
        call = {"id": p["call_id"], "type": "function",
                "function": {"name": p["name"], "arguments": p["arguments"]}}
        if out and "tool_calls" in out[-1]:
            out[-1]["tool_calls"].append(call)
        else:
            out.append({"role": "assistant", "content": None, "tool_calls": [call]})
    return out
