"""Reads that return lazy, read-only views instead of copies.

``get_events_for_session`` and ``list_sessions`` return small ``Sequence`` objects that
remember which log and which session they look at and work out their items on first use.
A view has no method that changes anything, and the log under it is an immutable tuple of
frozen events, so a view is as much the caller's own as a copy would be, at no cost when
the caller only wants the length or the last event.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, overload

TYPES = ("user_message", "assistant_message", "tool_call", "tool_result")


@dataclass(frozen=True, slots=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class EventLog:
    events: tuple[Event, ...] = ()


class LazyView(Sequence):  # type: ignore[type-arg]
    """A read-only sequence whose items are computed once, on first use."""

    __slots__ = ("_compute", "_items")

    def __init__(self, compute: Any) -> None:
        self._compute = compute
        self._items: tuple[Any, ...] | None = None

    def _all(self) -> tuple[Any, ...]:
        if self._items is None:
            self._items = tuple(self._compute())
            self._compute = None
        return self._items

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Any, ...]: ...
    def __getitem__(self, index: Any) -> Any:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __repr__(self) -> str:
        return f"LazyView({list(self._all())!r})"


def create_event_log() -> EventLog:
    return EventLog()


def read_only(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: read_only(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(read_only(v) for v in value)
    return value


def required_strings(event_type: str) -> dict[str, bool]:
    """Each required key of the type, and whether it must be non-empty."""
    if event_type == "tool_call":
        return {"call_id": True, "name": True, "arguments": False}
    if event_type == "tool_result":
        return {"call_id": True, "content": False}
    return {"content": False}


def reject(log: EventLog, session_id: Any, event_type: Any, payload: Any) -> str | None:
    """Why this append must be refused, or None when it is valid."""
    if not isinstance(event_type, str) or event_type not in TYPES:
        return f"unknown event type {event_type!r}"
    if not isinstance(session_id, str) or not session_id:
        return "session_id must be a non-empty str"
    if not isinstance(payload, Mapping):
        return "payload must be a mapping"
    for key, non_empty in required_strings(event_type).items():
        if key not in payload or not isinstance(payload[key], str):
            return f"payload needs a str {key!r}"
        if non_empty and not payload[key]:
            return f"{key!r} must not be empty"
    if event_type in ("tool_call", "tool_result"):
        kinds = [e.type for e in log.events
                 if e.session_id == session_id and e.type in ("tool_call", "tool_result")
                 and e.payload["call_id"] == payload["call_id"]]
        if event_type == "tool_call" and kinds:
            return "call_id already used in this session"
        if event_type == "tool_result" and kinds != ["tool_call"]:
            return "no open call with this call_id in this session"
    return None


def append_event(log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]
                 ) -> tuple[EventLog, Event]:
    why = reject(log, session_id, event_type, payload)
    if why is not None:
        raise ValueError(why)
    event = Event(len(log.events) + 1, session_id, event_type, read_only(payload))
    return EventLog((*log.events, event)), event


def get_events_for_session(log: EventLog, session_id: str, after_event_id: int = 0) -> LazyView:
    events = log.events
    return LazyView(lambda: (e for e in events
                             if e.session_id == session_id and e.event_id > after_event_id))


def list_sessions(log: EventLog) -> LazyView:
    events = log.events
    return LazyView(lambda: dict.fromkeys(e.session_id for e in events))


def replay_session(log: EventLog, session_id: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for event in get_events_for_session(log, session_id):
        p = event.payload
        match event.type:
            case "user_message":
                messages.append({"role": "user", "content": p["content"]})
            case "assistant_message":
                messages.append({"role": "assistant", "content": p["content"]})
            case "tool_result":
                messages.append({"role": "tool", "tool_call_id": p["call_id"],
                                 "content": p["content"]})
            case _:
                call = {"id": p["call_id"], "type": "function",
                        "function": {"name": p["name"], "arguments": p["arguments"]}}
                if messages and "tool_calls" in messages[-1]:
                    messages[-1]["tool_calls"].append(call)
                else:
                    messages.append({"role": "assistant", "content": None,
                                     "tool_calls": [call]})
    return messages
