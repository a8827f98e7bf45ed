"""Opening a connection the way the store needs it, running a write as one transaction, and
saying in the store's own words what SQLite could not do.

Every pragma below is set on purpose, on every connection: SQLite keeps most settings per
connection, not per file, so a connection opened without them silently runs without them.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Final, Literal

from eventlog import ConstraintViolationError, StorageError, StorageReason, StoreError

Synchronous = Literal["NORMAL", "FULL"]

#: The number of ``schema.sql``'s design, kept in the file as ``PRAGMA user_version``.
SCHEMA_VERSION: Final = 1


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
    try:
        with translate_sqlite_errors():
            connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except StorageError as error:
        raise _with_its_likely_cause(error, Path(path)) from error
    try:
        with translate_sqlite_errors():
            _apply_pragmas(connection, synchronous, busy_timeout_ms, wal_autocheckpoint_pages)
    except BaseException as error:
        connection.close()
        if isinstance(error, StorageError):
            raise _with_its_likely_cause(error, Path(path)) from error
        raise
    return connection


def _with_its_likely_cause(error: StorageError, path: Path) -> StorageError:
    # SQLite says only "unable to open database file" when WAL mode cannot create its -shm
    # next to the database, which is what a read-only mount does, even to root.
    if error.reason != "cannot_open":
        return error
    where = path if path.exists() else path.parent
    if not where.exists() or os.access(where, os.W_OK):
        return error
    kind = "file" if where == path else "folder"
    return StorageError(
        f"the database's {kind} {where} is read-only (a read-only mount or permissions),"
        " and SQLite needs to write next to it",
        reason="read_only",
        retryable=False,
    )


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
    """Create the tables, indexes and triggers of ``schema.sql`` in a new database.

    A database already at :data:`SCHEMA_VERSION` is left as it is, without a write.

    Raises:
        StoreError: the file holds tables of an older, incompatible version of the schema.
        StorageError, ConstraintViolationError: SQLite refused the script; nothing is applied.
    """
    with translate_sqlite_errors():
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
        _refuse_an_older_schema(connection, version)
        schema = resources.files("sqlite_demo").joinpath("schema.sql").read_text("utf-8")
        script = f"{schema}\nPRAGMA user_version = {SCHEMA_VERSION};"
        # executescript() runs statements as written, so the transaction goes in the script:
        # all or nothing, and IMMEDIATE so two processes creating one file take turns.
        try:
            connection.executescript(f"BEGIN IMMEDIATE;\n{script}\nCOMMIT;")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise


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

    Raises:
        StoreError: translated from SQLite's errors (see :func:`translate_sqlite_errors`).
        Other exceptions from the body are re-raised unchanged after the rollback.
    """

    __slots__ = ("_connection",)

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    def __enter__(self) -> sqlite3.Connection:
        try:
            self._connection.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise _translated(error) from error
        return self._connection

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, _: object
    ) -> None:
        connection = self._connection
        try:
            if error is None:
                connection.execute("COMMIT")
            elif connection.in_transaction:
                # Some errors (disk full, I/O) make SQLite roll back on its own; then there
                # is nothing left to roll back.
                connection.execute("ROLLBACK")
        except sqlite3.Error as failure:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise _translated(failure) from failure
        if isinstance(error, sqlite3.Error):
            raise _translated(error) from error


@contextmanager
def translate_sqlite_errors() -> Iterator[None]:
    """Turn ``sqlite3`` exceptions raised in the body into the store's own :class:`StoreError`.

    Raises:
        ConstraintViolationError: from ``sqlite3.IntegrityError`` (trigger, CHECK, UNIQUE, FK).
        StorageError: from any other ``sqlite3.Error``, with its reason and whether a retry
            can help (see :func:`storage_error`).
    """
    try:
        yield
    except sqlite3.Error as error:
        raise _translated(error) from error


def _translated(error: sqlite3.Error) -> StoreError:
    if isinstance(error, sqlite3.IntegrityError):
        return ConstraintViolationError(f"the database refused the write: {error}")
    return storage_error(error)


#: SQLite's primary result codes, by what they mean for a caller: (reason, retryable, advice).
_STORAGE_FAULTS: Final[dict[int, tuple[StorageReason, bool, str]]] = {
    sqlite3.SQLITE_READONLY: ("read_only", False, "the database or its folder is read-only"),
    sqlite3.SQLITE_PERM: ("read_only", False, "the database may not be written"),
    sqlite3.SQLITE_FULL: ("disk_full", True, "the disk is full; retry once space is freed"),
    sqlite3.SQLITE_IOERR: ("io_error", True, "the disk reported an I/O error"),
    sqlite3.SQLITE_BUSY: ("busy", True, "another process held the database lock too long"),
    sqlite3.SQLITE_LOCKED: ("busy", True, "the database is locked"),
    sqlite3.SQLITE_CANTOPEN: ("cannot_open", False, "the database file cannot be opened"),
    sqlite3.SQLITE_CORRUPT: ("corrupt", False, "the database file is corrupt"),
    sqlite3.SQLITE_NOTADB: ("corrupt", False, "the file is not an SQLite database"),
}


def storage_error(error: sqlite3.Error) -> StorageError:
    """Return ``error`` as a :class:`StorageError` that says what is wrong and if retrying helps."""
    code = getattr(error, "sqlite_errorcode", None)
    reason, retryable, advice = _STORAGE_FAULTS.get(
        -1 if code is None else code & 0xFF, ("other", False, "SQLite failed")
    )
    return StorageError(f"{advice} ({error})", reason=reason, retryable=retryable)
