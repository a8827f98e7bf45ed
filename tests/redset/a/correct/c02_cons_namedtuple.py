"""Correct: the log is a persistent linked list (a cons chain), events are NamedTuples.

Each node holds the newest event and the node before it, so appending to any log, old or
new, allocates exactly one node and shares the rest: branches cost nothing. Readers walk the
chain from the newest node back and reverse what they collect. Payloads are frozen into a
small read-only ``Mapping`` class and tuples.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple, Optional


class FrozenMap(Mapping):
    __slots__ = ("_data",)

    def __init__(self, pairs: dict) -> None:
        object.__setattr__(self, "_data", pairs)

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a payload is read-only")

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"


class Event(NamedTuple):
    event_id: int
    session_id: str
    type: str
    payload: FrozenMap


class Node(NamedTuple):
    event: Optional[Event]
    before: Optional["Node"]
    size: int


EMPTY = Node(None, None, 0)
REQUIRED = {
    "user_message": (("content", False),),
    "assistant_message": (("content", False),),
    "tool_call": (("call_id", True), ("name", True), ("arguments", False)),
    "tool_result": (("call_id", True), ("content", False)),
}


def create_event_log() -> Node:
    return EMPTY


def _newest_first(log: Node) -> Iterator[Event]:
    node = log
    while node.event is not None:
        yield node.event
        node = node.before


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return FrozenMap({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(map(_freeze, value))
    return value


def _last_use(log: Node, session_id: str, call_id: str) -> str:
    for event in _newest_first(log):
        if (
            event.session_id == session_id
            and event.type in ("tool_call", "tool_result")
            and event.payload["call_id"] == call_id
        ):
            return event.type
    return ""


def append_event(log: Node, session_id: str, event_type: str, payload: Any):
    rules = next((r for t, r in REQUIRED.items() if t == event_type), None)
    if rules is None or not isinstance(event_type, str):
        raise ValueError(f"unknown event type {event_type!r}")
    if not (isinstance(session_id, str) and len(session_id) > 0):
        raise ValueError("bad session id")
    if not isinstance(payload, Mapping):
        raise ValueError("payload is not a mapping")
    for key, non_empty in rules:
        value = payload[key] if key in payload else None
        if not isinstance(value, str) or (non_empty and len(value) == 0):
            raise ValueError(f"bad payload[{key!r}]")
    if event_type == "tool_call" and _last_use(log, session_id, payload["call_id"]):
        raise ValueError("call id already used")
    if event_type == "tool_result" and _last_use(log, session_id, payload["call_id"]) != "tool_call":
        raise ValueError("no open call with that id")
    event = Event(log.size + 1, session_id, event_type, _freeze(payload))
    return Node(event, log, log.size + 1), event


def get_events_for_session(log: Node, session_id: str, after_event_id: int = 0):
    picked = []
    for event in _newest_first(log):
        if event.event_id <= after_event_id:
            break
        if event.session_id == session_id:
            picked.append(event)
    picked.reverse()
    return tuple(picked)


def list_sessions(log: Node):
    order = list(dict.fromkeys(e.session_id for e in reversed(list(_newest_first(log)))))
    return tuple(order)


def _message(event: Event) -> dict:
    p = event.payload
    if event.type == "tool_result":
        return {"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]}
    if event.type == "tool_call":
        call = {"id": p["call_id"], "type": "function",
                "function": {"name": p["name"], "arguments": p["arguments"]}}
        return {"role": "assistant", "content": None, "tool_calls": [call]}
    return {"role": "user" if event.type == "user_message" else "assistant", "content": p["content"]}


def replay_session(log: Node, session_id: str):
    out: list[dict] = []
    previous = None
    for event in get_events_for_session(log, session_id):
        message = _message(event)
        if event.type == "tool_call" and previous == "tool_call":
            out[-1]["tool_calls"].extend(message["tool_calls"])
        else:
            out.append(message)
        previous = event.type
    return out
