"""Correct: readers are generator pipelines over a tuple; events refuse every assignment.

``itertools`` does the filtering (``compress``, ``dropwhile``, ``groupby``) and replay groups
consecutive tool calls with ``groupby``. Payloads become ``Frozen``, a hashable read-only
mapping; lists and tuples become tuples.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from typing import Any


class Frozen(Mapping):
    __slots__ = ("_items", "_hash")

    def __init__(self, items: Iterable[tuple[str, Any]]) -> None:
        object.__setattr__(self, "_items", dict(items))
        object.__setattr__(self, "_hash", None)

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(name)

    def __hash__(self) -> int:
        return hash(frozenset(self._items))


class Event:
    __slots__ = ("event_id", "session_id", "type", "payload")

    def __init__(self, *fields: Any) -> None:
        for name, value in zip(self.__slots__, fields):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"an event is a fact: {name} cannot change")

    __delattr__ = __setattr__


def create_event_log() -> tuple:
    return ()


def _deep(value: Any) -> Any:
    if isinstance(value, Mapping):
        return Frozen((k, _deep(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(map(_deep, value))
    return value


def _tool_events(log: tuple, session_id: str, call_id: str) -> Iterator[str]:
    tools = (e for e in log if e.type in ("tool_call", "tool_result"))
    return (e.type for e in tools if e.session_id == session_id and e.payload["call_id"] == call_id)


def _is_text(value: Any, non_empty: bool) -> bool:
    return isinstance(value, str) and (len(value) > 0 or not non_empty)


def append_event(log: tuple, session_id: str, event_type: str, payload: Any):
    specs = {
        "user_message": (("content", 0),),
        "assistant_message": (("content", 0),),
        "tool_call": (("call_id", 1), ("name", 1), ("arguments", 0)),
        "tool_result": (("call_id", 1), ("content", 0)),
    }
    if not isinstance(event_type, str) or event_type not in specs:
        raise ValueError("unknown event type")
    if not _is_text(session_id, True):
        raise ValueError("session id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    if not all(_is_text(payload.get(k), bool(n)) for k, n in specs[event_type]):
        raise ValueError("a required payload key is missing, not a string, or empty")
    if event_type.startswith("tool_"):
        history = list(_tool_events(log, session_id, payload["call_id"]))
        if event_type == "tool_call" and history:
            raise ValueError("call id used before in this session")
        if event_type == "tool_result" and history[-1:] != ["tool_call"]:
            raise ValueError("no open call with this id")
    event = Event(len(log) + 1, session_id, event_type, _deep(payload))
    return (*log, event), event


def get_events_for_session(log: tuple, session_id: str, after_event_id: int = 0):
    later = itertools.dropwhile(lambda e: e.event_id <= after_event_id, log)
    return tuple(e for e in later if e.session_id == session_id)


def list_sessions(log: tuple):
    return tuple(dict.fromkeys(map(lambda e: e.session_id, log)))


def _call(p: Mapping) -> dict:
    return {"id": p["call_id"], "type": "function",
            "function": {"name": p["name"], "arguments": p["arguments"]}}


def _messages(events: Iterable[Event]) -> Iterator[dict]:
    for is_call, run in itertools.groupby(events, key=lambda e: e.type == "tool_call"):
        if is_call:
            yield {"role": "assistant", "content": None, "tool_calls": [_call(e.payload) for e in run]}
            continue
        for e in run:
            if e.type == "tool_result":
                yield {"role": "tool", "tool_call_id": e.payload["call_id"], "content": e.payload["content"]}
            else:
                yield {"role": e.type.split("_")[0], "content": e.payload["content"]}


def replay_session(log: tuple, session_id: str):
    return list(_messages(get_events_for_session(log, session_id)))
