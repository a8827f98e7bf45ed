"""Correct: logs of one lineage share a growing list; a log is (shared list, its length).

Appending to the newest log of a lineage appends to the shared list in place and returns a
view one longer: O(1). Appending to an older log (a branch) copies the prefix the older log
sees into a new lineage. Indexes (positions per session, call states, session order) grow the
same way and are always cut at the log's own length, so a log never sees events appended
after it was made.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

KNOWN = ("user_message", "assistant_message", "tool_call", "tool_result")


@dataclass(frozen=True, slots=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


@dataclass(slots=True)
class Lineage:
    events: list = field(default_factory=list)
    positions: dict = field(default_factory=dict)  # session -> ascending positions
    calls: dict = field(default_factory=dict)  # (session, call id) -> [(position, state)]
    order: list = field(default_factory=list)  # sessions, by their first position
    first: list = field(default_factory=list)  # first position of each session in order

    def add(self, event: Event) -> None:
        position = len(self.events)
        self.events.append(event)
        if event.session_id not in self.positions:
            self.positions[event.session_id] = []
            self.order.append(event.session_id)
            self.first.append(position)
        self.positions[event.session_id].append(position)
        if event.type in ("tool_call", "tool_result"):
            key = (event.session_id, event.payload["call_id"])
            self.calls.setdefault(key, []).append((position, event.type))


@dataclass(frozen=True, slots=True)
class Log:
    lineage: Lineage
    length: int

    def call_state(self, session_id: str, call_id: str) -> str | None:
        entries = self.lineage.calls.get((session_id, call_id), [])
        cut = bisect_left(entries, self.length, key=lambda entry: entry[0])
        return entries[cut - 1][1] if cut else None

    def session_positions(self, session_id: str) -> list[int]:
        positions = self.lineage.positions.get(session_id, [])
        return positions[: bisect_left(positions, self.length)]


def create_event_log() -> Log:
    return Log(Lineage(), 0)


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def _validate(log: Log, session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in KNOWN:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    needed = {"user_message": "content", "assistant_message": "content",
              "tool_call": "call_id name arguments", "tool_result": "call_id content"}
    for key in needed[event_type].split():
        if not isinstance(payload.get(key), str):
            raise ValueError(f"payload[{key!r}] must be a string")
        if key in ("call_id", "name") and not payload[key]:
            raise ValueError(f"payload[{key!r}] must not be empty")
    if event_type in ("tool_call", "tool_result"):
        state = log.call_state(session_id, payload["call_id"])
        if event_type == "tool_call" and state is not None:
            raise ValueError("call id already used")
        if event_type == "tool_result" and state != "tool_call":
            raise ValueError("no open call")


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]):
    _validate(log, session_id, event_type, payload)
    event = Event(log.length + 1, session_id, event_type, _freeze(payload))
    lineage = log.lineage
    if log.length != len(lineage.events):
        lineage = Lineage()
        for earlier in log.lineage.events[: log.length]:
            lineage.add(earlier)
    lineage.add(event)
    return Log(lineage, log.length + 1), event


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0):
    events = log.lineage.events
    return tuple(events[p] for p in log.session_positions(session_id) if p + 1 > after_event_id)


def list_sessions(log: Log):
    count = bisect_left(log.lineage.first, log.length)
    return tuple(log.lineage.order[:count])


def replay_session(log: Log, session_id: str):
    messages: list[dict] = []
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
            role = "user" if event.type == "user_message" else "assistant"
            messages.append({"role": role, "content": p["content"]})
    return messages
