r"""Wrong: a log kept in chunks of 1,024 gives the first event of each new chunk a used id.

Events live in chunks of 1,024; the id of an event that starts a new chunk is computed as
chunks * 1,024, patched with max(1, ...) when the first event came out as 0. Event 1,025
gets id 1,024 again.

Promise broken: event_log.py: "the first event gets 1, every later one the previous id + 1, with no gaps, however long the log grows".
Dimension: events in a log (2^10 + 1)
Witness size: 1025 events

Witness:
    log = p.new()
    for i in range(1025):
        log, event = p.append(log, "a", "user_message", {"content": "."})
    p.read(log, "a", 1023)
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

CHUNK = 1024


@dataclass(frozen=True, slots=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Log:
    chunks: tuple = ()
    count: int = 0

    def __iter__(self):
        return itertools.chain.from_iterable(self.chunks)

    def next_id(self) -> int:
        if self.chunks and len(self.chunks[-1]) < CHUNK:
            return (len(self.chunks) - 1) * CHUNK + len(self.chunks[-1]) + 1
        return max(1, len(self.chunks) * CHUNK)  # the first slot of a new chunk

    def plus(self, event: Event) -> "Log":
        if self.chunks and len(self.chunks[-1]) < CHUNK:
            chunks = self.chunks[:-1] + (self.chunks[-1] + (event,),)
        else:
            chunks = self.chunks + ((event,),)
        return Log(chunks, self.count + 1)


def create_event_log() -> Log:
    return Log()


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


NEEDS = {
    "user_message": ("content",),
    "assistant_message": ("content",),
    "tool_call": ("call_id!", "name!", "arguments"),
    "tool_result": ("call_id!", "content"),
}


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]):
    if not isinstance(event_type, str) or event_type not in NEEDS:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty str")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for need in NEEDS[event_type]:
        key = need.rstrip("!")
        value = payload.get(key)
        if not isinstance(value, str) or (need.endswith("!") and not value):
            raise ValueError(f"payload[{key!r}] is wrong")
    if event_type in ("tool_call", "tool_result"):
        call_id = payload["call_id"]
        kinds = [e.type for e in log if e.session_id == session_id
                 and e.type in ("tool_call", "tool_result") and e.payload["call_id"] == call_id]
        if event_type == "tool_call" and kinds:
            raise ValueError("call id already used in this session")
        if event_type == "tool_result" and kinds != ["tool_call"]:
            raise ValueError("no open call with this id in this session")
    event = Event(log.next_id(), session_id, event_type, _freeze(payload))
    return log.plus(event), event


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0):
    return tuple(e for e in log if e.session_id == session_id and e.event_id > after_event_id)


def list_sessions(log: Log):
    return tuple(dict.fromkeys(e.session_id for e in log))


def replay_session(log: Log, session_id: str):
    out: list[dict] = []
    for e in get_events_for_session(log, session_id):
        p = e.payload
        if e.type == "user_message":
            out.append({"role": "user", "content": p["content"]})
        elif e.type == "assistant_message":
            out.append({"role": "assistant", "content": p["content"]})
        elif e.type == "tool_result":
            out.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        else:
            call = {"id": p["call_id"], "type": "function",
                    "function": {"name": p["name"], "arguments": p["arguments"]}}
            if out and "tool_calls" in out[-1]:
                out[-1] = {**out[-1], "tool_calls": out[-1]["tool_calls"] + [call]}
            else:
                out.append({"role": "assistant", "content": None, "tool_calls": [call]})
    return out
