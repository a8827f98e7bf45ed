"""Which backend a ``--db`` names: a ``postgresql://`` URL, or else a SQLite file."""

from __future__ import annotations

import os
import urllib.parse
from typing import Final

from eventlog import StoreError
from sqlite_demo.store.contract import EventStore
from sqlite_demo.store.sqlite.connection import Synchronous
from sqlite_demo.store.sqlite.store import SqliteEventStore

#: The URL schemes libpq accepts, and so the ones that name a PostgreSQL database.
POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")


def is_postgres_url(db: str | os.PathLike[str]) -> bool:
    """Whether ``db`` is a PostgreSQL connection URL rather than a file path."""
    return isinstance(db, str) and db.startswith(POSTGRES_SCHEMES)


def describe_db(db: str | os.PathLike[str]) -> str:
    """Return ``db`` as a message may show it: a path as it is, a URL without its password."""
    if not is_postgres_url(db):
        return os.fspath(db)
    parts = urllib.parse.urlsplit(str(db))
    if parts.password is None:
        return str(db)
    host = parts.netloc.rpartition("@")[2]
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


def open_store(db: str | os.PathLike[str], *, synchronous: Synchronous = "NORMAL") -> EventStore:
    """Open the store ``db`` names: PostgreSQL for a ``postgresql://`` URL, SQLite otherwise.

    Args:
        db: a file path (created with its schema when missing), or a URL such as
            ``postgresql://user@host/dbname`` (the schema is created when missing).
        synchronous: SQLite only (``"NORMAL"`` or ``"FULL"``). PostgreSQL always waits for
            its WAL to reach the disk at COMMIT (``synchronous_commit = on``): a commit it
            acknowledged survives the server being killed, as ``FULL`` does on SQLite.

    Raises:
        StoreError: bad settings, or a database of an older schema.
        StorageError: the database cannot be reached, opened or read.
    """
    if is_postgres_url(db):
        # Imported here: psycopg is needed only by those who use PostgreSQL.
        try:
            from sqlite_demo.store.postgres import PostgresEventStore
        except ImportError as missing:
            raise StoreError(
                f'a postgresql:// database needs psycopg ({missing}): pip install -e ".[postgres]"'
            ) from None

        return PostgresEventStore(str(db))
    return SqliteEventStore(db, synchronous=synchronous)
