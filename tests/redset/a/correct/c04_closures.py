"""Correct: a log is a closure. Nothing but the functions below can reach what it holds.

``create_event_log`` returns a function that answers two questions, "your events?" and "where
does this call stand?". Appending builds a new closure over the old events plus one; the old
closure keeps answering as before. Events are tuples with named properties; payloads are
frozen into ``MappingProxyType`` and tuples.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import itemgetter
from types import MappingProxyType
from typing import Any


class Event(tuple):
    __slots__ = ()
    event_id = property(itemgetter(0))
    session_id = property(itemgetter(1))
    type = property(itemgetter(2))
    payload = property(itemgetter(3))


def _closure(events: tuple, calls: Mapping) -> Callable[[str], Any]:
    def ask(question: str) -> Any:
        return {"events": events, "calls": calls}[question]

    return ask


def create_event_log() -> Callable[[str], Any]:
    return _closure((), MappingProxyType({}))


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType(dict(zip(value.keys(), map(_freeze, value.values()))))
    if isinstance(value, (tuple, list)):
        return tuple(_freeze(v) for v in value)
    return value


def _check(payload: Mapping, key: str, non_empty: bool) -> None:
    if not isinstance(payload.get(key), str):
        raise ValueError(f"payload[{key!r}] must be a str")
    if non_empty and payload[key] == "":
        raise ValueError(f"payload[{key!r}] must not be empty")


SHAPES = {
    "user_message": {"content": False},
    "assistant_message": {"content": False},
    "tool_call": {"call_id": True, "name": True, "arguments": False},
    "tool_result": {"call_id": True, "content": False},
}


def append_event(log: Callable[[str], Any], session_id: str, event_type: str, payload: Any):
    shape = SHAPES.get(event_type) if isinstance(event_type, str) else None
    if shape is None:
        raise ValueError(f"unknown event type: {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty str")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a Mapping")
    for key, non_empty in shape.items():
        _check(payload, key, non_empty)
    events, calls = log("events"), log("calls")
    if event_type in ("tool_call", "tool_result"):
        key = (session_id, payload["call_id"])
        state = calls.get(key)
        if event_type == "tool_call" and state is not None:
            raise ValueError("call_id already used in this session")
        if event_type == "tool_result" and state != "open":
            raise ValueError("tool_result needs an open call")
        calls = MappingProxyType({**calls, key: "open" if event_type == "tool_call" else "done"})
    event = Event((len(events) + 1, session_id, event_type, _freeze(payload)))
    return _closure(events + (event,), calls), event


def get_events_for_session(log, session_id: str, after_event_id: int = 0):
    return tuple(e for e in log("events") if e[0] > after_event_id and e[1] == session_id)


def list_sessions(log):
    ordered: list[str] = []
    seen: set[str] = set()
    for e in log("events"):
        if e[1] not in seen:
            seen.add(e[1])
            ordered.append(e[1])
    return ordered


def replay_session(log, session_id: str):
    messages: list[dict] = []
    for e in get_events_for_session(log, session_id):
        kind, p = e[2], e[3]
        if kind == "user_message":
            messages.append({"role": "user", "content": p["content"]})
        elif kind == "assistant_message":
            messages.append({"role": "assistant", "content": p["content"]})
        elif kind == "tool_result":
            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        else:
            call = {"id": p["call_id"], "type": "function",
                    "function": {"name": p["name"], "arguments": p["arguments"]}}
            last = messages[-1] if messages else {}
            if "tool_calls" in last:
                last["tool_calls"].append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
    return messages
