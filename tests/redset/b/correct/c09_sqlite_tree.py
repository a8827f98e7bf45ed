"""Every log is a node in one SQLite table of events, linked to the log it was appended to.

An in-memory SQLite database holds a tree: each row is one event and points at its parent
row, and a log value is just the id of its newest row. Appending inserts one row and never
changes another, so every older log (any row) still describes exactly its own history, and
a branch is a second child of the same row. Reads walk from a log's row up to the root
with a recursive query.

What SQLite cannot keep as it is, is kept as bytes: session ids and call ids as their
UTF-8 with surrogates passed through (a lone surrogate is not valid UTF-8 text), payloads
as a pickle of plain data. Every read unpickles, so every reader gets objects of its own.
A row is deleted when the last log that can reach it is garbage collected.
"""

from __future__ import annotations

import pickle
import sqlite3
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

DB = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
DB.execute("""CREATE TABLE events (
    node INTEGER PRIMARY KEY, parent INTEGER, event_id INTEGER NOT NULL,
    session BLOB NOT NULL, type TEXT NOT NULL, call_id BLOB, payload BLOB NOT NULL)""")
CHAIN = """WITH RECURSIVE chain(node) AS (
    SELECT ? UNION ALL SELECT e.parent FROM events e JOIN chain c ON e.node = c.node
    WHERE e.parent IS NOT NULL)
SELECT e.event_id, e.session, e.type, e.payload FROM events e JOIN chain USING (node) """

REQUIRED = {
    "user_message": ("content",),
    "assistant_message": ("content",),
    "tool_call": ("call_id", "name", "arguments"),
    "tool_result": ("call_id", "content"),
}
LARGEST_ID = 2**62  # event ids stay far below this; a bound SQLite can hold


@dataclass(frozen=True, slots=True)
class Event:
    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


class Log:
    """A node of the tree (None for the empty log); keeps its parent's Log alive."""

    __slots__ = ("node", "size", "parent", "__weakref__")

    def __init__(self, node: int | None, size: int, parent: Log | None) -> None:
        self.node, self.size, self.parent = node, size, parent
        if node is not None:
            weakref.finalize(self, DB.execute, "DELETE FROM events WHERE node = ?", (node,))


def create_event_log() -> Log:
    return Log(None, 0, None)


def as_bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def as_text(data: bytes) -> str:
    return data.decode("utf-8", "surrogatepass")


def plain(value: Any) -> Any:
    """Plain dicts, lists and exact strs, picklable without any class of the caller's."""
    if isinstance(value, Mapping):
        return {plain(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, str):
        return str.__str__(value)
    return value


def frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({key: frozen(item) for key, item in value.items()})
    if isinstance(value, list):
        return tuple(frozen(item) for item in value)
    return value


def events_of(log: Log, where: str = "", params: tuple[Any, ...] = ()) -> list[Event]:
    if log.node is None:
        return []
    rows = DB.execute(CHAIN + where + " ORDER BY e.event_id", (log.node, *params)).fetchall()
    return [Event(i, as_text(s), t, frozen(pickle.loads(p))) for i, s, t, p in rows]


def check(log: Log, session_id: Any, event_type: Any, payload: Any) -> None:
    if not isinstance(event_type, str) or event_type not in REQUIRED:
        raise ValueError(f"unknown event type {event_type!r}")
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty str")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for key in REQUIRED[event_type]:
        if not isinstance(payload.get(key), str):
            raise ValueError(f"{key!r} must be a str")
        if key in ("call_id", "name") and not payload[key]:
            raise ValueError(f"{key!r} must not be empty")
    if event_type not in ("tool_call", "tool_result") or log.node is None:
        if event_type == "tool_result":
            raise ValueError("no call to answer")
        return
    rows = DB.execute(CHAIN + "WHERE e.session = ? AND e.call_id = ?",
                      (log.node, as_bytes(session_id), as_bytes(payload["call_id"]))).fetchall()
    kinds = sorted(kind for _, _, kind, _ in rows)
    if event_type == "tool_call" and kinds:
        raise ValueError("call_id already used in this session")
    if event_type == "tool_result" and kinds != ["tool_call"]:
        raise ValueError("call_id is not an open call of this session")


def append_event(log: Log, session_id: str, event_type: str, payload: Mapping[str, Any]
                 ) -> tuple[Log, Event]:
    check(log, session_id, event_type, payload)
    data = plain(payload)
    call_id = as_bytes(data["call_id"]) if event_type in ("tool_call", "tool_result") else None
    cursor = DB.execute(
        "INSERT INTO events (parent, event_id, session, type, call_id, payload)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (log.node, log.size + 1, as_bytes(session_id), str.__str__(event_type), call_id,
         pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)))
    new = Log(cursor.lastrowid, log.size + 1, log)
    return new, Event(log.size + 1, session_id, event_type, frozen(data))


def get_events_for_session(log: Log, session_id: str, after_event_id: int = 0
                           ) -> tuple[Event, ...]:
    after = max(-1, min(after_event_id, LARGEST_ID))
    where = "WHERE e.session = ? AND e.event_id > ?"
    return tuple(events_of(log, where, (as_bytes(session_id), after)))


def list_sessions(log: Log) -> tuple[str, ...]:
    return tuple(dict.fromkeys(event.session_id for event in events_of(log)))


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
