"""A column store: the log is four parallel tuples, and payloads are sorted pairs.

Like a table kept column by column, the log holds one tuple per field (session ids,
types, payloads; the event id is the position + 1). Appending extends each column by
one. Events are built from the columns on every read, so a reader can do what it likes
with them.

Payloads are ``SortedPairs``: a read-only Mapping of our own that stores its keys sorted
in one tuple and its values in another, and finds a key by bisection.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any


class SortedPairs(Mapping):  # type: ignore[type-arg]
    __slots__ = ("_keys", "_values")

    def __init__(self, pairs: list[tuple[Any, Any]]) -> None:
        pairs.sort(key=lambda pair: pair[0])
        self._keys = tuple(key for key, _ in pairs)
        self._values = tuple(value for _, value in pairs)

    def __getitem__(self, key: Any) -> Any:
        if not isinstance(key, str):
            raise KeyError(key)
        at = bisect.bisect_left(self._keys, key)
        if at < len(self._keys) and self._keys[at] == key:
            return self._values[at]
        raise KeyError(key)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def to_pairs(value: Any) -> Any:
    if isinstance(value, Mapping):
        return SortedPairs([(key, to_pairs(item)) for key, item in value.items()])
    if isinstance(value, (list, tuple)):
        return tuple(to_pairs(item) for item in value)
    return value


@dataclass(frozen=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class Columns:
    session_ids: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    payloads: tuple[SortedPairs, ...] = ()

    def row(self, position: int) -> Event:
        return Event(position + 1, self.session_ids[position], self.types[position],
                     self.payloads[position])

    def rows_of(self, session_id: str, after_event_id: int) -> Iterator[int]:
        start = max(0, min(after_event_id, len(self.types)))
        for position in range(start, len(self.types)):
            if self.session_ids[position] == session_id:
                yield position


REQUIRED = {
    "user_message": {"content": False},
    "assistant_message": {"content": False},
    "tool_call": {"call_id": True, "name": True, "arguments": False},
    "tool_result": {"call_id": True, "content": False},
}


def create_event_log() -> Columns:
    return Columns()


def validate(columns: Columns, session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in REQUIRED:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty str")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for key, non_empty in REQUIRED[event_type].items():
        if not isinstance(payload.get(key), str) or (non_empty and not payload[key]):
            raise ValueError(f"bad {key!r} for {event_type}")
    if event_type not in ("tool_call", "tool_result"):
        return
    call_id = payload["call_id"]
    seen = [columns.types[p] for p in columns.rows_of(session_id, 0)
            if columns.types[p] in ("tool_call", "tool_result")
            and columns.payloads[p]["call_id"] == call_id]
    if event_type == "tool_call" and seen:
        raise ValueError(f"call_id {call_id!r} already used")
    if event_type == "tool_result" and seen != ["tool_call"]:
        raise ValueError(f"call_id {call_id!r} is not an open call")


def append_event(columns: Columns, session_id: str, event_type: str, payload: Mapping[str, Any]
                 ) -> tuple[Columns, Event]:
    validate(columns, session_id, event_type, payload)
    grown = Columns(columns.session_ids + (session_id,), columns.types + (event_type,),
                    columns.payloads + (to_pairs(payload),))
    return grown, grown.row(len(columns.types))


def get_events_for_session(columns: Columns, session_id: str, after_event_id: int = 0
                           ) -> tuple[Event, ...]:
    return tuple(columns.row(p) for p in columns.rows_of(session_id, after_event_id))


def list_sessions(columns: Columns) -> tuple[str, ...]:
    return tuple(dict.fromkeys(columns.session_ids))


def replay_session(columns: Columns, session_id: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] | None = None  # the tool_calls list of the open run
    for p in columns.rows_of(session_id, 0):
        kind, data = columns.types[p], columns.payloads[p]
        if kind == "tool_call":
            call = {"id": data["call_id"], "type": "function",
                    "function": {"name": data["name"], "arguments": data["arguments"]}}
            if calls is None:
                calls = []
                messages.append({"role": "assistant", "content": None, "tool_calls": calls})
            calls.append(call)
            continue
        calls = None
        if kind == "tool_result":
            messages.append({"role": "tool", "tool_call_id": data["call_id"],
                             "content": data["content"]})
        else:
            role = "user" if kind == "user_message" else "assistant"
            messages.append({"role": role, "content": data["content"]})
    return messages
