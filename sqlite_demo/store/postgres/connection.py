"""Connections the way the store needs them: a pool of them, each set up on purpose, and the
schema, created once however many servers start at the same moment.

Every setting below is made on every connection the pool opens, because PostgreSQL keeps
them per session: a connection opened without them would silently run without them.
"""

from __future__ import annotations

from functools import cached_property
from importlib import resources
from types import TracebackType
from typing import Final

import psycopg
from psycopg.rows import TupleRow
from psycopg_pool import ConnectionPool

from eventlog import StorageError, StoreError
from sqlite_demo.store.postgres.faults import raise_as_store_error, translate_postgres_errors
from sqlite_demo.store.postgres.text import register_nul_safe_text


class Connection(psycopg.Connection[TupleRow]):
    """A connection of the store's pool: rows come back as tuples, and appends reuse one
    cursor.

    ``connection.execute()`` builds a new cursor, with its own copy of the connection's
    adapters, for every statement: about a tenth of an append's client time. The pool lends a
    connection to one thread at a time, so its cursor is never shared.
    """

    @cached_property
    def append_cursor(self) -> psycopg.Cursor[TupleRow]:
        """The cursor every append on this connection executes with."""
        return self.cursor()


#: The store's pool of them.
Pool = ConnectionPool[Connection]


class Borrowed:
    """A connection of ``pool`` for the statements of one ``with`` block, given back at its end,
    with psycopg's errors raised there turned into the store's (see :mod:`.faults`).

    A connection that broke is discarded by the pool when given back, and the pool then checks
    the others, so that after a restart of the server one failed call, not one per pooled
    connection, finds out.

    Written as a class rather than with ``pool.connection()`` and ``@contextmanager``, because
    every call of the store passes through here: ``pool.connection()`` also enters the
    connection's own context, whose COMMIT or ROLLBACK has nothing to do on an autocommit
    connection (a ``transaction()`` block ends itself) yet, with two generators, cost about a
    tenth of an append's client time. ``putconn`` rolls back whatever was left open.
    """

    __slots__ = ("_connection", "_pool")

    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    def __enter__(self) -> Connection:
        try:
            self._connection = self._pool.getconn()
        except BaseException as error:
            self._raise_as_store_error(error)
            raise
        return self._connection

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._pool.putconn(self._connection)
        if error is not None:
            self._raise_as_store_error(error)

    def _raise_as_store_error(self, error: BaseException) -> None:
        try:
            raise_as_store_error(error)
        except StorageError as storage_error:
            if storage_error.reason == "unavailable":
                self._pool.check()
            raise


#: The number of the schema's design, kept in the database's ``kit_schema`` table. Version 2
#: holds the agent framework's events (``agent_item`` and the two corrections); version 3 adds
#: the functions of ``append.sql``, which make an append one round trip. A database of
#: version 2 is brought to 3 in place (the tables are the same); version 1 was never released
#: beside this backend, so it is refused.
SCHEMA_VERSION: Final = 3
#: The versions :func:`apply_schema` can bring up to :data:`SCHEMA_VERSION`.
_UPGRADABLE: Final = (2,)
#: The schema's files, in the order they are run: all IF NOT EXISTS or OR REPLACE.
_SCHEMA_FILES: Final = ("schema.sql", "append.sql")
#: Any fixed number: the advisory lock that makes two processes create the schema in turn.
_SCHEMA_LOCK: Final = 0x6B697431  # "kit1"
#: How long opening the store waits for its first connection, at least.
STARTUP_WAIT_SECONDS: Final = 30.0
#: The channel every append notifies on, with a digest of its session id as the payload.
APPENDS_CHANNEL: Final = "sqlite_demo_appends"


def configure(connection: Connection) -> None:
    """Set up one new connection of the pool (psycopg calls this once per connection)."""
    # Autocommit: psycopg opens no transaction behind our back, so a read is one statement
    # with its own snapshot and a write is the explicit transaction around it, as on SQLite.
    connection.autocommit = True
    register_nul_safe_text(connection)
    # COMMIT returns once the commit is on disk (PostgreSQL's default, set here in case the
    # server's configuration turned it off): an event acknowledged to a user survives the
    # database server being killed. Off, a crash could lose the last ~0.6 s of commits.
    connection.execute("SET synchronous_commit = on")
    # Appends wait for each other on the log's head row; a writer that holds it longer than
    # this is stuck, and the waiting request gets a retryable 503 rather than hanging.
    connection.execute("SET lock_timeout = '5s'")


def open_pool(url: str, *, max_connections: int, wait_seconds: float) -> Pool:
    """Open a pool of connections to ``url``, the first of them at once.

    Args:
        url: a libpq connection URL (``postgresql://user@host:port/dbname``); a password is
            better kept in ``PGPASSWORD`` or ``~/.pgpass`` than in the URL.
        max_connections: the most this process keeps open (each worker thread needs one).
        wait_seconds: how long a request waits for a connection before it is refused with a
            retryable "unavailable" (the server is down, or every connection is busy).

    Raises:
        StorageError: the server cannot be reached, or refuses the connection.
    """
    pool: Pool = ConnectionPool(
        url,
        min_size=1,
        max_size=max_connections,
        connection_class=Connection,
        configure=configure,
        timeout=wait_seconds,
        # Keep trying to reconnect while the server is down, however long it takes: the
        # service answers 503 meanwhile, and serves again once the server is back.
        reconnect_timeout=0,
        kwargs={"application_name": "sqlite_demo"},
        name="sqlite_demo",
        open=False,
    )
    with translate_postgres_errors():
        try:
            # The first connection may take longer than a request's wait on a loaded machine
            # (a server restarted while others append): a start-up is given longer.
            pool.open(wait=True, timeout=max(wait_seconds, STARTUP_WAIT_SECONDS))
        except BaseException:
            pool.close()
            raise
    return pool


def apply_schema(pool: Pool) -> None:
    """Create the tables, indexes, triggers and functions of the schema where they are missing.

    A database already at :data:`SCHEMA_VERSION` is left as it is, without a write; one at
    version 2 gets the functions it lacks, and its version is raised, in one transaction.

    Raises:
        StoreError: the database holds the tables of another version of the schema.
        StorageError, ConstraintViolationError: PostgreSQL refused the script.
    """
    with Borrowed(pool) as connection:
        if _schema_version(connection) == SCHEMA_VERSION:
            return
        with connection.transaction():
            # Two servers starting on a new database at once: the second waits here, then
            # finds the schema made. (CREATE ... IF NOT EXISTS alone can still collide.)
            connection.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            version = _schema_version(connection)
            if version == SCHEMA_VERSION:
                return
            _refuse_another_schema(connection, version)
            for name in _SCHEMA_FILES:
                script = resources.files(__package__).joinpath(name).read_text("utf-8")
                connection.execute(script.encode("utf-8"))
            _record_version(connection, version)


def _record_version(connection: Connection, version: int | None) -> None:
    if version is None:
        connection.execute(b"CREATE TABLE kit_schema (version INTEGER NOT NULL)")
        connection.execute("INSERT INTO kit_schema (version) VALUES (%s)", (SCHEMA_VERSION,))
    else:
        connection.execute("UPDATE kit_schema SET version = %s", (SCHEMA_VERSION,))


def _schema_version(connection: Connection) -> int | None:
    exists = connection.execute("SELECT to_regclass('kit_schema') IS NOT NULL").fetchone()
    if exists is None or not exists[0]:
        return None
    row = connection.execute("SELECT max(version) FROM kit_schema").fetchone()
    return None if row is None else int(str(row[0]))


def _refuse_another_schema(connection: Connection, version: int | None) -> None:
    has_events = connection.execute("SELECT to_regclass('events') IS NOT NULL").fetchone()
    if version in _UPGRADABLE or (version is None and not (has_events and has_events[0])):
        return
    raise StoreError(
        f"the database holds schema version {version} (or tables named like this kit's),"
        f" and this kit reads version {SCHEMA_VERSION}; use another database"
    )
