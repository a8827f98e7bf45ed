"""The SQLite event store: an event log kept in a file that outlives the process.

The rules (``eventlog.validate_append``, the call-id rule) and the replay fold
(``eventlog.apply_event``) are the shared ones, and so is every read
(:class:`~sqlite_demo.store.base.SqlEventStore`). What this backend adds: one file, opened
with the pragmas the store needs, and appends run as ``BEGIN IMMEDIATE`` transactions
(:mod:`sqlite_demo.store.sqlite.writes`).

Threads: the store holds ONE connection and the kit's one lock; each call takes the lock
only for its SQL, so calls from a thread pool run their statements one at a time, and
decoding and folding what was read happens outside it. Other processes have their own
connections: WAL lets their readers run alongside our writer, and ``BEGIN IMMEDIATE``
queues the writers.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from eventlog import SessionExistsError, StorageError, StoredEvent
from eventlog.messages import sentence
from sqlite_demo.store.append_signal import AppendSignal, LocalAppendSignal
from sqlite_demo.store.base import CheckedEvents, SqlEventStore
from sqlite_demo.store.reads import ALL_EVENTS, MAX_INTEGER
from sqlite_demo.store.records import MessageRow, Session, ToolCallRow
from sqlite_demo.store.rows import ItemEvent, event_from_row
from sqlite_demo.store.sqlite import projections
from sqlite_demo.store.sqlite.connection import (
    Synchronous,
    apply_schema,
    check_writable,
    open_connection,
    write_transaction,
)
from sqlite_demo.store.sqlite.faults import translate_sqlite_errors
from sqlite_demo.store.sqlite.tails import Tails
from sqlite_demo.store.sqlite.writes import (
    ALONE_TYPES,
    append_alone,
    append_in_transaction,
    create_message_appends,
)

if TYPE_CHECKING:
    from sqlite_demo.store.contract import EventStore

#: The pragmas :meth:`SqliteEventStore.pragmas` reports.
_PRAGMAS = (
    "journal_mode",
    "synchronous",
    "foreign_keys",
    "busy_timeout",
    "wal_autocheckpoint",
    "cache_size",
)
#: SQLite's largest integer (64-bit, signed): no event id can be larger.
MAX_SQLITE_INTEGER: Final = MAX_INTEGER

__all__ = ["MessageRow", "Session", "SqliteEventStore", "StoredEvent", "ToolCallRow"]


class SqliteEventStore(SqlEventStore):
    """An append-only event log in one SQLite file, with projections kept in step.

    Args:
        path: the database file; created, with its schema, if missing.
        synchronous: ``"NORMAL"`` (default) survives a crash of the process, even SIGKILL, but
            may lose the last commits if the OS crashes or power fails; ``"FULL"`` fsyncs the
            WAL at every commit and survives those too, for one fsync per append.
        busy_timeout_ms: how long a write waits for another process's transaction to finish.
        wal_autocheckpoint_pages: WAL size (pages) that triggers copying it into the main
            file; 0 turns that off (tests use it to keep commits in the ``-wal`` file).

    Raises:
        StoreError: bad settings, a file of an older schema, or one that cannot use WAL.
        StorageError: the file cannot be opened or read (a read-only mount, a corrupt file).
    """

    _CREATION_ORDER = "rowid"  # grows with each insert; sessions are never deleted

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        synchronous: Synchronous = "NORMAL",
        busy_timeout_ms: int = 5000,
        wal_autocheckpoint_pages: int = 1000,
    ) -> None:
        self._path = Path(path)
        self._lock = threading.Lock()
        self._appends = LocalAppendSignal()
        # The newest items of the sessions read lately (sqlite_demo.store.sqlite.tails).
        self._tails = Tails()
        self._connection: sqlite3.Connection | None = open_connection(
            path,
            synchronous=synchronous,
            busy_timeout_ms=busy_timeout_ms,
            wal_autocheckpoint_pages=wal_autocheckpoint_pages,
        )
        try:
            apply_schema(self._connection)
            # The view whose trigger writes a chat message appended alone (writes.py).
            self._new_ids = create_message_appends(self._connection)
        except BaseException:
            self.close()
            raise
        # The one cursor every call of the store runs its statements on, behind the lock: a
        # new cursor per statement (what connection.execute makes) costs more than most of
        # the statements themselves.
        self._cursor = self._connection.cursor()

    @property
    def path(self) -> Path:
        """The database file this store writes to."""
        return self._path

    @property
    def append_signal(self) -> AppendSignal:
        """Subscriptions that wake when this store appends to a session (in this process
        only: another process's appends are found by reading; see
        :mod:`sqlite_demo.store.append_signal`)."""
        return self._appends

    def close(self) -> None:
        """Close the connection; closing twice is fine. Later calls raise :class:`StorageError`."""
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None
                self._tails.clear()

    def pragmas(self) -> dict[str, int | str]:
        """Return the pragmas in effect on this store's connection, as SQLite reports them.

        Keys: ``journal_mode`` ("wal"), ``synchronous`` (1 = NORMAL, 2 = FULL),
        ``foreign_keys`` (1), ``busy_timeout`` (ms), ``wal_autocheckpoint`` (pages),
        ``cache_size`` (negative: KiB).
        """
        return {name: self._fetch_all(f"PRAGMA {name}")[0][0] for name in _PRAGMAS}

    def check_writable(self, busy_timeout_ms: int = 100) -> None:
        """Prove that a write would succeed now, writing nothing; raise if it would not.

        See :func:`sqlite_demo.store.sqlite.connection.check_writable`; the short
        ``busy_timeout_ms`` keeps a health check from waiting the full busy timeout behind
        another writer.

        Raises:
            StorageError: with ``reason`` "read_only", "cannot_open", "busy", "disk_full", ...
        """
        with self._lock, translate_sqlite_errors():
            check_writable(self._live(), self._path, busy_timeout_ms)

    def newest_items_now(self, session_id: str, newest: int) -> list[ItemEvent] | None:
        """Return :meth:`get_items_in_force` of the newest few, if it can be read at once.

        None when another thread holds the store (a write is under way): the caller then
        reads in a thread of its own. A read of the newest few is answered from the tail the
        store keeps of the sessions it read lately, or else by a short walk of one index
        (:mod:`sqlite_demo.store.sqlite.tails`): cheaper than the hand-over to a worker
        thread and back, so an event loop may run it itself, provided it never waits on the
        store's lock; this is how :class:`~sqlite_demo.EventLogSession` answers
        ``get_items(limit=k)``.
        """
        if not self._lock.acquire(blocking=False):
            return None
        try:
            with translate_sqlite_errors():
                return self._tails.newest(self._sql(), session_id, newest)
        finally:
            self._lock.release()

    def rebuild_projections(self) -> None:
        """Throw both projections away and refold them from the events, in one transaction.

        Readers in other processes see the old projection until the new one is committed.
        """
        with self._lock, translate_sqlite_errors(), self._write() as sql:
            rows = sql.execute(ALL_EVENTS).fetchall()
            projections.rebuild_all(sql, map(event_from_row, rows))

    # -- what the shared methods ask of a backend -----------------------------------------

    def _fetch_all(self, sql: str, arguments: tuple[Any, ...] = ()) -> list[Any]:
        # The lock, then the live connection; a single SELECT reads one consistent snapshot
        # and needs no explicit transaction.
        with self._lock, translate_sqlite_errors():
            return self._sql().execute(sql, arguments).fetchall()

    def _insert_session(self, session: Session) -> None:
        with self._lock, translate_sqlite_errors(), self._write() as sql:
            try:
                sql.execute(
                    "INSERT INTO sessions (id, title, created_at) VALUES (?, ?, ?)",
                    (session.id, session.title, session.created_at),
                )
            except sqlite3.IntegrityError:
                raise SessionExistsError(
                    sentence("session.exists", session_id=session.id)
                ) from None

    def _append_checked(
        self, session_id: str, events: CheckedEvents, key: str | None, version: int | None
    ) -> list[StoredEvent]:
        # The lock and the transaction without a generator context: this is the hot path.
        # write_transaction translates SQLite's errors itself.
        if len(events) == 1 and key is None and version is None and events[0][0] in ALONE_TYPES:
            # Nothing to read first: one statement, its own transaction (writes.append_alone).
            event_type, payload = events[0]
            with self._lock:
                event = append_alone(self._sql(), self._new_ids, session_id, event_type, payload)
                self._tails.appended(session_id, (event,), False)
            self._appends.appended(session_id)
            return [event]
        with self._lock:
            with self._write() as sql:
                appended = []
                for event_type, payload in events:
                    appended.append(
                        append_in_transaction(sql, session_id, event_type, payload, key, version)
                    )
                    version = None  # the batch's own events move the session on
            # Committed: the session's tail takes the new items (after COMMIT, and behind the
            # lock, so no read sees the one without the other).
            self._tails.appended(session_id, appended, key is not None)
        # After COMMIT: a stream woken now finds the events when it reads.
        self._appends.appended(session_id)
        return appended

    # -- plumbing -------------------------------------------------------------------------

    def _live(self) -> sqlite3.Connection:
        if self._connection is None:
            raise StorageError(sentence("store.closed", where=self._path), reason="closed")
        return self._connection

    def _sql(self) -> sqlite3.Cursor:
        self._live()  # refuses a closed store
        return self._cursor

    def _write(self) -> write_transaction:
        return write_transaction(self._live(), self._cursor)


if TYPE_CHECKING:

    def _honours_the_port(store: SqliteEventStore) -> EventStore:
        # mypy checks this assignment: the store must honour the store contract.
        return store
