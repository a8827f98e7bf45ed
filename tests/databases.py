"""The two backends, seen from a test: which database a test runs on, and reading it directly.

Tests that hold the store, the service or the soak to their promises take the ``db``
fixture (``tests/server_fixtures.py``), which is a SQLite file once and a PostgreSQL
database once, with the same assertions. To look behind the store's back (what is
committed, whether a refusal wrote nothing), :func:`query` and :func:`dump_database` read
either one over a connection of their own, with the same SQL (``?`` placeholders).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any, Final

import pytest

from sqlite_demo.store.opening import is_postgres_url

#: Every backend a store test runs on, as pytest ids.
BACKENDS: Final = ("sqlite", "postgres")

Database = str | Path
TableDump = dict[str, list[tuple[Any, ...]]]


def database_for(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """Return a new database of ``backend``: a SQLite file not yet created, or the URL of an
    empty PostgreSQL database (skipped, or failed in CI, where PostgreSQL is missing)."""
    if backend == "postgres":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return tmp_path / "agent.db"


def query(db: Database, sql: str, parameters: tuple[Any, ...] | list[Any] = ()) -> list[Any]:
    """Run one statement over a fresh connection of its own; return its rows as tuples.

    ``sql`` uses ``?`` placeholders on both backends. PostgreSQL's rows are as stored: a
    text holding NUL comes back escaped (see :mod:`sqlite_demo.store.postgres.text`).
    """
    if is_postgres_url(db):
        import psycopg

        with psycopg.connect(str(db), autocommit=True) as connection:
            cursor = connection.execute(sql.replace("?", "%s").encode(), parameters)
            return [tuple(row) for row in cursor.fetchall()] if cursor.description else []
    with closing(sqlite3.connect(db)) as connection:
        return connection.execute(sql, parameters).fetchall()


def dump_database(db: Database) -> TableDump:
    """Return every row of every table (SQLite's sqlite_sequence and PostgreSQL's log_head
    included), read over a separate connection: what is committed, not what a server says."""
    if is_postgres_url(db):
        tables = [
            name
            for (name,) in query(
                db,
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = 'public' ORDER BY table_name",
            )
        ]
        return {table: sorted(query(db, f'SELECT * FROM "{table}"'), key=repr) for table in tables}
    tables = [
        name
        for (name,) in query(
            db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        )
    ]
    return {table: query(db, f'SELECT * FROM "{table}" ORDER BY rowid') for table in tables}


@contextlib.contextmanager
def another_process_holds_the_write_lock(db: Database) -> Iterator[None]:
    """Hold, on a connection of its own, the lock every append needs first, until the end of
    the ``with`` block: SQLite's write lock (``BEGIN IMMEDIATE``), PostgreSQL's log head row."""
    if is_postgres_url(db):
        import psycopg

        with psycopg.connect(str(db)) as connection:  # not autocommit: one transaction
            connection.execute("UPDATE log_head SET last_event_id = last_event_id")
            yield
            connection.rollback()
        return
    from sqlite_demo.store.sqlite.connection import open_connection

    with closing(open_connection(db)) as connection:
        connection.execute("BEGIN IMMEDIATE")
        yield
        connection.execute("ROLLBACK")
