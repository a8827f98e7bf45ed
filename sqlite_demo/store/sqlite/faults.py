"""What SQLite could not do, in the store's own words: which fault, and whether a retry helps.

SQLite reports a failure as an ``sqlite3`` exception with a result code. The store turns it
into one of :mod:`eventlog`'s errors at its boundary, so no ``sqlite3`` type leaks out: a
refused constraint is a :class:`~eventlog.ConstraintViolationError`, anything else a
:class:`~eventlog.StorageError` that names the fault (read-only, full, busy, ...) and says
whether the same request can succeed later without any change on the caller's side.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Final

from eventlog import (
    ConstraintViolationError,
    InvalidSessionIdError,
    StorageError,
    StorageReason,
    StoreError,
)
from eventlog.messages import TRIGGERS, sentence

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


class translate_sqlite_errors:  # lower case: used like a function, with translate_...(): ...
    """Turn ``sqlite3`` exceptions raised in the body into the store's own :class:`StoreError`.

    A class rather than a ``@contextmanager`` generator: every read of the store runs in one,
    and a plain ``__enter__``/``__exit__`` pair costs a fraction of a generator's machinery.

    Raises:
        ConstraintViolationError: from ``sqlite3.IntegrityError`` (trigger, CHECK, UNIQUE, FK).
        StorageError: from any other ``sqlite3.Error``, with its reason and whether a retry
            can help (see :func:`storage_error`).
    """

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, _: object
    ) -> None:
        if isinstance(error, sqlite3.Error):
            raise translated(error) from error
        if isinstance(error, UnicodeEncodeError):
            # Every text the store writes is checked first (eventlog.check_text); what is
            # left to reach SQLite unchecked is a session id given to a read.
            raise InvalidSessionIdError(sentence("text.session_id_not_unicode")) from None


def translated(error: sqlite3.Error) -> StoreError:
    """Return ``error`` as the store's own error (see the module's docstring)."""
    if isinstance(error, sqlite3.IntegrityError):
        refused = TRIGGERS.get(str(error))
        said = sentence(refused) if refused else sentence("database.refused", error=error)
        return ConstraintViolationError(said)
    return storage_error(error)


def with_its_likely_cause(error: StorageError, path: Path) -> StorageError:
    """Return ``error``, or a read-only fault when that is why ``path`` could not be opened."""
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
