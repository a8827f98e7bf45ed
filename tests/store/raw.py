"""A raw connection to either backend, to go around the store and show what the schema does.

The same SQL runs on both (``?`` placeholders; each backend's own dialect where it must
differ, as :func:`make_projection_inserts_fail` shows), and the driver's own errors come
back as they are, under one name: :attr:`RawDatabase.Refused`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from typing import Any, Protocol

from sqlite_demo.store.opening import is_postgres_url
from tests.databases import Database


class RawDatabase(Protocol):
    """What a test does with a raw connection."""

    backend: str
    #: What the driver raises when the schema itself refuses a write (a trigger, a CHECK).
    Refused: tuple[type[Exception], ...]

    def execute(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]: ...


class _RawSqlite:
    backend = "sqlite"
    Refused: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def execute(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self.connection.execute(sql, parameters).fetchall()


class _RawPostgres:
    backend = "postgres"

    def __init__(self, connection: Any) -> None:
        import psycopg

        self.connection = connection
        # A payload that is not JSON fails its cast to json before any CHECK: a DataError.
        self.Refused: tuple[type[Exception], ...] = (psycopg.IntegrityError, psycopg.DataError)

    def execute(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        cursor = self.connection.execute(sql.replace("?", "%s").encode(), parameters)
        return [tuple(row) for row in cursor.fetchall()] if cursor.description else []


@contextmanager
def raw_connection(db: Database) -> Iterator[RawDatabase]:
    """A plain connection to ``db`` in autocommit: SQLite without the store's pragmas."""
    if is_postgres_url(db):
        import psycopg

        with psycopg.connect(str(db), autocommit=True) as connection:
            yield _RawPostgres(connection)
        return
    with closing(sqlite3.connect(db, isolation_level=None)) as connection:
        yield _RawSqlite(connection)


def make_projection_inserts_fail(raw: RawDatabase) -> None:
    """Install a trigger that refuses every INSERT into ``messages`` as a constraint would."""
    if raw.backend == "sqlite":
        raw.execute(
            "CREATE TRIGGER fail_projection BEFORE INSERT ON messages"
            " BEGIN SELECT RAISE(ABORT, 'projection failed on purpose'); END"
        )
        return
    raw.execute(
        "CREATE FUNCTION fail_projection() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        " RAISE EXCEPTION 'projection failed on purpose'"
        " USING ERRCODE = 'integrity_constraint_violation'; END $$"
    )
    raw.execute(
        "CREATE TRIGGER fail_projection BEFORE INSERT ON messages"
        " FOR EACH ROW EXECUTE FUNCTION fail_projection()"
    )


def let_projection_inserts_succeed(raw: RawDatabase) -> None:
    """Remove what :func:`make_projection_inserts_fail` installed."""
    if raw.backend == "sqlite":
        raw.execute("DROP TRIGGER fail_projection")
    else:
        raw.execute("DROP TRIGGER fail_projection ON messages")
