"""The SQLite event store: the pure core's event log, kept in a file that outlives the process.

Same rules as the pure core (``eventlog.validate_append``, ``eventlog.check_call_id``), same
fold (``eventlog.replay_events``), so for the same appends both give the same events, ids,
session order and replay. What SQLite adds: sessions are created before they are written to,
projections for fast reads, idempotency keys for retried requests, and durability.

Threads: the store holds ONE connection and a lock; every method takes the lock, so calls
from a thread pool run one at a time and a read never sees another thread's half-done write.
Other processes get their own connections: WAL lets their readers run alongside our writer.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from eventlog import InvalidSessionIdError, replay_events, validate_append
from sqlite_demo import projections
from sqlite_demo.connection import (
    Synchronous,
    apply_schema,
    open_connection,
    translate_sqlite_errors,
    write_transaction,
)
from sqlite_demo.errors import StorageError, StoreError, UnknownSessionError
from sqlite_demo.rows import (
    EVENT_COLUMNS,
    MessageRow,
    Session,
    StoredEvent,
    ToolCallRow,
    event_from_row,
    session_from_row,
)
from sqlite_demo.writes import (
    append_in_transaction,
    find_by_idempotency_key,
    insert_session,
    now_ms,
)

if TYPE_CHECKING:
    from eventlog.ports import EventStore

#: The pragmas :meth:`SqliteEventStore.pragmas` reports.
_PRAGMAS = ("journal_mode", "synchronous", "foreign_keys", "busy_timeout", "wal_autocheckpoint")

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
        StoreError: bad settings, or the file cannot be opened in WAL mode.
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
        self._lock = threading.RLock()
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

    def close(self) -> None:
        """Close the connection; closing twice is fine. Later calls raise :class:`StorageError`."""
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def pragmas(self) -> dict[str, int | str]:
        """Return the pragmas in effect on this store's connection, as SQLite reports them.

        Keys: ``journal_mode`` ("wal"), ``synchronous`` (1 = NORMAL, 2 = FULL),
        ``foreign_keys`` (1), ``busy_timeout`` (ms), ``wal_autocheckpoint`` (pages).
        """
        with self._reading() as connection:
            return {name: connection.execute(f"PRAGMA {name}").fetchone()[0] for name in _PRAGMAS}

    # -- sessions -------------------------------------------------------------------------

    def create_session(self, title: str, *, session_id: str | None = None) -> Session:
        """Create a session and return it.

        Args:
            title: a human-readable name (any string, even empty).
            session_id: leave it out for ``"sess_"`` + 128 random bits as 32 hex digits,
                unguessable and unique without coordination; tests pass their own.

        Raises:
            StoreError: ``title`` is not a string.
            InvalidSessionIdError: an explicit ``session_id`` that is not a non-empty string.
            SessionExistsError: a session with that id exists already.
        """
        if not isinstance(title, str):
            raise StoreError(f"title must be a string, got {type(title).__name__}")
        if session_id is None:
            session_id = "sess_" + secrets.token_hex(16)
        elif not isinstance(session_id, str) or not session_id:
            raise InvalidSessionIdError(f"session_id must be a non-empty string: {session_id!r}")
        session = Session(session_id, title, now_ms())
        with self._writing() as connection:
            insert_session(connection, session)
        return session

    def get_session(self, session_id: str) -> Session:
        """Return the session with this id.

        Raises:
            UnknownSessionError: there is none.
        """
        with self._reading() as connection:
            row = connection.execute(
                "SELECT id, title, created_at FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
        if row is None:
            raise UnknownSessionError(f"no session with id {session_id!r}")
        return session_from_row(row)

    def list_sessions(self) -> list[Session]:
        """Return every session, with or without events, in the order they were created."""
        with self._reading() as connection:
            # rowid grows with each insert, and sessions are never deleted: creation order.
            rows = connection.execute("SELECT id, title, created_at FROM sessions ORDER BY rowid")
            return [session_from_row(row) for row in rows]

    def list_active_session_ids(self) -> list[str]:
        """Return the ids of sessions that have events, in the order of their first event.

        This is the pure core's ``list_sessions``: sessions without events are left out.
        """
        with self._reading() as connection:
            rows = connection.execute(
                "SELECT session_id FROM events GROUP BY session_id ORDER BY MIN(event_id)"
            )
            return [session_id for (session_id,) in rows]

    # -- the log --------------------------------------------------------------------------

    def append_event(
        self,
        session_id: str,
        event_type: str,
        payload: Mapping[str, Any],
        *,
        idempotency_key: str | None = None,
    ) -> StoredEvent:
        """Append one event and update its projection, in one transaction; return the event.

        Args:
            session_id: an existing session (see :meth:`create_session`).
            event_type: ``user_message``, ``assistant_message``, ``tool_call`` or ``tool_result``.
            payload: the event's details, checked by the same rules as the pure core.
            idempotency_key: a non-empty string naming this request, so that a retry of it
                (same session, key, type and payload) returns the event appended the first
                time and appends nothing.

        Returns:
            The stored event; its ``event_id`` is the next number of one global sequence.

        Raises:
            ValueError: every refusal below is one; nothing is written.
            UnknownEventTypeError, InvalidSessionIdError, InvalidPayloadError, CallIdError:
                the pure core's rules.
            UnknownSessionError: the session was never created.
            IdempotencyConflictError: the key was used in this session for another request.
            StoreError: a bad key type, or SQLite refused or failed.
        """
        stored_payload = validate_append(session_id, event_type, payload)
        if idempotency_key is not None and (
            not isinstance(idempotency_key, str) or not idempotency_key
        ):
            raise StoreError(f"idempotency_key must be a non-empty string: {idempotency_key!r}")
        with self._writing() as connection:
            return append_in_transaction(
                connection, session_id, event_type, stored_payload, idempotency_key
            )

    def find_event_by_idempotency_key(
        self, session_id: str, idempotency_key: str
    ) -> StoredEvent | None:
        """Return the event appended with this key in this session, or None if there is none."""
        with self._reading() as connection:
            return find_by_idempotency_key(connection, session_id, idempotency_key)

    def get_events_for_session(self, session_id: str, after_event_id: int = 0) -> list[StoredEvent]:
        """Return the session's events with ``event_id > after_event_id``, oldest first.

        An unknown session has no events, so it gives an empty list, as in the pure core,
        rather than an error: "nothing after id N" and "no such session" look the same here.
        """
        with self._reading() as connection:
            rows = connection.execute(
                f"SELECT {EVENT_COLUMNS} FROM events"
                " WHERE session_id = ? AND event_id > ? ORDER BY event_id",
                (session_id, _clamp_to_sqlite_integer(after_event_id)),
            )
            return [event_from_row(row) for row in rows]

    def replay_session(self, session_id: str) -> list[dict[str, Any]]:
        """Fold the session's events into OpenAI Chat Completions messages (fresh every call)."""
        return replay_events(self.get_events_for_session(session_id))

    # -- projections ----------------------------------------------------------------------

    def get_messages(self, session_id: str) -> list[MessageRow]:
        """Return the session's user and assistant messages from the projection, in event order.

        The fast read path for showing a chat; tool events are in :meth:`get_tool_calls`.
        """
        with self._reading() as connection:
            return projections.read_messages(connection, session_id)

    def get_tool_calls(self, session_id: str) -> list[ToolCallRow]:
        """Return the session's tool calls from the projection, each with its result if any."""
        with self._reading() as connection:
            return projections.read_tool_calls(connection, session_id)

    def rebuild_projections(self) -> None:
        """Throw both projections away and refold them from the events, in one transaction.

        Readers in other processes see the old projection until the new one is committed.
        """
        with self._writing() as connection:
            projections.rebuild_all(connection)

    # -- plumbing -------------------------------------------------------------------------

    def _live_connection(self) -> sqlite3.Connection:
        if self._connection is None:
            raise StorageError(f"the store for {self._path} is closed")
        return self._connection

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        # A single SELECT reads one consistent snapshot; it needs no explicit transaction.
        with self._lock, translate_sqlite_errors():
            yield self._live_connection()

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        with self._lock, write_transaction(self._live_connection()) as connection:
            yield connection


if TYPE_CHECKING:

    def _honours_the_port(store: SqliteEventStore) -> EventStore:
        # mypy checks this assignment: the store must satisfy eventlog.ports.EventStore.
        return store


def _clamp_to_sqlite_integer(value: int) -> int:
    # SQLite integers are 64-bit; Python's are not. Every event id lies inside that range, so
    # clamping changes no answer and keeps "after 2**64" meaning "nothing", as in the pure core.
    return max(-(2**63), min(value, 2**63 - 1))
