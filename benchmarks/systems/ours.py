"""Our SQLite event store, ``SqliteEventStore``: the system every other one is compared with.

Each append is a full ``append_event``: the payload rules, the event row (its session checked
by the foreign key) and its ``messages`` projection row, all in one ``BEGIN IMMEDIATE``
transaction. Reading the whole session is ``replay_session``: the API-ready chat messages a
model is sent, folded from the events by the shared fold; a tail is
``get_events_for_session(after_event_id=...)``, the resume path.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from benchmarks.systems.base import SYNCHRONOUS_NAMES, AdapterInfo, Durability, Synchronous
from benchmarks.workload import ChatMessage
from sqlite_demo.store.sqlite.store import SqliteEventStore

INFO = AdapterInfo(
    api="SqliteEventStore.append_event / replay_session",
    tail="get_events_for_session(after_event_id=id): events after a position",
    settings="WAL always; synchronous chosen by the constructor (NORMAL default, or FULL)",
)


class OurStore:
    """One session in a fresh :class:`SqliteEventStore`."""

    def __init__(self, directory: Path, synchronous: Synchronous) -> None:
        self._store = SqliteEventStore(directory / "ours.db", synchronous=synchronous)
        self._session_id = self._store.create_session("benchmark").id
        self._event_ids: list[int] = []

    def append_each(self, messages: Sequence[ChatMessage]) -> None:
        for message in messages:
            event = self._store.append_event(
                self._session_id, message.event_type, {"content": message.content}
            )
            # Kept so a tail read can name a real event id, as a resuming client would.
            self._event_ids.append(event.event_id)

    def read_all(self) -> int:
        return len(self._store.replay_session(self._session_id))

    def read_tail(self, after: int) -> int | None:
        last_seen = self._event_ids[after - 1] if after else 0
        return len(self._store.get_events_for_session(self._session_id, after_event_id=last_seen))

    def durability(self) -> Durability:
        pragmas = self._store.pragmas()
        synchronous = SYNCHRONOUS_NAMES.get(int(pragmas["synchronous"]), "?")
        source = "PRAGMA on the store's own connection (SqliteEventStore.pragmas)"
        return Durability(str(pragmas["journal_mode"]), synchronous, source)

    def close(self) -> None:
        self._store.close()


def open_store(directory: Path, synchronous: Synchronous | None) -> OurStore:
    """Open our store in ``directory`` with ``synchronous`` (NORMAL when None)."""
    return OurStore(directory, synchronous or "NORMAL")
