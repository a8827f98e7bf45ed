"""The stores the peer goals compare, each filled with the same chat workload.

Ours through its public API (``SqliteEventStore``, ``EventLogSession``); the peers through
theirs: the OpenAI Agents SDK's ``SQLiteSession``, ``eventsourcing``'s SQLite recorder, and raw
sqlite3 on our own schema and pragmas (:mod:`benchmarks.systems.raw_sqlite`). Filling a store
is not timed, so it goes in batches; what is timed is in :mod:`benchmarks.peers`.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Self

from benchmarks.systems import ours, raw_sqlite
from benchmarks.systems.base import ChatStore
from benchmarks.workload import chat_messages
from sqlite_demo import EventLogSession, SqliteEventStore

#: Items or events written per call while a store is filled (untimed).
_FILL_BATCH: Final = 500
#: The peers that need a package, and the package.
_PACKAGES: Final = {"SQLiteSession": "agents", "eventsourcing": "eventsourcing"}
_SESSION: Final = "benchmark"


def missing_peers() -> list[str]:
    """Why each peer that cannot run here is left out (its package is not installed)."""
    return [
        f"{peer}: {package} is not installed (pip install -e '.[bench]')"
        for peer, package in _PACKAGES.items()
        if importlib.util.find_spec(package) is None
    ]


@dataclass
class SdkPair:
    """``EventLogSession`` and ``SQLiteSession``, both at synchronous FULL, on fresh files."""

    ours: Any
    theirs: Any

    @property
    def names(self) -> tuple[str, str]:
        return "EventLogSession (FULL)", "SQLiteSession (FULL)"

    async def check_equal(self) -> None:
        """Refuse to time a pair that disagrees on what it holds (untimed)."""
        for limit in (None, 20):
            mine, theirs = await self.ours.get_items(limit), await self.theirs.get_items(limit)
            if mine != theirs:
                raise AssertionError(f"get_items({limit}): {len(mine)} items, theirs {len(theirs)}")


class PeerStores:
    """Opens the stores of the section in ``directory``, and closes them all at the end."""

    def __init__(self, directory: Path) -> None:
        self._directory = directory
        self._cleanup = ExitStack()
        self._opened = 0

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exception: object) -> None:
        self._cleanup.close()

    def sdk_pair(self, size: int) -> SdkPair:
        """An empty pair of SDK sessions (``size`` only names the folder)."""
        from agents import SQLiteSession

        folder = self._folder(f"sdk-{size}")
        store = SqliteEventStore(folder / "ours.db", synchronous="FULL")
        self._cleanup.callback(store.close)
        theirs = SQLiteSession(_SESSION, folder / "theirs.db")
        self._cleanup.callback(theirs.close)
        return SdkPair(EventLogSession(_SESSION, store), theirs)

    def ours_appender(self) -> ChatStore:
        """Our store at NORMAL, one ``append_event`` per message."""
        return ours.open_store(self._folder("ours"), "NORMAL")

    def raw_appender(self) -> ChatStore:
        """Raw sqlite3 at NORMAL on our schema: the floor."""
        return raw_sqlite.open_store(self._folder("raw"), "NORMAL")

    def readers(self, size: int) -> dict[str, Callable[[], object]]:
        """Every read-all call, on stores holding ``size`` messages; ours are named "ours: "."""
        store, session_id = self._our_store(size)
        readers: dict[str, Callable[[], object]] = {
            "ours: get_events_for_session": lambda: store.get_events_for_session(session_id),
            "ours: replay_session": lambda: store.replay_session(session_id),
        }
        if importlib.util.find_spec("agents") is not None:
            readers["SQLiteSession.get_items()"] = self._sdk_reader(size)
        if importlib.util.find_spec("eventsourcing") is not None:
            readers["eventsourcing select_events"] = self._eventsourcing_reader(size)
        return readers

    def _our_store(self, size: int) -> tuple[SqliteEventStore, str]:
        store = SqliteEventStore(self._folder(f"read-{size}") / "ours.db")
        self._cleanup.callback(store.close)
        session_id = store.create_session("benchmark").id
        events = [(m.event_type, {"content": m.content}) for m in chat_messages(size)]
        for start in range(0, size, _FILL_BATCH):
            store.append_events(session_id, events[start : start + _FILL_BATCH])
        return store, session_id

    def _sdk_reader(self, size: int) -> Callable[[], object]:
        from agents import SQLiteSession

        loop = asyncio.new_event_loop()
        self._cleanup.callback(loop.close)
        session = SQLiteSession(_SESSION, self._folder(f"read-{size}") / "sdk.db")
        self._cleanup.callback(session.close)
        items: list[Any] = [m.as_openai_message() for m in chat_messages(size)]
        for start in range(0, size, _FILL_BATCH):
            loop.run_until_complete(session.add_items(items[start : start + _FILL_BATCH]))
        return lambda: loop.run_until_complete(session.get_items())

    def _eventsourcing_reader(self, size: int) -> Callable[[], object]:
        from eventsourcing.persistence import StoredEvent
        from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

        path = self._folder(f"read-{size}") / "eventsourcing.db"
        datastore = SQLiteDatastore(str(path), originator_id_type="text")
        self._cleanup.callback(datastore.close)
        recorder = SQLiteApplicationRecorder(datastore)
        recorder.create_table()
        events = [
            StoredEvent(
                _SESSION, number, f"chat:{m.role}", json.dumps(m.as_openai_message()).encode()
            )
            for number, m in enumerate(chat_messages(size), start=1)
        ]
        for start in range(0, size, _FILL_BATCH):
            recorder.insert_events(events[start : start + _FILL_BATCH])
        # Decoded to messages, as the chat benchmark's adapter reads them.
        return lambda: [json.loads(e.state) for e in recorder.select_events(_SESSION)]

    def _folder(self, name: str) -> Path:
        self._opened += 1
        folder = self._directory / f"{self._opened:02d}-{name}"
        folder.mkdir()
        return folder
