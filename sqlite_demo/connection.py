"""Opening a connection the way the store needs it, and running a write as one transaction.

Every pragma below is set on purpose, on every connection: SQLite keeps most settings per
connection, not per file, so a connection opened without them silently runs without them.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from typing import Literal

from sqlite_demo.errors import ConstraintViolationError, StorageError, StoreError

Synchronous = Literal["NORMAL", "FULL"]


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
    with translate_sqlite_errors():
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        with translate_sqlite_errors():
            _apply_pragmas(connection, synchronous, busy_timeout_ms, wal_autocheckpoint_pages)
    except BaseException:
        connection.close()
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


def apply_schema(connection: sqlite3.Connection) -> None:
    """Create the tables, indexes and triggers of ``schema.sql`` that do not exist yet.

    Raises:
        StorageError, ConstraintViolationError: SQLite refused the script; nothing is applied.
    """
    schema = resources.files("sqlite_demo").joinpath("schema.sql").read_text(encoding="utf-8")
    # executescript() runs statements as written, so the transaction goes in the script: all
    # or nothing, and IMMEDIATE so two processes opening a new file at once take turns.
    with translate_sqlite_errors():
        try:
            connection.executescript(f"BEGIN IMMEDIATE;\n{schema}\nCOMMIT;")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise


@contextmanager
def write_transaction(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Run the body as one ``BEGIN IMMEDIATE`` ... ``COMMIT``; any exception rolls it all back.

    Why IMMEDIATE: a plain (deferred) BEGIN starts as a reader and asks for the write lock at
    the first write. If another connection wrote in between, that upgrade fails with
    SQLITE_BUSY in the middle of our transaction, and busy_timeout cannot help, because
    waiting would not make our stale read valid again. IMMEDIATE takes the write lock at
    BEGIN, before anything is read, so whatever we read stays true until COMMIT, and a
    second writer simply waits its turn (up to busy_timeout) at its own BEGIN.

    Raises:
        StoreError: translated from SQLite's errors. Other exceptions from the body are
        re-raised unchanged after the rollback.
    """
    with translate_sqlite_errors():
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield connection
            connection.execute("COMMIT")
        except BaseException:
            # Some errors (disk full, I/O) make SQLite roll back on its own; then there is
            # nothing left to roll back.
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise


@contextmanager
def translate_sqlite_errors() -> Iterator[None]:
    """Turn ``sqlite3`` exceptions raised in the body into the store's own :class:`StoreError`.

    Raises:
        ConstraintViolationError: from ``sqlite3.IntegrityError`` (trigger, CHECK, UNIQUE, FK).
        StorageError: from any other ``sqlite3.Error``, or text SQLite cannot store as UTF-8.
    """
    try:
        yield
    except sqlite3.IntegrityError as error:
        raise ConstraintViolationError(f"the database refused the write: {error}") from error
    except sqlite3.Error as error:
        raise StorageError(f"SQLite could not complete the operation: {error}") from error
    except UnicodeEncodeError as error:
        # A lone surrogate ('\ud800') is a valid Python str but not valid UTF-8 text.
        raise StorageError(f"text cannot be stored as UTF-8: {error}") from error
