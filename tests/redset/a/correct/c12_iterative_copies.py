"""Correct: plain dicts and lists everywhere, copied defensively, without recursion.

The log holds plain-data records nobody else has; every event handed out (by the append or by
a read) is a new ``SimpleNamespace`` with a new copy of the payload, so a caller may change
anything they get. The copier walks the payload with an explicit stack instead of recursion,
so no depth of nesting costs a Python frame.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any


def copy_tree(value: Any) -> Any:
    """A copy of JSON-like data: mappings become dicts, lists and tuples become lists."""
    holder: list = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, holder, 0)]
    while stack:
        source, target, slot = stack.pop()
        if isinstance(source, Mapping):
            made: Any = {}
            for key, item in source.items():
                made[key] = None
                stack.append((item, made, key))
        elif isinstance(source, (list, tuple)):
            made = [None] * len(source)
            for index, item in enumerate(source):
                stack.append((item, made, index))
        else:
            made = source
        target[slot] = made
    return holder[0]


def create_event_log() -> tuple:
    return ()


def _public(record: dict) -> SimpleNamespace:
    return SimpleNamespace(
        event_id=record["id"], session_id=record["session"], type=record["type"],
        payload=copy_tree(record["payload"]),
    )


def _problem(log: tuple, session_id: Any, event_type: Any, payload: Any) -> str | None:
    wanted = {"user_message": "content", "assistant_message": "content",
              "tool_call": "call_id name arguments", "tool_result": "call_id content"}
    if not isinstance(event_type, str) or event_type not in wanted:
        return "unknown event type"
    if not isinstance(session_id, str) or not session_id:
        return "session id must be a non-empty str"
    if not isinstance(payload, Mapping):
        return "payload must be a mapping"
    for key in wanted[event_type].split():
        if not isinstance(payload.get(key), str):
            return f"{key} must be a str"
    if not event_type.startswith("tool"):
        return None
    call_id = payload["call_id"]
    if not call_id or (event_type == "tool_call" and not payload["name"]):
        return "call_id and name must not be empty"
    last = None
    for record in log:
        if record["session"] == session_id and record.get("call_id") == call_id:
            last = record["type"]
    if event_type == "tool_call" and last is not None:
        return "call id already used"
    if event_type == "tool_result" and last != "tool_call":
        return "no open call with this id"
    return None


def append_event(log: tuple, session_id: str, event_type: str, payload: Mapping[str, Any]):
    problem = _problem(log, session_id, event_type, payload)
    if problem:
        raise ValueError(problem)
    record = {"id": len(log) + 1, "session": session_id, "type": event_type,
              "payload": copy_tree(payload)}
    if event_type in ("tool_call", "tool_result"):
        record["call_id"] = payload["call_id"]
    return log + (record,), _public(record)


def get_events_for_session(log: tuple, session_id: str, after_event_id: int = 0):
    return [_public(r) for r in log if r["session"] == session_id and r["id"] > after_event_id]


def list_sessions(log: tuple):
    names: list = []
    known: set = set()
    for record in log:
        if record["session"] not in known:
            known.add(record["session"])
            names.append(record["session"])
    return names


def replay_session(log: tuple, session_id: str):
    messages: list[dict] = []
    for r in log:
        if r["session"] != session_id:
            continue
        p = r["payload"]
        if r["type"] == "tool_call":
            call = {"id": p["call_id"], "type": "function",
                    "function": {"name": p["name"], "arguments": p["arguments"]}}
            if messages and "tool_calls" in messages[-1]:
                messages[-1]["tool_calls"].append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif r["type"] == "tool_result":
            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        else:
            messages.append({"role": "user" if r["type"] == "user_message" else "assistant",
                             "content": p["content"]})
    return messages
