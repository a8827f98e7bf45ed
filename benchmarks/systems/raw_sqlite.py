"""The floor: plain ``sqlite3``, one ``INSERT`` and ``COMMIT`` per message, nothing else.

It opens its connection with the store's own ``open_connection`` (same pragmas: WAL, the
same synchronous, foreign keys, busy timeout, autocheckpoint) and the store's own schema
(same table, indexes, CHECKs and triggers), then writes only the event row: no payload
rules, no session check, no projection row. What our store costs above this line is
exactly what those three add.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from benchmarks.systems.base import AdapterInfo, Durability, Synchronous, connection_durability
from benchmarks.workload import ChatMessage
from sqlite_demo.store.sqlite.connection import apply_schema, open_connection

INFO = AdapterInfo(
    api="sqlite3: BEGIN IMMEDIATE; INSERT INTO events; COMMIT (our schema and pragmas)",
    tail="SELECT ... WHERE session_id = ? AND event_id > ?",
    settings="the store's open_connection: WAL, synchronous NORMAL or FULL as asked",
)

_SESSION_ID = "sess_benchmark"


class RawSqlite:
    """Hand-written SQL on the store's schema: the least work an append can be."""

    def __init__(self, directory: Path, synchronous: Synchronous) -> None:
        self._connection = open_connection(directory / "raw.db", synchronous=synchronous)
        apply_schema(self._connection)
        self._connection.execute(
            "INSERT INTO sessions (id, title, created_at) VALUES (?, 'benchmark', 0)",
            (_SESSION_ID,),
        )

    def append_each(self, messages: Sequence[ChatMessage]) -> None:
        connection = self._connection
        for message in messages:
            payload = json.dumps({"content": message.content}, ensure_ascii=False)
            connection.execute("BEGIN IMMEDIATE")
            connection.execute(
                "INSERT INTO events (session_id, type, payload, created_at) VALUES (?, ?, ?, 0)",
                (_SESSION_ID, message.event_type, payload),
            )
            connection.execute("COMMIT")

    def read_all(self) -> int:
        return len(self._select(after_event_id=0))

    def read_tail(self, after: int) -> int | None:
        # One session in a fresh file, so event ids are 1..N and "after" is an id.
        return len(self._select(after_event_id=after))

    def durability(self) -> Durability:
        return connection_durability(self._connection, "PRAGMA on the benchmark's connection")

    def close(self) -> None:
        self._connection.close()

    def _select(self, after_event_id: int) -> list[dict[str, str]]:
        rows = self._connection.execute(
            "SELECT type, payload FROM events WHERE session_id = ? AND event_id > ?"
            " ORDER BY event_id",
            (_SESSION_ID, after_event_id),
        )
        # Decoded to messages, like every other system's read, so the floor is a fair one.
        return [_as_message(event_type, payload) for event_type, payload in rows]


def _as_message(event_type: str, payload: str) -> dict[str, str]:
    return {"role": event_type.removesuffix("_message"), "content": json.loads(payload)["content"]}


def open_store(directory: Path, synchronous: Synchronous | None) -> RawSqlite:
    """Open the raw-SQL floor in ``directory`` with ``synchronous`` (NORMAL when None)."""
    return RawSqlite(directory, synchronous or "NORMAL")
