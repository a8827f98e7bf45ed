"""Correct: small pure functions composed; validation is a list of checks, replay a reduce.

Each check takes the log and the append and returns an error message or ``None``; the first
message found refuses the append. Payloads are stored as sorted tuples of pairs behind a
``PairMap`` view (a ``Mapping``), lists as tuples. Replay folds with ``functools.reduce``
over immutable tuples of messages and copies each message out at the end.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping
from functools import reduce
from typing import Any, NamedTuple, Optional


class PairMap(Mapping):
    __slots__ = ("_keys", "_values")

    def __init__(self, pairs: tuple) -> None:
        object.__setattr__(self, "_keys", tuple(k for k, _ in pairs))
        object.__setattr__(self, "_values", tuple(v for _, v in pairs))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(name)

    def __getitem__(self, key: str) -> Any:
        i = bisect_left(self._keys, key)
        if i < len(self._keys) and self._keys[i] == key:
            return self._values[i]
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


class Event(NamedTuple):
    event_id: int
    session_id: str
    type: str
    payload: PairMap


def freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        pairs = sorted(((str.__str__(k), freeze(v)) for k, v in value.items()), key=lambda kv: kv[0])
        return PairMap(tuple(pairs))
    if isinstance(value, (list, tuple)):
        return tuple(map(freeze, value))
    return value


def create_event_log() -> tuple:
    return ()


def _string_keys(event_type: str) -> tuple:
    return {"user_message": ("content",), "assistant_message": ("content",),
            "tool_call": ("call_id", "name", "arguments"),
            "tool_result": ("call_id", "content")}[event_type]


def _state(log: tuple, session_id: str, call_id: str) -> Optional[str]:
    mine = (e for e in log if e.session_id == session_id and e.type in ("tool_call", "tool_result"))
    return reduce(lambda s, e: e.type if e.payload["call_id"] == call_id else s, mine, None)


Check = Callable[[tuple, Any, Any, Any], Optional[str]]
CHECKS: tuple[Check, ...] = (
    lambda log, s, t, p: None if isinstance(t, str) and t in ("user_message", "assistant_message",
                                                              "tool_call", "tool_result")
    else "unknown event type",
    lambda log, s, t, p: None if isinstance(s, str) and s != "" else "session id must be a non-empty str",
    lambda log, s, t, p: None if isinstance(p, Mapping) else "payload must be a mapping",
    lambda log, s, t, p: next((f"{k} must be a str" for k in _string_keys(t)
                               if not isinstance(p.get(k), str)), None),
    lambda log, s, t, p: next((f"{k} must not be empty" for k in ("call_id", "name")
                               if k in _string_keys(t) and p[k] == ""), None),
    lambda log, s, t, p: "call id already used" if t == "tool_call"
    and _state(log, s, p["call_id"]) is not None else None,
    lambda log, s, t, p: "no open call" if t == "tool_result"
    and _state(log, s, p["call_id"]) != "tool_call" else None,
)


def append_event(log: tuple, session_id: str, event_type: str, payload: Any):
    error = next(filter(None, (check(log, session_id, event_type, payload) for check in CHECKS)), None)
    if error:
        raise ValueError(error)
    event = Event(len(log) + 1, session_id, event_type, freeze(payload))
    return log + (event,), event


def get_events_for_session(log: tuple, session_id: str, after_event_id: int = 0):
    return tuple(filter(lambda e: e.session_id == session_id and e.event_id > after_event_id, log))


def list_sessions(log: tuple):
    return reduce(lambda seen, e: seen if e.session_id in seen else seen + (e.session_id,), log, ())


def _step(messages: tuple, e: Event) -> tuple:
    p = e.payload
    if e.type == "tool_call":
        call = ("call", p["call_id"], p["name"], p["arguments"])
        if messages and messages[-1][0] == "calls":
            return messages[:-1] + (("calls", messages[-1][1] + (call,)),)
        return messages + (("calls", (call,)),)
    if e.type == "tool_result":
        return messages + (("tool", p["call_id"], p["content"]),)
    return messages + ((e.type, p["content"]),)


def _render(message: tuple) -> dict:
    if message[0] == "calls":
        calls = [{"id": c[1], "type": "function", "function": {"name": c[2], "arguments": c[3]}}
                 for c in message[1]]
        return {"role": "assistant", "content": None, "tool_calls": calls}
    if message[0] == "tool":
        return {"role": "tool", "tool_call_id": message[1], "content": message[2]}
    return {"role": "user" if message[0] == "user_message" else "assistant", "content": message[1]}


def replay_session(log: tuple, session_id: str):
    return [_render(m) for m in reduce(_step, get_events_for_session(log, session_id), ())]
