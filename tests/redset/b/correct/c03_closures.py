"""A log made of closures: a log is a function, and the events it holds live in its cells.

``create_event_log`` returns a function that answers questions about an empty history;
``append_event`` returns a new function that closes over the old one's events plus one.
Nothing outside can reach the captured tuple except through the questions the function
answers, so an old log can never change.

Events are handed out as fresh ``SimpleNamespace`` objects built from the captured record
on every read; assigning to one changes only that copy. Payloads are frozen on the way in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType, SimpleNamespace
from typing import Any

Record = tuple[int, str, str, Mapping[str, Any]]
LogFunction = Callable[[str], Any]

SHAPES: dict[str, tuple[tuple[str, bool], ...]] = {
    "user_message": (("content", False),),
    "assistant_message": (("content", False),),
    "tool_call": (("call_id", True), ("name", True), ("arguments", False)),
    "tool_result": (("call_id", True), ("content", False)),
}


def closure_over(records: tuple[Record, ...]) -> LogFunction:
    def log(question: str) -> Any:
        if question == "records":
            return records
        if question == "size":
            return len(records)
        raise ValueError(f"a log cannot answer {question!r}")

    return log


def create_event_log() -> LogFunction:
    return closure_over(())


def as_event(record: Record) -> SimpleNamespace:
    event_id, session_id, event_type, payload = record
    return SimpleNamespace(event_id=event_id, session_id=session_id, type=event_type,
                           payload=payload)


def deep_freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({key: deep_freeze(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(map(deep_freeze, value))
    return value


def refuse_bad_input(session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in SHAPES:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or session_id == "":
        raise ValueError(f"session_id must be a non-empty str, not {session_id!r}")
    if not isinstance(payload, Mapping):
        raise ValueError(f"payload must be a mapping, not {type(payload).__name__}")
    for key, non_empty in SHAPES[event_type]:
        value = payload.get(key)
        if not isinstance(value, str):
            raise ValueError(f"payload[{key!r}] must be a str")
        if non_empty and value == "":
            raise ValueError(f"payload[{key!r}] must not be empty")


def refuse_bad_pairing(records: tuple[Record, ...], session_id: str, event_type: str,
                       call_id: str) -> None:
    mentions = [kind for _, sid, kind, p in records
                if sid == session_id and kind in ("tool_call", "tool_result")
                and p["call_id"] == call_id]
    if event_type == "tool_call" and mentions:
        raise ValueError(f"call_id {call_id!r} was already used in this session")
    if event_type == "tool_result" and "tool_call" not in mentions:
        raise ValueError(f"call_id {call_id!r} was never called in this session")
    if event_type == "tool_result" and "tool_result" in mentions:
        raise ValueError(f"call_id {call_id!r} already has a result")


def append_event(log: LogFunction, session_id: str, event_type: str,
                 payload: Mapping[str, Any]) -> tuple[LogFunction, SimpleNamespace]:
    refuse_bad_input(session_id, event_type, payload)
    records = log("records")
    if event_type in ("tool_call", "tool_result"):
        refuse_bad_pairing(records, session_id, event_type, payload["call_id"])
    record: Record = (len(records) + 1, session_id, event_type, deep_freeze(payload))
    return closure_over(records + (record,)), as_event(record)


def get_events_for_session(log: LogFunction, session_id: str, after_event_id: int = 0
                           ) -> list[SimpleNamespace]:
    return [as_event(r) for r in log("records") if r[1] == session_id and r[0] > after_event_id]


def list_sessions(log: LogFunction) -> list[str]:
    return list(dict.fromkeys(r[1] for r in log("records")))


def message_of(event_type: str, p: Mapping[str, Any]) -> dict[str, Any]:
    if event_type == "user_message":
        return {"role": "user", "content": p["content"]}
    if event_type == "assistant_message":
        return {"role": "assistant", "content": p["content"]}
    if event_type == "tool_result":
        return {"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]}
    function = {"name": p["name"], "arguments": p["arguments"]}
    return {"role": "assistant", "content": None,
            "tool_calls": [{"id": p["call_id"], "type": "function", "function": function}]}


def replay_session(log: LogFunction, session_id: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    last_type = None
    for _, sid, event_type, payload in log("records"):
        if sid != session_id:
            continue
        message = message_of(event_type, payload)
        if event_type == "tool_call" and last_type == "tool_call":
            messages[-1]["tool_calls"].extend(message["tool_calls"])
        else:
            messages.append(message)
        last_type = event_type
    return messages
