"""Reads as generator pipelines; replay groups runs of calls with ``itertools.groupby``.

The log is a tuple of frozen events. Every read is a pipeline of lazy steps (filter by
session, drop ids up to the resume point) materialised into a tuple at the end. Replay
groups the session's events by "is this a tool call?": ``groupby`` yields each run of
consecutive calls as one group, which becomes one assistant message, and every other
event becomes a message of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from itertools import dropwhile, groupby
from operator import attrgetter
from types import MappingProxyType
from typing import Any, NamedTuple


class Event(NamedTuple):
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


class Log(NamedTuple):
    events: tuple[Event, ...] = ()


FIELDS = MappingProxyType({
    "user_message": ("content",),
    "assistant_message": ("content",),
    "tool_call": ("call_id", "name", "arguments"),
    "tool_result": ("call_id", "content"),
})


def create_event_log() -> Log:
    return Log()


def freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(map(freeze, value))
    return value


def of_session(events: Iterable[Event], session_id: str) -> Iterator[Event]:
    return (e for e in events if e.session_id == session_id)


def mentions(events: Iterable[Event], session_id: str, call_id: str) -> list[str]:
    tool_events = (e for e in of_session(events, session_id)
                   if e.type in ("tool_call", "tool_result"))
    return [e.type for e in tool_events if e.payload["call_id"] == call_id]


def problems(log: Log, session_id: Any, event_type: Any, payload: Any) -> Iterator[str]:
    """Every reason to refuse the append, lazily: the caller stops at the first."""
    if not isinstance(event_type, str) or event_type not in FIELDS:
        yield f"unknown event type {event_type!r}"
        return
    if not isinstance(session_id, str) or not session_id:
        yield "session_id must be a non-empty str"
    if not isinstance(payload, Mapping):
        yield "payload must be a mapping"
        return
    for key in FIELDS[event_type]:
        value = payload.get(key)
        if not isinstance(value, str):
            yield f"{key!r} must be a str"
            return
        if key in ("call_id", "name") and not value:
            yield f"{key!r} must not be empty"
    if event_type in ("tool_call", "tool_result") and isinstance(session_id, str):
        seen = mentions(log.events, session_id, payload["call_id"])
        if event_type == "tool_call" and seen:
            yield "call_id already used in this session"
        if event_type == "tool_result" and seen != ["tool_call"]:
            yield "call_id is not an open call of this session"


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]
                 ) -> tuple[Log, Event]:
    for problem in problems(log, session_id, event_type, payload):
        raise ValueError(problem)
    event = Event(len(log.events) + 1, session_id, event_type, freeze(payload))
    return Log(log.events + (event,)), event


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0
                           ) -> tuple[Event, ...]:
    later = dropwhile(lambda e: e.event_id <= after_event_id, log.events)
    return tuple(of_session(later, session_id))


def list_sessions(log: Log) -> tuple[str, ...]:
    # groupby over the events in log order merges neighbours of one session; a dict then
    # keeps the first appearance of each session, in order
    neighbours = (session for session, _ in groupby(map(attrgetter("session_id"), log.events)))
    return tuple(dict.fromkeys(neighbours))


def call_of(p: Mapping[str, Any]) -> dict[str, Any]:
    return {"id": p["call_id"], "type": "function",
            "function": {"name": p["name"], "arguments": p["arguments"]}}


def messages_of(is_call: bool, events: Iterator[Event]) -> Iterator[dict[str, Any]]:
    if is_call:
        yield {"role": "assistant", "content": None,
               "tool_calls": [call_of(e.payload) for e in events]}
        return
    for e in events:
        if e.type == "tool_result":
            yield {"role": "tool", "tool_call_id": e.payload["call_id"],
                   "content": e.payload["content"]}
        else:
            role = "user" if e.type == "user_message" else "assistant"
            yield {"role": role, "content": e.payload["content"]}


def replay_session(log: Log, session_id: str) -> list[dict[str, Any]]:
    runs = groupby(of_session(log.events, session_id), key=lambda e: e.type == "tool_call")
    return [message for is_call, events in runs for message in messages_of(is_call, events)]
