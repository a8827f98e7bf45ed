"""OpenAI Agents SDK: ``agents.SQLiteSession``, the session memory ``Runner.run`` writes to.

Each message is one ``await session.add_items([item])``, which runs one transaction in a
worker thread (``asyncio.to_thread``). Reading is ``get_items()``; the API has no "after
position" read, but ``get_items(limit=k)`` returns the newest k items, which is the same
tail when k is known, so it stands in for one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agents import SQLiteSession

from benchmarks.systems.base import AdapterInfo, Durability, Synchronous, file_durability
from benchmarks.workload import ChatMessage

INFO = AdapterInfo(
    api="agents.SQLiteSession: await add_items([item]) / await get_items()",
    tail="get_items(limit=k): the newest k items, by count, not after a position",
    settings=(
        "the library sets WAL and never sets synchronous, so SQLite's default FULL applies;"
        " neither can be chosen through the API"
    ),
)


class OpenAIAgentsSession:
    """One ``SQLiteSession`` on a fresh file, driven from one event loop."""

    def __init__(self, directory: Path) -> None:
        self._path = directory / "openai_agents.db"
        self._loop = asyncio.Runner()
        self._session = SQLiteSession("benchmark", self._path)
        self._count = 0

    def append_each(self, messages: Sequence[ChatMessage]) -> None:
        self._loop.run(self._append_each(messages))
        self._count += len(messages)

    async def _append_each(self, messages: Sequence[ChatMessage]) -> None:
        for message in messages:
            # Typed as Any: the SDK's item type is a large union our plain dict need not name.
            item: Any = message.as_openai_message()
            await self._session.add_items([item])

    def read_all(self) -> int:
        return len(self._loop.run(self._session.get_items()))

    def read_tail(self, after: int) -> int | None:
        return len(self._loop.run(self._session.get_items(limit=self._count - after)))

    def durability(self) -> Durability:
        source = "PRAGMA on a fresh connection; the library's source sets journal_mode only"
        return file_durability(self._path, source)

    def close(self) -> None:
        self._session.close()
        self._loop.close()


def open_store(directory: Path, synchronous: Synchronous | None) -> OpenAIAgentsSession:
    """Open a ``SQLiteSession`` in ``directory``; ``synchronous`` cannot be chosen: ignored."""
    return OpenAIAgentsSession(directory)
