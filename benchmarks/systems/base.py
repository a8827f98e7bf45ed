"""The one interface every benchmarked system is driven through, and how durability is read.

Each adapter module (``ours``, ``raw_sqlite``, ``openai_agents``, ``adk``, ``langgraph``,
``eventsourcing_lib``) wraps one system's public API in :class:`ChatStore` and describes
itself in an :class:`AdapterInfo`, so the runner never needs to know which system it drives.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, Protocol

from benchmarks.workload import ChatMessage

Synchronous = Literal["NORMAL", "FULL"]

#: What ``PRAGMA synchronous`` answers, as the names the SQLite documentation uses.
SYNCHRONOUS_NAMES: Final = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}


@dataclass(frozen=True, slots=True)
class Durability:
    """The settings that decide what survives a crash, as the system actually ran with them.

    Attributes:
        journal_mode: ``PRAGMA journal_mode`` of the database file ("wal", "delete", ...).
        synchronous: ``PRAGMA synchronous`` as a name ("NORMAL", "FULL", ...).
        source: how the two were found, so a reader can judge them.
    """

    journal_mode: str
    synchronous: str
    source: str

    @property
    def label(self) -> str:
        """A short form for tables, e.g. ``WAL + NORMAL``."""
        return f"{self.journal_mode.upper()} + {self.synchronous}"


@dataclass(frozen=True, slots=True)
class AdapterInfo:
    """What a reader must know to trust a system's figures.

    Attributes:
        api: the public calls the adapter uses to append and to read.
        tail: how a tail read is done, or None when the API has no way to read after a position.
        settings: whether the durability settings could be chosen, and how.
        max_messages: the largest session the runner may ask for, or None for no limit.
        limit_reason: why there is a limit, printed whenever a size is skipped.
    """

    api: str
    tail: str | None
    settings: str
    max_messages: int | None = None
    limit_reason: str = ""


class ChatStore(Protocol):
    """One system holding one session, opened on a fresh database in its own directory."""

    def append_each(self, messages: Sequence[ChatMessage]) -> None:
        """Append the messages in order, one public-API call (and one commit) per message.

        One method for the whole loop, not one call per message, so that async APIs run
        their loop in a single event loop, as an async application would, instead of paying
        for a new event loop turn-around per message that the system itself does not cost.
        """
        ...

    def read_all(self) -> int:
        """Read the whole session back through the API; return how many messages came back."""
        ...

    def read_tail(self, after: int) -> int | None:
        """Read the messages after the first ``after``; return how many, or None if unsupported."""
        ...

    def durability(self) -> Durability:
        """Report the journal mode and synchronous setting the system ran with."""
        ...

    def close(self) -> None:
        """Release connections, so the files on disk are complete and can be measured."""
        ...


def file_durability(database: Path, source: str) -> Durability:
    """Read the settings from a fresh connection to ``database``.

    ``journal_mode`` WAL is stored in the file, so any connection sees it. ``synchronous``
    is per connection: a fresh one shows SQLite's default, which is what the system ran with
    only when it never sets the pragma; ``source`` must say that this was checked.
    """
    connection = sqlite3.connect(database)
    try:
        return connection_durability(connection, source)
    finally:
        connection.close()


def connection_durability(connection: sqlite3.Connection, source: str) -> Durability:
    """Read the settings from the very connection the system writes through."""
    journal_mode = connection.execute("PRAGMA journal_mode").fetchone()[0]
    synchronous = connection.execute("PRAGMA synchronous").fetchone()[0]
    name = SYNCHRONOUS_NAMES.get(synchronous, str(synchronous))
    return Durability(str(journal_mode), name, source)
