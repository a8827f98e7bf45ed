"""Everything as a fold: the log carries a state that each event updates, built with reduce.

A log is ``(events, calls)``: the events, and the pairing state as two frozensets of
``(session_id, call_id)``: ids called, and ids answered. ``append_event`` checks the
input against the state and folds the event in. Replay is ``functools.reduce`` over the
session's events with one small pure function per event type; the messages state is a
tuple of read-only messages, thawed into fresh dicts at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import reduce
from types import MappingProxyType
from typing import Any, NamedTuple

Messages = tuple[Mapping[str, Any], ...]


class Event(NamedTuple):
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


class Log(NamedTuple):
    events: tuple[Event, ...] = ()
    called: frozenset[tuple[str, str]] = frozenset()
    answered: frozenset[tuple[str, str]] = frozenset()


def create_event_log() -> Log:
    return Log()


def freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType(dict(zip(value.keys(), map(freeze, value.values()))))
    if isinstance(value, (list, tuple)):
        return tuple(map(freeze, value))
    return value


NEEDED: Mapping[str, tuple[tuple[str, bool], ...]] = MappingProxyType({
    "user_message": (("content", False),),
    "assistant_message": (("content", False),),
    "tool_call": (("call_id", True), ("name", True), ("arguments", False)),
    "tool_result": (("call_id", True), ("content", False)),
})


def refuse_if(condition: bool, why: str) -> None:
    if condition:
        raise ValueError(why)


def fold_in(log: Log, event: Event) -> Log:
    """The log with ``event`` folded in; only ever called with a checked event."""
    key = (event.session_id, event.payload.get("call_id"))
    called = log.called | {key} if event.type == "tool_call" else log.called
    answered = log.answered | {key} if event.type == "tool_result" else log.answered
    return Log(log.events + (event,), called, answered)


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]
                 ) -> tuple[Log, Event]:
    refuse_if(not isinstance(event_type, str) or event_type not in NEEDED, "unknown event type")
    refuse_if(not isinstance(session_id, str) or not session_id, "bad session_id")
    refuse_if(not isinstance(payload, Mapping), "payload must be a mapping")
    for key, non_empty in NEEDED[event_type]:
        value = payload.get(key)
        refuse_if(not isinstance(value, str), f"{key!r} must be a str")
        refuse_if(non_empty and not value, f"{key!r} must not be empty")
    if event_type in ("tool_call", "tool_result"):
        key = (str.__str__(session_id), str.__str__(payload["call_id"]))
        refuse_if(event_type == "tool_call" and key in log.called, "call_id already used")
        refuse_if(event_type == "tool_result" and key not in log.called, "call_id never called")
        refuse_if(event_type == "tool_result" and key in log.answered, "call already answered")
    event = Event(len(log.events) + 1, session_id, event_type, freeze(payload))
    return fold_in(log, event), event


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0
                           ) -> tuple[Event, ...]:
    return tuple(filter(lambda e: e.session_id == session_id and e.event_id > after_event_id,
                        log.events))


def list_sessions(log: Log) -> tuple[str, ...]:
    return reduce(lambda seen, e: seen if e.session_id in seen else (*seen, e.session_id),
                  log.events, ())


def said(role: str) -> Callable[[Messages, Mapping[str, Any]], Messages]:
    return lambda messages, p: (*messages, MappingProxyType({"role": role, "content": p["content"]}))


def called(messages: Messages, p: Mapping[str, Any]) -> Messages:
    call = MappingProxyType({"id": p["call_id"], "type": "function",
                             "function": MappingProxyType({"name": p["name"],
                                                           "arguments": p["arguments"]})})
    if messages and "tool_calls" in messages[-1]:
        last = messages[-1]
        return (*messages[:-1], MappingProxyType({**last, "tool_calls": (*last["tool_calls"], call)}))
    return (*messages, MappingProxyType({"role": "assistant", "content": None, "tool_calls": (call,)}))


def answered(messages: Messages, p: Mapping[str, Any]) -> Messages:
    return (*messages, MappingProxyType({"role": "tool", "tool_call_id": p["call_id"],
                                         "content": p["content"]}))


STEP: Mapping[str, Callable[[Messages, Mapping[str, Any]], Messages]] = MappingProxyType({
    "user_message": said("user"),
    "assistant_message": said("assistant"),
    "tool_call": called,
    "tool_result": answered,
})


def thaw(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


def replay_session(log: Log, session_id: str) -> list[dict[str, Any]]:
    messages: Messages = reduce(lambda state, e: STEP[e.type](state, e.payload),
                                get_events_for_session(log, session_id), ())
    return [thaw(message) for message in messages]
