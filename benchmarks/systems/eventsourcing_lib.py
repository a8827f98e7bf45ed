"""The ``eventsourcing`` library: ``SQLiteApplicationRecorder``, its SQLite event recorder.

The recorder is the library's storage layer, below aggregates and applications: it stores
``StoredEvent`` rows (originator id, version, topic, state bytes) and reads them back by
originator, optionally after a version. A session is one originator, a message one event
whose state is the message as JSON, so the comparison is store against store, without the
aggregate machinery (mapper, transcoder) an ``Application`` would add on top.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

from benchmarks.systems.base import AdapterInfo, Durability, Synchronous, file_durability
from benchmarks.workload import ChatMessage

INFO = AdapterInfo(
    api="SQLiteApplicationRecorder: insert_events([StoredEvent]) / select_events(id)",
    tail="select_events(id, gt=version): events after a position",
    settings=(
        "the library sets WAL and never sets synchronous, so SQLite's default FULL applies;"
        " the datastore has no option for it"
    ),
)

_SESSION_ID = "benchmark"


class EventsourcingRecorder:
    """One originator's events in a fresh SQLite recorder."""

    def __init__(self, directory: Path) -> None:
        self._path = directory / "eventsourcing.db"
        self._datastore = SQLiteDatastore(str(self._path), originator_id_type="text")
        self._recorder = SQLiteApplicationRecorder(self._datastore)
        self._recorder.create_table()
        self._version = 0

    def append_each(self, messages: Sequence[ChatMessage]) -> None:
        for message in messages:
            self._version += 1
            state = json.dumps(message.as_openai_message(), ensure_ascii=False).encode()
            stored = StoredEvent(_SESSION_ID, self._version, f"chat:{message.role}", state)
            self._recorder.insert_events([stored])

    def read_all(self) -> int:
        return len(self._messages(after=None))

    def read_tail(self, after: int) -> int | None:
        return len(self._messages(after=after))

    def durability(self) -> Durability:
        source = "PRAGMA on a fresh connection; the library's source sets journal_mode only"
        return file_durability(self._path, source)

    def close(self) -> None:
        self._datastore.close()

    def _messages(self, after: int | None) -> list[dict[str, str]]:
        events = self._recorder.select_events(_SESSION_ID, gt=after)
        # Decoded to messages, like every other system's read.
        return [json.loads(event.state) for event in events]


def open_store(directory: Path, synchronous: Synchronous | None) -> EventsourcingRecorder:
    """Open the recorder in ``directory``; ``synchronous`` cannot be chosen and is ignored."""
    return EventsourcingRecorder(directory)
