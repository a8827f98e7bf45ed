r"""Wrong: a branch takes over the shared list, cutting off the newer logs' events.

Appending to an older log writes the new event at that log's position in the shared list and
drops what came after: the branch reads right, but a newer log of the lineage now reads the
branch's event.

Promise broken: event_log.py: "The log passed in never changes ... appending to one log never changes another".
Dimension: a branch taken, then a read of a log newer than the branch
Witness size: 4 appends

Witness:
    log = p.new()
    one, _ = p.append(log, "a", "user_message", {"content": "x"})
    two, _ = p.append(one, "a", "user_message", {"content": "y"})
    three, _ = p.append(two, "a", "user_message", {"content": "z"})
    branch, _ = p.append(one, "a", "user_message", {"content": "b"})
    p.read(branch, "a")
    p.read(three, "a")
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

TYPES = {"user_message", "assistant_message", "tool_call", "tool_result"}


@dataclass(frozen=True, slots=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


class Log:
    """A view of the first ``length`` events of a list that later logs of the lineage share.

    Appending to the newest log of a lineage appends to the list in place (cheap); appending
    to an older one copies the events it sees into a new list.
    """

    __slots__ = ("_events", "_length")

    def __init__(self, events: list, length: int) -> None:
        self._events = events
        self._length = length

    def events(self) -> list:
        return self._events[: self._length]


def create_event_log() -> Log:
    return Log([], 0)


def freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def check(events: list, session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in TYPES:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty string")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    keys = {"user_message": ["content"], "assistant_message": ["content"],
            "tool_call": ["call_id", "name", "arguments"], "tool_result": ["call_id", "content"]}
    for key in keys[event_type]:
        if not isinstance(payload.get(key), str):
            raise ValueError(f"payload[{key!r}] must be a string")
        if key in ("call_id", "name") and payload[key] == "":
            raise ValueError(f"payload[{key!r}] must not be empty")
    if event_type in ("tool_call", "tool_result"):
        seen = [e.type for e in events if e.session_id == session_id
                and e.type in ("tool_call", "tool_result") and e.payload["call_id"] == payload["call_id"]]
        if event_type == "tool_call" and seen:
            raise ValueError("call_id already used in this session")
        if event_type == "tool_result" and seen != ["tool_call"]:
            raise ValueError("no open call with this call_id")


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]):
    check(log.events(), session_id, event_type, payload)
    event = Event(log._length + 1, session_id, event_type, freeze(payload))
    # The branch becomes the lineage's present: what came after it is history no one reads.
    log._events[log._length :] = [event]
    return Log(log._events, log._length + 1), event


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0):
    return tuple(e for e in log.events() if e.session_id == session_id and e.event_id > after_event_id)


def list_sessions(log: Log):
    return tuple(dict.fromkeys(e.session_id for e in log.events()))


def replay_session(log: Log, session_id: str):
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
