"""The event store on PostgreSQL: the chapter's log, shared by servers on many machines.

The same contract as :class:`~sqlite_demo.store.sqlite.SqliteEventStore`, the same rules
(:mod:`eventlog`), the same reads (:class:`~sqlite_demo.store.base.SqlEventStore`), the same
answers; what changes is where the guarantees come from:

==========================  ==========================================================
append-only                 triggers refuse UPDATE, DELETE and TRUNCATE on ``events``
projections in step         written in the event's own transaction
appends take turns          the row lock on ``log_head`` (SQLite: ``BEGIN IMMEDIATE``)
ids without gaps, in order  taken from ``log_head`` under that lock, rolled back with it
one round trip an append    ``kit_append`` checks, inserts, projects, notifies; one plain
                            statement where no rule reads the log (:mod:`.writes`)
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

from typing import TYPE_CHECKING, Any, Final

import psycopg

from eventlog import SessionExistsError, StorageError, StoredEvent, StoreError
from eventlog.messages import sentence
from sqlite_demo.store.append_signal import AppendSignal
from sqlite_demo.store.base import CheckedEvents, SqlEventStore
from sqlite_demo.store.locations import describe_db
from sqlite_demo.store.postgres.connection import Borrowed, Pool, apply_schema, open_pool
from sqlite_demo.store.postgres.notify import NotifiedAppendSignal
from sqlite_demo.store.postgres.writes import PROJECT, append_checked, projected_columns
from sqlite_demo.store.reads import ALL_EVENTS, MAX_INTEGER, for_psycopg
from sqlite_demo.store.records import Session
from sqlite_demo.store.rows import event_from_row

if TYPE_CHECKING:
    from sqlite_demo.store.contract import EventStore

#: PostgreSQL's BIGINT, the type of every event id: no id lies outside it.
MAX_BIGINT: Final = MAX_INTEGER
#: The lock every append takes first (see ``append.sql``): the head row, changed by nothing.
_TAKE_THE_TURN: Final = "UPDATE log_head SET last_event_id = last_event_id"

__all__ = ["PostgresEventStore"]


class PostgresEventStore(SqlEventStore):
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

    # The order of creation, which SQLite's rowid gives for free (see schema.sql).
    _CREATION_ORDER = "position"

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

    def check_writable(self) -> None:
        """Prove that a write would succeed now, writing nothing; raise if it would not.

        A standby, a read-only transaction default or a role without the right to write is
        refused as ``read_only``; a lock held by another transaction for more than 100 ms
        as ``busy``; a server out of reach as ``unavailable``.
        """
        with self._sql() as connection, connection.transaction():
            connection.execute("SET LOCAL lock_timeout = '100ms'")
            connection.execute(_TAKE_THE_TURN)
            raise psycopg.Rollback()

    def newest_items_now(self, session_id: str, newest: int) -> None:
        """None: a read here is a round trip to the server, which an event loop must not
        wait on (see ``SqliteEventStore.newest_items_now``); the caller reads in a thread."""
        return None

    def rebuild_projections(self) -> None:
        """Throw both projections away and refold them from the events, in one transaction.

        Appends wait meanwhile (the log's head is locked), so none is left out of the
        refold; readers see the old projection until the new one is committed. Each event
        goes through ``kit_project``, the step every append takes.
        """
        with self._sql() as connection, connection.transaction():
            connection.execute(_TAKE_THE_TURN)
            connection.execute("DELETE FROM messages")
            connection.execute("DELETE FROM tool_calls")
            events = map(event_from_row, connection.execute(ALL_EVENTS).fetchall())
            with connection.cursor() as cursor:
                cursor.executemany(PROJECT, [_project_arguments(event) for event in events])

    # -- what the shared methods ask of a backend -----------------------------------------

    def _fetch_all(self, sql: str, arguments: tuple[Any, ...] = ()) -> list[Any]:
        with self._sql() as connection:
            return connection.execute(for_psycopg(sql), arguments).fetchall()

    def _insert_session(self, session: Session) -> None:
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

    def _append_checked(
        self, session_id: str, events: CheckedEvents, key: str | None, version: int | None
    ) -> list[StoredEvent]:
        with self._sql() as connection:
            return append_checked(connection, session_id, events, key, version)

    # -- plumbing -------------------------------------------------------------------------

    def _sql(self) -> Borrowed:
        # A connection of the pool for the body's statements, psycopg's errors translated.
        pool = self._pool
        if pool is None:
            closed = sentence("store.closed", where=describe_db(self._url))
            raise StorageError(closed, reason="closed")
        return Borrowed(pool)


def _project_arguments(event: StoredEvent) -> tuple[Any, ...]:
    call_id, supersedes, content, name, arguments = projected_columns(event.type, event.payload)
    return (event.session_id, event.event_id, event.type, event.created_at, call_id, supersedes,
            content, name, arguments)  # fmt: skip


if TYPE_CHECKING:

    def _honours_the_contract(store: PostgresEventStore) -> EventStore:
        # mypy checks this assignment: the store must honour the store contract.
        return store
