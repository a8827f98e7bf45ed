"""Opening the backend a ``--db`` names: a ``postgresql://`` URL, or else a SQLite file."""

from __future__ import annotations

import os

from eventlog import StoreError
from sqlite_demo.store.contract import EventStore
from sqlite_demo.store.locations import describe_db, is_postgres_url
from sqlite_demo.store.sqlite.connection import Synchronous
from sqlite_demo.store.sqlite.store import SqliteEventStore


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


__all__ = ["describe_db", "is_postgres_url", "open_store"]
