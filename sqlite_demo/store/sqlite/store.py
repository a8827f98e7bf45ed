"""The SQLite event store: an event log kept in a file that outlives the process.

The rules (``eventlog.validate_append``, the call-id rule) and the replay fold
(``eventlog.replay_events``) are the shared ones. What SQLite adds: sessions are created
before they are written to, projections for fast reads, idempotency keys for retried
requests, an expected version for writers that decide on what they read, and durability.

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
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Self

from eventlog import (
    SessionExistsError,
    StorageError,
    StoredEvent,
    StoreError,
    UnknownSessionError,
    check_session_id,
    check_text,
    validate_append,
)
from eventlog.messages import sentence
from sqlite_demo.store.append_signal import AppendSignal, LocalAppendSignal
from sqlite_demo.store.records import (
    MessageRow,
    Session,
    ToolCallRow,
    new_session_id,
    now_ms,
    replay_rows,
)
from sqlite_demo.store.sqlite import projections
from sqlite_demo.store.sqlite.connection import (
    Synchronous,
    apply_schema,
    check_writable,
    open_connection,
    write_transaction,
)
from sqlite_demo.store.sqlite.faults import translate_sqlite_errors
from sqlite_demo.store.sqlite.writes import EVENT_COLUMNS, append_in_transaction, event_from_row

if TYPE_CHECKING:
    from sqlite_demo.store.contract import EventStore

#: The pragmas :meth:`SqliteEventStore.pragmas` reports.
_PRAGMAS = ("journal_mode", "synchronous", "foreign_keys", "busy_timeout", "wal_autocheckpoint")
#: SQLite's largest integer (64-bit, signed): no event id can be larger.
MAX_SQLITE_INTEGER: Final = 2**63 - 1

__all__ = ["MessageRow", "Session", "SqliteEventStore", "StoredEvent", "ToolCallRow"]


class SqliteEventStore:
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
        self._connection: sqlite3.Connection | None = open_connection(
            path,
            synchronous=synchronous,
            busy_timeout_ms=busy_timeout_ms,
            wal_autocheckpoint_pages=wal_autocheckpoint_pages,
        )
        try:
            apply_schema(self._connection)
        except BaseException:
            self.close()
            raise

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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()

    def pragmas(self) -> dict[str, int | str]:
        """Return the pragmas in effect on this store's connection, as SQLite reports them.

        Keys: ``journal_mode`` ("wal"), ``synchronous`` (1 = NORMAL, 2 = FULL),
        ``foreign_keys`` (1), ``busy_timeout`` (ms), ``wal_autocheckpoint`` (pages).
        """
        with self._sql() as connection:
            return {name: connection.execute(f"PRAGMA {name}").fetchone()[0] for name in _PRAGMAS}

    def check_writable(self, busy_timeout_ms: int = 100) -> None:
        """Prove that a write would succeed now, writing nothing; raise if it would not.

        See :func:`sqlite_demo.store.sqlite.connection.check_writable`; the short
        ``busy_timeout_ms`` keeps a health check from waiting the full busy timeout behind
        another writer.

        Raises:
            StorageError: with ``reason`` "read_only", "cannot_open", "busy", "disk_full", ...
        """
        with self._sql() as connection:
            check_writable(connection, self._path, busy_timeout_ms)

    # -- sessions -------------------------------------------------------------------------

    def create_session(self, title: str, *, session_id: str | None = None) -> Session:
        """Create a session and return it.

        Args:
            title: a human-readable name (any string, even empty).
            session_id: leave it out for ``"sess_"`` + 128 random bits as 32 hex digits,
                unguessable and unique without coordination; tests pass their own.

        Raises:
            StoreError: a ``title`` that is not a string of valid text; InvalidSessionIdError
                and SessionExistsError: a bad ``session_id``, or one that is taken.
        """
        check_text(title, "title", StoreError, non_empty=False)
        if session_id is None:
            session_id = new_session_id()
        session = Session(check_session_id(session_id), title, now_ms())
        with self._sql() as connection, write_transaction(connection):
            try:
                connection.execute(
                    "INSERT INTO sessions (id, title, created_at) VALUES (?, ?, ?)",
                    (session.id, session.title, session.created_at),
                )
            except sqlite3.IntegrityError:
                raise SessionExistsError(
                    sentence("session.exists", session_id=session.id)
                ) from None
        return session

    def get_session(self, session_id: str) -> Session:
        """Return the session with this id.

        Raises:
            UnknownSessionError: there is none.
        """
        with self._sql() as connection:
            row = connection.execute(
                "SELECT id, title, created_at FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
        if row is None:
            raise UnknownSessionError(sentence("session.unknown", session_id=session_id))
        return Session(*row)

    def list_all_sessions(self) -> list[Session]:
        """Return every created session, with or without events, in the order of creation."""
        with self._sql() as connection:
            # rowid grows with each insert, and sessions are never deleted: creation order.
            rows = connection.execute(
                "SELECT id, title, created_at FROM sessions ORDER BY rowid"
            ).fetchall()
        return [Session(*row) for row in rows]

    def list_active_session_ids(self) -> list[str]:
        """Return the ids of sessions that have events, in the order of their first event.

        This is the pure core's ``list_sessions``: sessions without events are left out.
        """
        with self._sql() as connection:
            rows = connection.execute(
                "SELECT session_id FROM events GROUP BY session_id ORDER BY MIN(event_id)"
            ).fetchall()
        return [session_id for (session_id,) in rows]

    # -- the log --------------------------------------------------------------------------

    def append_event(
        self,
        session_id: str,
        event_type: str,
        payload: Mapping[str, Any],
        *,
        idempotency_key: str | None = None,
        expected_version: int | None = None,
    ) -> StoredEvent:
        """Append one event and update its projection, in one transaction; return the event.

        Args:
            session_id: an existing session (see :meth:`create_session`).
            event_type: one of :data:`eventlog.STORE_EVENT_TYPES`: the chapter's four
                (``user_message``, ``assistant_message``, ``tool_call``, ``tool_result``),
                ``agent_item``, or a correction (``item_removed``, ``session_cleared``).
            payload: the event's details, checked by :func:`eventlog.validate_append`.
            idempotency_key: a non-empty string naming this request, so that a retry of it
                (same session, key, type and payload) returns the event appended the first
                time and appends nothing, whatever else changed since.
            expected_version: the session's last event id (0 when empty) that the caller's
                decision was based on; checked inside the transaction, so that no event is
                ever appended to a session that moved on since it was read.

        Returns:
            The stored event; its ``event_id`` is the next number of one global sequence.

        Raises:
            ValueError: for every refusal, and nothing is written: the shared rules'
                errors, UnknownSessionError, IdempotencyConflictError (the key was used for
                another request), VersionConflictError, CorrectionError (a correction that
                does not point at what it may supersede), StoreError (a bad key; SQLite
                refused or failed: :class:`StorageError`).
        """
        stored_payload = validate_append(session_id, event_type, payload)
        if idempotency_key is not None:
            check_text(idempotency_key, "idempotency_key", StoreError, non_empty=True)
        # The lock and the transaction without _sql()'s generator: this is the hot path.
        with self._lock, write_transaction(self._live()) as sql:
            key, version = idempotency_key, expected_version
            event = append_in_transaction(sql, session_id, event_type, stored_payload, key, version)
        # After COMMIT: a stream woken now finds the event when it reads.
        self._appends.appended(session_id)
        return event

    def append_events(
        self,
        session_id: str,
        events: Sequence[tuple[str, Mapping[str, Any]]],
        *,
        expected_version: int | None = None,
    ) -> list[StoredEvent]:
        """Append several events, each with its projection, in ONE transaction: all or none.

        What an agent framework's ``add_items`` of several items needs: a reader (in this
        process or another) sees none of them or all of them, and a failure at the last one
        leaves the log as it was. Each event is checked as :meth:`append_event` checks it,
        and the rules that read the log see the events of the batch before it (a tool_call
        and its tool_result can come in one batch).

        Args:
            session_id: an existing session.
            events: ``(event_type, payload)`` pairs, in the order they happened.
            expected_version: as for :meth:`append_event`, checked once, before the first.

        Returns:
            The stored events, in order; an empty list for an empty batch (nothing written).

        Raises:
            ValueError: as :meth:`append_event`, for the first event that is refused;
                nothing of the batch is written.
        """
        checked = [validate_append(session_id, kind, payload) for kind, payload in events]
        if not checked:
            return []
        with self._lock, write_transaction(self._live()) as sql:
            version = expected_version
            appended = []
            for (kind, _), payload in zip(events, checked, strict=True):
                appended.append(
                    append_in_transaction(sql, session_id, kind, payload, None, version)
                )
                version = None  # the batch's own events move the session on
        self._appends.appended(session_id)
        return appended

    def get_events_for_session(
        self, session_id: str, after_event_id: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """Return the session's events with ``event_id > after_event_id``, oldest first.

        An unknown session has no events, so it gives an empty list, as in the pure core,
        rather than an error: "nothing after id N" and "no such session" look the same here.

        Args:
            limit: at most this many events (the oldest of them); None for all.
        """
        after, most = _clamp_to_sqlite_integer(after_event_id), -1 if limit is None else limit
        with self._sql() as connection:
            rows = connection.execute(
                f"SELECT {EVENT_COLUMNS} FROM events"
                " WHERE session_id = ? AND event_id > ? ORDER BY event_id LIMIT ?",
                (session_id, after, most),
            ).fetchall()
        return [event_from_row(row) for row in rows]

    def replay_session(self, session_id: str) -> list[dict[str, Any]]:
        """Fold the session's events into OpenAI Chat Completions messages (fresh every call).

        The fold is the shared one; what makes this read fast is decoding every payload of
        the session in one ``json.loads`` call instead of one call per event.
        """
        with self._sql() as connection:
            rows = connection.execute(
                "SELECT event_id, type, payload FROM events WHERE session_id = ? ORDER BY event_id",
                (session_id,),
            ).fetchall()
        return replay_rows(rows)

    # -- projections ----------------------------------------------------------------------

    def get_messages(
        self, session_id: str, after_event_id: int = 0, limit: int | None = None
    ) -> list[MessageRow]:
        """Return the session's user and assistant messages from the projection, in event order.

        The fast read path for showing a chat; tool events are in :meth:`get_tool_calls`.

        Args:
            after_event_id: only the rows of events after this one.
            limit: at most this many rows (the oldest of them); None for all.
        """
        after, most = _clamp_to_sqlite_integer(after_event_id), -1 if limit is None else limit
        with self._sql() as connection:
            return projections.read_messages(connection, session_id, after, most)

    def get_tool_calls(
        self, session_id: str, after_event_id: int = 0, limit: int | None = None
    ) -> list[ToolCallRow]:
        """Return the session's tool calls from the projection, each with its result if any.

        Args:
            after_event_id: only the calls made by events after this one.
            limit: at most this many rows (the oldest of them); None for all.
        """
        after, most = _clamp_to_sqlite_integer(after_event_id), -1 if limit is None else limit
        with self._sql() as connection:
            return projections.read_tool_calls(connection, session_id, after, most)

    def rebuild_projections(self) -> None:
        """Throw both projections away and refold them from the events, in one transaction.

        Readers in other processes see the old projection until the new one is committed.
        """
        with self._sql() as connection, write_transaction(connection):
            rows = connection.execute(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY event_id")
            projections.rebuild_all(connection, map(event_from_row, rows.fetchall()))

    # -- plumbing -------------------------------------------------------------------------

    @contextmanager
    def _sql(self) -> Iterator[sqlite3.Connection]:
        # The lock, then the live connection; a single SELECT reads one consistent snapshot
        # and needs no explicit transaction, a write adds write_transaction() inside.
        with self._lock, translate_sqlite_errors():
            yield self._live()

    def _live(self) -> sqlite3.Connection:
        if self._connection is None:
            raise StorageError(sentence("store.closed", where=self._path), reason="closed")
        return self._connection


if TYPE_CHECKING:

    def _honours_the_port(store: SqliteEventStore) -> EventStore:
        # mypy checks this assignment: the store must honour the store contract.
        return store


def _clamp_to_sqlite_integer(value: int) -> int:
    # SQLite integers are 64-bit; Python's are not. Every event id lies inside that range, so
    # clamping changes no answer and keeps "after 2**64" meaning "nothing", as in the pure core.
    return max(-MAX_SQLITE_INTEGER - 1, min(value, MAX_SQLITE_INTEGER))
