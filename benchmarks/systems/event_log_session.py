"""Our store as an OpenAI Agents SDK session: ``sqlite_demo.EventLogSession``.

Driven exactly as the ``openai_agents`` adapter drives ``SQLiteSession``, so the two rows
compare the same calls: each message is one ``await session.add_items([item])`` (one
``BEGIN IMMEDIATE`` transaction in a worker thread), reading is ``get_items()``, and a tail
is ``get_items(limit=k)``. It runs at synchronous FULL, the setting ``SQLiteSession`` is left
with, so the comparison is at equal durability.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

# Imported here, not only inside sqlite_demo: loading this adapter is the installation check
# (without the SDK the system is skipped with the install hint, never faked).
import agents  # noqa: F401

from benchmarks.systems.base import SYNCHRONOUS_NAMES, AdapterInfo, Durability, Synchronous
from benchmarks.workload import ChatMessage
from sqlite_demo import EventLogSession, SqliteEventStore

INFO = AdapterInfo(
    api="sqlite_demo.EventLogSession: await add_items([item]) / await get_items()",
    tail="get_items(limit=k): the newest k items, by count, as SQLiteSession's",
    settings="WAL always; synchronous chosen by the constructor, FULL here to match SQLiteSession",
)


class EventLogSessionStore:
    """One ``EventLogSession`` on a fresh file, driven from one event loop."""

    def __init__(self, directory: Path, synchronous: Synchronous) -> None:
        self._loop = asyncio.Runner()
        self._store = SqliteEventStore(directory / "event_log_session.db", synchronous=synchronous)
        self._session = EventLogSession("benchmark", self._store)
        self._count = 0

    def append_each(self, messages: Sequence[ChatMessage]) -> None:
        self._loop.run(self._append_each(messages))
        self._count += len(messages)

    async def _append_each(self, messages: Sequence[ChatMessage]) -> None:
        for message in messages:
            await self._session.add_items([dict(message.as_openai_message())])

    def read_all(self) -> int:
        return len(self._loop.run(self._session.get_items()))

    def read_tail(self, after: int) -> int | None:
        return len(self._loop.run(self._session.get_items(limit=self._count - after)))

    def durability(self) -> Durability:
        pragmas = self._store.pragmas()
        synchronous = SYNCHRONOUS_NAMES.get(int(pragmas["synchronous"]), "?")
        source = "PRAGMA on the store's own connection (SqliteEventStore.pragmas)"
        return Durability(str(pragmas["journal_mode"]), synchronous, source)

    def close(self) -> None:
        self._session.close()
        self._store.close()
        self._loop.close()


def open_store(directory: Path, synchronous: Synchronous | None) -> EventLogSessionStore:
    """Open an ``EventLogSession`` in ``directory`` at ``synchronous`` (FULL when None)."""
    return EventLogSessionStore(directory, synchronous or "FULL")
