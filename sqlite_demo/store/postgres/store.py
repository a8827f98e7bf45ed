"""The event store on PostgreSQL: the chapter's log, shared by servers on many machines.

The same contract as :class:`~sqlite_demo.store.sqlite.SqliteEventStore`, the same rules
(:mod:`eventlog`), the same answers; what changes is where the guarantees come from:

==========================  ==========================================================
append-only                 triggers refuse UPDATE, DELETE and TRUNCATE on ``events``
projections in step         written in the event's own transaction
appends take turns          the row lock on ``log_head`` (SQLite: ``BEGIN IMMEDIATE``)
ids without gaps, in order  taken from ``log_head`` under that lock, rolled back with it
durable at COMMIT           ``synchronous_commit = on``: the WAL is on disk
streams wake at once        LISTEN/NOTIFY, from every server (:mod:`.notify`)
many processes              a pool of connections per process; any number of servers
==========================  ==========================================================

Threads: the store holds a pool of connections and each call borrows one for its SQL only,
so calls from a thread pool run side by side, and only appends wait for each other (on
the database's row lock, wherever they come from). A server that cannot be reached is a
retryable :class:`~eventlog.StorageError` (``unavailable``), and the pool reconnects by
itself once it is back.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final, Self

import psycopg

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
from sqlite_demo.store.append_signal import AppendSignal
from sqlite_demo.store.opening import describe_db
from sqlite_demo.store.postgres import projections
from sqlite_demo.store.postgres.connection import Connection, Pool, apply_schema, open_pool
from sqlite_demo.store.postgres.faults import translate_postgres_errors
from sqlite_demo.store.postgres.notify import NotifiedAppendSignal
from sqlite_demo.store.postgres.writes import (
    EVENT_COLUMNS,
    TAKE_NEXT_ID,
    append_batch,
    append_in_transaction,
    event_from_row,
)
from sqlite_demo.store.records import (
    MessageRow,
    Session,
    ToolCallRow,
    new_session_id,
    now_ms,
    replay_rows,
)

if TYPE_CHECKING:
    from sqlite_demo.store.contract import EventStore

#: PostgreSQL's BIGINT, the type of every event id: no id lies outside it.
MAX_BIGINT: Final = 2**63 - 1

__all__ = ["PostgresEventStore"]


class PostgresEventStore:
    """An append-only event log in one PostgreSQL database, with projections kept in step.

    Args:
        url: a libpq connection URL, ``postgresql://user@host:port/dbname``; the database
            must exist, and its tables are created when missing.
        max_connections: connections this process keeps open at most.
        wait_seconds: how long a call waits for a connection (the server is down, or every
            connection is busy) before it raises a retryable ``unavailable``.

    Raises:
        StoreError: a database holding another version of the schema.
        StorageError: the server cannot be reached, or refuses the connection or a write.
    """

    def __init__(self, url: str, *, max_connections: int = 8, wait_seconds: float = 5.0) -> None:
        self._url = url
        self._pool: Pool | None = open_pool(
            url, max_connections=max_connections, wait_seconds=wait_seconds
        )
        self._appends = NotifiedAppendSignal(url)
        try:
            apply_schema(self._pool)
        except BaseException:
            self.close()
            raise

    @property
    def url(self) -> str:
        """The database this store writes to, as given."""
        return self._url

    @property
    def append_signal(self) -> AppendSignal:
        """Subscriptions woken by every server's appends, through LISTEN/NOTIFY."""
        return self._appends

    def close(self) -> None:
        """Close every connection; closing twice is fine. Later calls raise StorageError."""
        self._appends.close()
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()

    def check_writable(self) -> None:
        """Prove that a write would succeed now, writing nothing; raise if it would not.

        A standby, a read-only transaction default or a role without the right to write is
        refused as ``read_only``; a lock held by another transaction for more than 100 ms
        as ``busy``; a server out of reach as ``unavailable``.
        """
        with self._sql() as connection, connection.transaction():
            connection.execute("SET LOCAL lock_timeout = '100ms'")
            # Takes the same lock an append takes first, and changes nothing.
            connection.execute(TAKE_NEXT_ID.replace("+ 1", "+ 0"))
            raise psycopg.Rollback()

    # -- sessions -------------------------------------------------------------------------

    def create_session(self, title: str, *, session_id: str | None = None) -> Session:
        """Create a session and return it (see ``SqliteEventStore.create_session``).

        Raises:
            StoreError: a ``title`` that is not a string of valid text; InvalidSessionIdError
                and SessionExistsError: a bad ``session_id``, or one that is taken.
        """
        check_text(title, "title", StoreError, non_empty=False)
        if session_id is None:
            session_id = new_session_id()
        session = Session(check_session_id(session_id), title, now_ms())
        try:
            with self._sql() as connection:
                connection.execute(
                    "INSERT INTO sessions (id, title, created_at) VALUES (%s, %s, %s)",
                    (session.id, session.title, session.created_at),
                )
        except StoreError as error:
            if isinstance(error.__cause__, psycopg.errors.UniqueViolation):
                raise SessionExistsError(
                    sentence("session.exists", session_id=session.id)
                ) from None
            raise
        return session

    def get_session(self, session_id: str) -> Session:
        """Return the session with this id.

        Raises:
            UnknownSessionError: there is none.
        """
        with self._sql() as connection:
            row = connection.execute(
                "SELECT id, title, created_at FROM sessions WHERE id = %s", (session_id,)
            ).fetchone()
        if row is None:
            raise UnknownSessionError(sentence("session.unknown", session_id=session_id))
        return Session(*row)

    def list_all_sessions(self) -> list[Session]:
        """Return every created session, with or without events, in the order of creation."""
        with self._sql() as connection:
            rows = connection.execute(
                "SELECT id, title, created_at FROM sessions ORDER BY position"
            ).fetchall()
        return [Session(*row) for row in rows]

    def list_active_session_ids(self) -> list[str]:
        """Return the ids of sessions that have events, in the order of their first event."""
        with self._sql() as connection:
            rows = connection.execute(
                "SELECT session_id FROM events GROUP BY session_id ORDER BY min(event_id)"
            ).fetchall()
        return [str(session_id) for (session_id,) in rows]

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

        Everything ``SqliteEventStore.append_event`` promises, promised here too, and
        refused the same way; see :mod:`sqlite_demo.store.postgres.writes` for how.

        Raises:
            ValueError: for every refusal, and nothing is written (see the SQLite store).
        """
        stored_payload = validate_append(session_id, event_type, payload)
        if idempotency_key is not None:
            check_text(idempotency_key, "idempotency_key", StoreError, non_empty=True)
        with self._sql() as connection:
            key, version = idempotency_key, expected_version
            return append_in_transaction(
                connection, session_id, event_type, stored_payload, key, version
            )

    def append_events(
        self,
        session_id: str,
        events: Sequence[tuple[str, Mapping[str, Any]]],
        *,
        expected_version: int | None = None,
    ) -> list[StoredEvent]:
        """Append several events, each with its projection, in ONE transaction: all or none.

        Everything ``SqliteEventStore.append_events`` promises; see
        :func:`sqlite_demo.store.postgres.writes.append_batch` for how.

        Raises:
            ValueError: as :meth:`append_event`, for the first event that is refused;
                nothing of the batch is written.
        """
        checked = [validate_append(session_id, kind, payload) for kind, payload in events]
        if not checked:
            return []
        batch = [(kind, payload) for (kind, _), payload in zip(events, checked, strict=True)]
        with self._sql() as connection:
            return append_batch(connection, session_id, batch, expected_version)

    def get_events_for_session(
        self, session_id: str, after_event_id: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """Return the session's events with ``event_id > after_event_id``, oldest first.

        Args:
            limit: at most this many events (the oldest of them); None for all.
        """
        with self._sql() as connection:
            rows = connection.execute(
                f"SELECT {EVENT_COLUMNS} FROM events"
                " WHERE session_id = %s AND event_id > %s ORDER BY event_id LIMIT %s",
                (session_id, _clamp_to_bigint(after_event_id), limit),
            ).fetchall()
        return [event_from_row(row) for row in rows]

    def replay_session(self, session_id: str) -> list[dict[str, Any]]:
        """Fold the session's events into OpenAI Chat Completions messages (fresh every call)."""
        with self._sql() as connection:
            rows = connection.execute(
                "SELECT event_id, type, payload FROM events WHERE session_id = %s"
                " ORDER BY event_id",
                (session_id,),
            ).fetchall()
        return replay_rows(rows)

    # -- projections ----------------------------------------------------------------------

    def get_messages(
        self, session_id: str, after_event_id: int = 0, limit: int | None = None
    ) -> list[MessageRow]:
        """Return the session's user and assistant messages from the projection, in order."""
        with self._sql() as connection:
            after = _clamp_to_bigint(after_event_id)
            return projections.read_messages(connection, session_id, after, limit)

    def get_tool_calls(
        self, session_id: str, after_event_id: int = 0, limit: int | None = None
    ) -> list[ToolCallRow]:
        """Return the session's tool calls from the projection, each with its result if any."""
        with self._sql() as connection:
            after = _clamp_to_bigint(after_event_id)
            return projections.read_tool_calls(connection, session_id, after, limit)

    def rebuild_projections(self) -> None:
        """Throw both projections away and refold them from the events, in one transaction.

        Appends wait meanwhile (the log's head is locked), so none is left out of the
        refold; readers see the old projection until the new one is committed.
        """
        with self._sql() as connection, connection.transaction():
            connection.execute("SELECT last_event_id FROM log_head FOR UPDATE")
            rows = connection.execute(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY event_id")
            events = map(event_from_row, rows.fetchall())
            projections.rebuild_all(connection, events)

    # -- plumbing -------------------------------------------------------------------------

    @contextmanager
    def _sql(self) -> Iterator[Connection]:
        # A connection of the pool for the body's statements, and psycopg's errors
        # translated into the store's. A connection that broke is discarded by the pool
        # when given back; the pool then checks the others, so that after a restart of the
        # server one failed call, not one per pooled connection, finds out.
        pool = self._pool
        if pool is None:
            closed = sentence("store.closed", where=describe_db(self._url))
            raise StorageError(closed, reason="closed")
        try:
            with translate_postgres_errors(), pool.connection() as connection:
                yield connection
        except StorageError as error:
            if error.reason == "unavailable":
                pool.check()
            raise


if TYPE_CHECKING:

    def _honours_the_contract(store: PostgresEventStore) -> EventStore:
        # mypy checks this assignment: the store must honour the store contract.
        return store


def _clamp_to_bigint(value: int) -> int:
    # Every event id lies inside BIGINT; clamping changes no answer, and keeps "after 2**64"
    # meaning "nothing", as in the pure core.
    return max(-MAX_BIGINT - 1, min(value, MAX_BIGINT))
