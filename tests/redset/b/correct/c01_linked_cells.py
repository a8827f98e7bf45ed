"""An append-only linked list: every log is a cell that points at the log before it.

Appending costs O(1) and copies nothing: the new cell holds the new event and a pointer to
the old log, which is untouched, so every older log stays a complete, valid value and a
branch simply shares the cells before it. Walking a log goes from the newest event back;
readers collect what they need and turn it round.

The pairing check walks back too and stops at the first tool event of the session that
names the call id: the newest such event is the call's current state.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

REQUIRED = {
    "user_message": ("content",),
    "assistant_message": ("content",),
    "tool_call": ("call_id", "name", "arguments"),
    "tool_result": ("call_id", "content"),
}
NON_EMPTY = frozenset({"call_id", "name"})


class Event(NamedTuple):
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


class Cell(NamedTuple):
    event: Event
    before: Cell | None
    size: int


class Log(NamedTuple):
    head: Cell | None = None

    @property
    def size(self) -> int:
        return 0 if self.head is None else self.head.size

    def newest_first(self) -> Iterator[Event]:
        cell = self.head
        while cell is not None:
            yield cell.event
            cell = cell.before

    def oldest_first(self) -> list[Event]:
        events = list(self.newest_first())
        events.reverse()
        return events


def create_event_log() -> Log:
    return Log()


def frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({key: frozen(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(frozen(item) for item in value)
    return value


def check(session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in REQUIRED:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError(f"session_id must be a non-empty str, got {session_id!r}")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for key in REQUIRED[event_type]:
        if key not in payload or not isinstance(payload[key], str):
            raise ValueError(f"{event_type} payload needs a str {key!r}")
        if key in NON_EMPTY and not payload[key]:
            raise ValueError(f"{key!r} must not be empty")


def newest_state(log: Log, session_id: str, call_id: str) -> str | None:
    for event in log.newest_first():
        if (event.session_id == session_id and event.type in ("tool_call", "tool_result")
                and event.payload["call_id"] == call_id):
            return event.type
    return None


def check_call(log: Log, session_id: str, event_type: str, call_id: str) -> None:
    state = newest_state(log, session_id, call_id)
    if event_type == "tool_call" and state is not None:
        raise ValueError(f"call_id {call_id!r} is already used in this session")
    if event_type == "tool_result" and state != "tool_call":
        what = "was never called" if state is None else "already has a result"
        raise ValueError(f"call_id {call_id!r} {what}")


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]
                 ) -> tuple[Log, Event]:
    check(session_id, event_type, payload)
    if event_type in ("tool_call", "tool_result"):
        check_call(log, session_id, event_type, payload["call_id"])
    event = Event(log.size + 1, session_id, event_type, frozen(payload))
    return Log(Cell(event, log.head, log.size + 1)), event


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0
                           ) -> tuple[Event, ...]:
    found = []
    for event in log.newest_first():
        if event.event_id <= after_event_id:
            break  # ids only get smaller from here
        if event.session_id == session_id:
            found.append(event)
    return tuple(reversed(found))


def list_sessions(log: Log) -> tuple[str, ...]:
    return tuple(dict.fromkeys(event.session_id for event in log.oldest_first()))


def replay_session(log: Log, session_id: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
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
            role = "user" if event.type == "user_message" else "assistant"
            messages.append({"role": role, "content": p["content"]})
    return messages
