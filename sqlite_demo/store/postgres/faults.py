"""What PostgreSQL could not do, in the store's own words: which fault, and whether a retry helps.

psycopg raises its own exceptions, each carrying PostgreSQL's SQLSTATE. The store turns them
into :mod:`eventlog`'s errors at its boundary, exactly as the SQLite backend does with
``sqlite3``'s, so the service answers the same refusal for the same fault on either backend:
a refused constraint is a :class:`~eventlog.ConstraintViolationError`, anything else a
:class:`~eventlog.StorageError` that names the fault and says whether a retry can help.

The fault SQLite has no word for is a server that cannot be reached (stopped, restarting,
killed, or the network between): ``unavailable``, retryable, since the pool reconnects by
itself once the server is back.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

import psycopg
import psycopg_pool
from psycopg import errors

from eventlog import (
    ConstraintViolationError,
    InvalidSessionIdError,
    StorageError,
    StorageReason,
    StoreError,
)
from eventlog.messages import TRIGGERS, sentence

#: PostgreSQL's SQLSTATE classes and codes, by what they mean for a caller.
_BY_SQLSTATE: Final[dict[str, tuple[StorageReason, bool, str]]] = {
    "25006": ("read_only", False, "the database is read-only (a standby, or read-only set)"),
    "42501": ("read_only", False, "this database role may not write the store's tables"),
    "53100": ("disk_full", True, "the database server's disk is full; retry once space is freed"),
    "53200": ("io_error", True, "the database server is out of memory"),
    "53300": ("unavailable", True, "the database server has too many connections"),
    "55P03": ("busy", True, "another transaction held a lock too long"),
    "57014": ("busy", True, "the statement was cancelled (a lock or statement timeout)"),
    "40001": ("busy", True, "the transaction could not be serialised with another one"),
    "40P01": ("busy", True, "the transaction was chosen to end a deadlock"),
    "57P01": ("unavailable", True, "the database server is shutting down"),
    "57P02": ("unavailable", True, "the database server is restarting after a crash"),
    "57P03": ("unavailable", True, "the database server is starting up"),
    "58030": ("io_error", True, "the database server reported an I/O error"),
    "XX001": ("corrupt", False, "the database reported corrupt data"),
    "XX002": ("corrupt", False, "the database reported a corrupt index"),
}
#: SQLSTATE class 08 (connection exception) and its like: the server is out of reach.
_UNREACHABLE: Final = ("unavailable", True, "the database server cannot be reached")


def storage_error(error: psycopg.Error | psycopg_pool.PoolTimeout) -> StorageError:
    """Return ``error`` as a :class:`StorageError` that says what is wrong and if retrying helps."""
    sqlstate = getattr(error, "sqlstate", None) or ""
    fault = _BY_SQLSTATE.get(sqlstate)
    if fault is None and (
        sqlstate.startswith("08")
        or isinstance(error, psycopg_pool.PoolTimeout | psycopg.OperationalError)
    ):
        fault = _UNREACHABLE
    reason, retryable, advice = fault or ("other", False, "PostgreSQL failed")
    detail = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return StorageError(f"{advice} ({detail})", reason=reason, retryable=retryable)


def translated(error: psycopg.Error | psycopg_pool.PoolTimeout) -> StoreError:
    """Return ``error`` as the store's own error (see the module's docstring)."""
    if isinstance(error, psycopg.IntegrityError | errors.InvalidTextRepresentation):
        # A trigger, CHECK, UNIQUE or FOREIGN KEY refused the write, or a payload that is
        # not JSON reached the column's CHECK: the database itself said no.
        first_line = str(error).strip().splitlines()[0]
        refused = next((key for said, key in TRIGGERS.items() if first_line.startswith(said)), None)
        said = sentence(refused) if refused else sentence("database.refused", error=first_line)
        return ConstraintViolationError(said)
    return storage_error(error)


@contextmanager
def translate_postgres_errors() -> Iterator[None]:
    """Turn psycopg's exceptions raised in the body into the store's own :class:`StoreError`.

    Raises:
        ConstraintViolationError: the database refused a write.
        StorageError: any other database or connection failure, with its reason and whether
            a retry can help (see :func:`storage_error`).
        InvalidSessionIdError: a text that is not valid Unicode reached the driver (a session
            id given to a read: every text the store writes is checked first).
    """
    try:
        yield
    except BaseException as error:
        raise_as_store_error(error)
        raise


def raise_as_store_error(error: BaseException) -> None:
    """Raise the store's own error for ``error`` if psycopg or its pool raised it, as
    :func:`translate_postgres_errors` does; return for any other error."""
    if isinstance(error, psycopg.Error | psycopg_pool.PoolTimeout):
        raise translated(error) from error
    if isinstance(error, UnicodeEncodeError):
        raise InvalidSessionIdError(sentence("text.session_id_not_unicode")) from None
