"""Replay scaling: does reading one session get slower as the database around it grows?

One 100-event session is replayed from databases holding ever more events of other
sessions, up to 1,000,000 events across 10,000 sessions, and from a database holding only
that session. Because ``events`` has an index on ``(session_id, event_id)``, a replay reads
only its own session's rows, and its cost should not depend on what else the file holds.

The databases are built directly in SQL, through the store's own schema, with
``executemany`` in one transaction: a million appends through the API would
take many minutes and measure appending, which the chat benchmark already does. Events of
all sessions are interleaved round-robin, as concurrent conversations produce them, so the
replayed session's rows are spread over the whole file rather than sitting side by side.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from benchmarks.measure import median, time_once
from benchmarks.workload import ChatMessage, chat_messages
from sqlite_demo.store.sqlite.connection import apply_schema
from sqlite_demo.store.sqlite.store import SqliteEventStore

#: Every session in the scaling databases holds this many events, the replayed one too.
EVENTS_PER_SESSION = 100

Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class ReplayPoint:
    """Replaying the 100-event session from a database of ``total_events`` events.

    Attributes:
        total_events: events in the database, all sessions together.
        sessions: sessions in the database.
        replay_seconds: median time of ``replay_session`` once the file is open and read once.
        first_replay_seconds: the first replay after opening the store (cold SQLite cache).
        build_seconds: how long building the database took (not part of the result).
        size_bytes: the database files on disk.
        replay_samples: every timed replay, in round order (round-robin across sizes).
    """

    total_events: int
    sessions: int
    replay_seconds: float
    first_replay_seconds: float
    build_seconds: float
    size_bytes: int
    replay_samples: tuple[float, ...] = ()


def run_replay_scaling(
    total_events: Sequence[int], repeats: int, progress: Progress
) -> list[ReplayPoint]:
    """Build a database of each size, then time the session's replay in every one of them.

    All databases stay open together and the timed replays go round-robin across them, so
    a burst of load from elsewhere on the machine slows every size alike.

    Args:
        total_events: database sizes; each must be a multiple of 100 (one session = 100).
        repeats: how many timed replays per database the median is taken over.
    """
    with tempfile.TemporaryDirectory(prefix="bench-scaling-") as name, ExitStack() as stores:
        built = [_build(Path(name), total, progress) for total in total_events]
        opened = [stores.enter_context(SqliteEventStore(b.path)) for b in built]
        replays = [
            partial(_replay_checked, s, session_id(b.sessions // 2))
            for s, b in zip(opened, built, strict=True)
        ]
        firsts = [time_once(replay) for replay in replays]
        samples = _round_robin(replays, repeats)
    return [
        ReplayPoint(
            b.total, b.sessions, median(taken), first, b.seconds, b.size_bytes, tuple(taken)
        )
        for b, first, taken in zip(built, firsts, samples, strict=True)
    ]


def _round_robin(actions: Sequence[Callable[[], object]], repeats: int) -> list[list[float]]:
    samples: list[list[float]] = [[] for _ in actions]
    for _ in range(repeats):
        for action, taken in zip(actions, samples, strict=True):
            taken.append(time_once(action))
    return samples


@dataclass(frozen=True, slots=True)
class _Built:
    path: Path
    total: int
    sessions: int
    seconds: float
    size_bytes: int


def _build(directory: Path, total: int, progress: Progress) -> _Built:
    path = directory / f"events-{total}.db"
    sessions = total // EVENTS_PER_SESSION
    seconds = time_once(lambda: build_database(path, sessions))
    progress(f"replay scaling: database of {total:,} events built in {seconds:.1f} s")
    return _Built(path, total, sessions, seconds, path.stat().st_size)


def _replay_checked(store: SqliteEventStore, target: str) -> None:
    replayed = len(store.replay_session(target))
    if replayed != EVENTS_PER_SESSION:
        raise RuntimeError(f"replayed {replayed} messages of {target}, expected 100")


def session_id(index: int) -> str:
    """The id of the ``index``-th session of a scaling database."""
    return f"sess_{index:08d}"


def build_database(path: Path, sessions: int) -> None:
    """Create ``path`` with ``sessions`` sessions of 100 chat events each, interleaved.

    Rows go into ``sessions``, ``events`` and the ``messages`` projection exactly as the
    store would write them, so the store reads the result like any database of its own.
    """
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        _apply_bulk_load_pragmas(connection)
        apply_schema(connection)
        connection.execute("BEGIN IMMEDIATE")
        connection.executemany(_INSERT_SESSION, ((session_id(i),) for i in range(sessions)))
        connection.executemany(_INSERT_EVENT, _event_rows(sessions))
        connection.executemany(_INSERT_MESSAGE, _message_rows(sessions))
        connection.execute("COMMIT")
        # The store reads it in WAL mode; WAL is kept in the file once set.
        connection.execute("PRAGMA journal_mode = WAL")
    finally:
        connection.close()


def _apply_bulk_load_pragmas(connection: sqlite3.Connection) -> None:
    # A throwaway file built in one go: no crash can hurt it, so no fsync and the rollback
    # journal in memory, which keeps the 300 MB from being written twice (WAL, then file).
    connection.execute("PRAGMA journal_mode = MEMORY")
    connection.execute("PRAGMA synchronous = OFF")
    connection.execute("PRAGMA foreign_keys = ON")
    # A big page cache lets the (session_id, event_id) index, which round-robin ids hit
    # all over, be built in memory instead of page by page on disk.
    connection.execute(f"PRAGMA cache_size = {-_BUILD_CACHE_KIB}")


_BUILD_CACHE_KIB = 256 * 1024
_INSERT_SESSION = "INSERT INTO sessions (id, title, created_at) VALUES (?, 'scaling', 0)"
_INSERT_EVENT = (
    "INSERT INTO events (event_id, session_id, type, payload, created_at) VALUES (?, ?, ?, ?, 0)"
)
_INSERT_MESSAGE = (
    "INSERT INTO messages (session_id, event_id, role, content, created_at) VALUES (?, ?, ?, ?, 0)"
)


def _event_rows(sessions: int) -> Iterator[tuple[int, str, str, str]]:
    for event_id, sid, message in _interleaved(sessions):
        yield event_id, sid, message.event_type, json.dumps({"content": message.content})


def _message_rows(sessions: int) -> Iterator[tuple[str, int, str, str]]:
    for event_id, sid, message in _interleaved(sessions):
        yield sid, event_id, message.role, message.content


def _interleaved(sessions: int) -> Iterator[tuple[int, str, ChatMessage]]:
    # Round-robin: event k belongs to session k mod sessions, and each session still
    # alternates user and assistant messages, as a conversation does.
    ids = [session_id(index) for index in range(sessions)]
    for position, message in enumerate(chat_messages(EVENTS_PER_SESSION)):
        for index, sid in enumerate(ids):
            yield position * sessions + index + 1, sid, message
