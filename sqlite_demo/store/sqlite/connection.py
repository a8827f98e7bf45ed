"""Opening a connection the way the store needs it, and running a write as one transaction.

Every pragma below is set on purpose, on every connection: SQLite keeps most settings per
connection, not per file, so a connection opened without them silently runs without them.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from importlib import resources
from pathlib import Path
from typing import Final, Literal

from eventlog import StorageError, StoreError
from sqlite_demo.store.sqlite.faults import (
    translate_sqlite_errors,
    translated,
    with_its_likely_cause,
)
from sqlite_demo.store.sqlite.migration import migrate_1_to_2, schema_statements

Synchronous = Literal["NORMAL", "FULL"]
#: What runs a statement: a connection, or one of its cursors (see :class:`write_transaction`).
Sql = sqlite3.Connection | sqlite3.Cursor

#: The number of ``schema.sql``'s design, kept in the file as ``PRAGMA user_version``. Schema 1
#: (the chapter's four event types only) is migrated in place: see
#: :mod:`sqlite_demo.store.sqlite.migration`.
SCHEMA_VERSION: Final = 2
#: Less free space than this next to the database counts as a full disk (a WAL frame is a page).
MIN_FREE_BYTES: Final = 64 * 1024
#: The most SQLite keeps of the file in memory for this connection, in KiB (a negative
#: ``cache_size`` is KiB; memory is taken only as pages are read).
PAGE_CACHE_KIB: Final = 64 * 1024


def open_connection(
    path: str | os.PathLike[str],
    *,
    synchronous: Synchronous = "NORMAL",
    busy_timeout_ms: int = 5000,
    wal_autocheckpoint_pages: int = 1000,
) -> sqlite3.Connection:
    """Open ``path`` (created if missing) with the store's pragmas in effect.

    Args:
        path: a database file. ``:memory:`` is refused: it cannot use WAL.
        synchronous: ``"NORMAL"`` or ``"FULL"``; see the trade-off below.
        busy_timeout_ms: how long a statement waits for another writer's lock before failing.
        wal_autocheckpoint_pages: checkpoint once the WAL holds this many pages; 0 never does.

    Returns:
        A connection in autocommit mode (``isolation_level=None``): Python's ``sqlite3`` opens
        no transaction behind our back, so the only transactions are the explicit ones of
        :func:`write_transaction`. ``check_same_thread`` is off because the store guards its
        one connection with a lock and is called from a thread pool.

    Raises:
        StoreError: a bad argument, or a file that cannot be put in WAL mode.
        StorageError: SQLite could not open the file or set a pragma.
    """
    _check_settings(synchronous, busy_timeout_ms, wal_autocheckpoint_pages)
    connection = None
    try:
        with translate_sqlite_errors():
            connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            _apply_pragmas(connection, synchronous, busy_timeout_ms, wal_autocheckpoint_pages)
    except BaseException as error:
        if connection is not None:
            connection.close()
        if isinstance(error, StorageError):
            raise with_its_likely_cause(error, Path(path)) from error
        raise
    return connection


def _check_settings(synchronous: str, busy_timeout_ms: int, checkpoint_pages: int) -> None:
    # PRAGMA takes no ? parameters, so these values are formatted into SQL: check them first.
    if synchronous not in ("NORMAL", "FULL"):
        raise StoreError(f"synchronous must be 'NORMAL' or 'FULL', got {synchronous!r}")
    for name, value in (
        ("busy_timeout_ms", busy_timeout_ms),
        ("wal_autocheckpoint_pages", checkpoint_pages),
    ):
        if type(value) is not int or value < 0:
            raise StoreError(f"{name} must be a non-negative int, got {value!r}")


def _apply_pragmas(
    connection: sqlite3.Connection, synchronous: str, busy_timeout_ms: int, checkpoint_pages: int
) -> None:
    # First, because switching to WAL may itself have to wait for another process's lock.
    # With it, a writer that finds the database locked retries for up to this long instead
    # of failing at once: concurrent writers queue up.
    connection.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
    # Write-ahead log: a commit appends to the -wal file; readers keep reading the last
    # committed state while one writer writes; after a crash, SQLite replays committed
    # frames from the -wal file and ignores the torn tail of an unfinished one.
    mode = connection.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if mode != "wal":
        raise StoreError(f"the database could not switch to WAL mode (it reports {mode!r})")
    # In WAL mode, NORMAL fsyncs only at checkpoints: a commit survives a crash of the
    # process (even SIGKILL) because it is already in the OS's file cache, but the last
    # commits may be lost if the OS crashes or power fails. FULL fsyncs the WAL at every
    # commit: durable against power loss too, at the price of one fsync per transaction.
    connection.execute(f"PRAGMA synchronous = {synchronous}")
    # Off by default in SQLite, per connection: without it REFERENCES is a comment and an
    # event for a session that does not exist gets in.
    connection.execute("PRAGMA foreign_keys = ON")
    connection.execute(f"PRAGMA wal_autocheckpoint = {checkpoint_pages}")
    # SQLite's default page cache is 2 MiB, some 500 pages: about 5,000 events with their
    # index. A longer session no longer fits, and every read of it asks the OS for its pages
    # again (570 pread calls per read of 10,000 events, each a system call and a 4 KiB copy).
    # 64 MiB holds a session of some 150,000 events; like the default, it is an upper bound,
    # filled only by what is read.
    connection.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KIB}")


def apply_schema(connection: sqlite3.Connection) -> None:
    """Create the tables, indexes and triggers of ``schema.sql`` in a new database.

    A database already at :data:`SCHEMA_VERSION` is left as it is, without a write; one at
    schema 1 is migrated (:func:`sqlite_demo.store.sqlite.migration.migrate_1_to_2`).

    Raises:
        StoreError: the file holds tables of an older, incompatible version of the schema.
        StorageError, ConstraintViolationError: SQLite refused the script; nothing is applied.
    """
    with translate_sqlite_errors():
        if _version(connection) == SCHEMA_VERSION:
            return
        schema = schema_script()
        # Another process may be creating or migrating this very file now (two writers
        # opening a new database at once): what the file holds is read again under the write
        # lock, so the second one waits, then finds the schema made. Deciding on the version
        # read before the lock would refuse the other's new tables as an older schema.
        connection.execute("BEGIN IMMEDIATE")
        try:
            version = _version(connection)
            if version not in (1, SCHEMA_VERSION):
                _refuse_an_older_schema(connection, version)
                create_schema(connection, schema)
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
        if version == 1:
            migrate_1_to_2(connection, schema)  # takes the lock itself and reads the version again


def schema_script() -> str:
    """The text of ``schema.sql``: the tables, indexes and triggers of :data:`SCHEMA_VERSION`."""
    return resources.files("sqlite_demo.store.sqlite").joinpath("schema.sql").read_text("utf-8")


def create_schema(connection: sqlite3.Connection, schema: str) -> None:
    """Run ``schema``'s statements and record :data:`SCHEMA_VERSION`, inside the caller's
    transaction. executescript() would COMMIT first: the statements run one by one, so the
    file gets all of the schema or none of it."""
    for statement in schema_statements(schema):
        connection.execute(statement)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _version(connection: sqlite3.Connection) -> int:
    version: int = connection.execute("PRAGMA user_version").fetchone()[0]
    return version


def _refuse_an_older_schema(connection: sqlite3.Connection, version: int) -> None:
    has_events = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'"
    ).fetchone()
    if has_events or version > SCHEMA_VERSION:
        raise StoreError(
            f"the database holds schema version {version}, and this kit reads version"
            f" {SCHEMA_VERSION}; back it up and start a new file (or use the kit that wrote it)"
        )


class write_transaction:  # lower case: used like a function, with write_transaction(c): ...
    """Run the body as one ``BEGIN IMMEDIATE`` ... ``COMMIT``; any exception rolls it all back.

    Why IMMEDIATE: a plain (deferred) BEGIN starts as a reader and asks for the write lock at
    the first write. If another connection wrote in between, that upgrade fails with
    SQLITE_BUSY in the middle of our transaction, and busy_timeout cannot help, because
    waiting would not make our stale read valid again. IMMEDIATE takes the write lock at
    BEGIN, before anything is read, so whatever we read stays true until COMMIT, and a
    second writer simply waits its turn (up to busy_timeout) at its own BEGIN.

    A class rather than a ``@contextmanager`` generator: it runs at every append, and a plain
    ``__enter__``/``__exit__`` pair costs a fraction of a generator's machinery.

    Args:
        connection: the connection the transaction is on.
        cursor: a cursor of it that runs the statements, the body's included (``as sql``);
            None runs them on the connection itself. ``connection.execute`` makes a new
            cursor for every statement, which costs more than running the statement does:
            the store keeps one cursor for its hot path.

    Raises:
        StoreError: translated from SQLite's errors (see :mod:`sqlite_demo.store.sqlite.faults`).
        Other exceptions from the body are re-raised unchanged after the rollback.
    """

    __slots__ = ("_connection", "_sql")

    def __init__(self, connection: sqlite3.Connection, cursor: sqlite3.Cursor | None = None):
        self._connection = connection
        self._sql: Sql = connection if cursor is None else cursor

    def __enter__(self) -> Sql:
        try:
            self._sql.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise translated(error) from error
        return self._sql

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, _: object
    ) -> None:
        sql = self._sql
        try:
            if error is None:
                sql.execute("COMMIT")
            elif self._connection.in_transaction:
                # Some errors (disk full, I/O) make SQLite roll back on its own; then there
                # is nothing left to roll back.
                sql.execute("ROLLBACK")
        except sqlite3.Error as failure:
            if self._connection.in_transaction:
                sql.execute("ROLLBACK")
            raise translated(failure) from failure
        if isinstance(error, sqlite3.Error):
            raise translated(error) from error


def check_writable(connection: sqlite3.Connection, path: Path, busy_timeout_ms: int) -> None:
    """Prove that a write to ``path`` would succeed now, writing nothing.

    An UPDATE that matches no row still needs a writable file: SQLite refuses it on a
    read-only one (BEGIN IMMEDIATE alone does not), and the ROLLBACK keeps nothing. A full
    disk is only found by a real write, so the free space next to the file is checked too.

    Raises:
        sqlite3.Error: what SQLite refused (translate it with :func:`translate_sqlite_errors`).
        StorageError: the disk is full.
    """
    normal_timeout = connection.execute("PRAGMA busy_timeout").fetchone()[0]
    connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.execute("UPDATE sessions SET title = title WHERE 0")
        finally:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
    finally:
        connection.execute(f"PRAGMA busy_timeout = {normal_timeout}")
    free = shutil.disk_usage(path.parent).free
    if free < MIN_FREE_BYTES:
        message = f"the disk holding {path.name} is full ({free} bytes free)"
        raise StorageError(
            f"{message}; retry once it has space", reason="disk_full", retryable=True
        )
