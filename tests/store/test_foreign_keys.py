"""Foreign keys tie every event to a session: on SQLite only on connections that turn them
on, on PostgreSQL always."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing

import pytest

from sqlite_demo import EventStore, SqliteEventStore, UnknownSessionError, open_store
from tests.store.raw import raw_connection

ORPHAN = (
    "INSERT INTO events (event_id, session_id, type, payload, created_at)"
    " VALUES (1, 'no-such-session', 'user_message', '{\"content\":\"hi\"}', 0)"
)


@pytest.fixture
def raw_db(sqlite_db: SqliteEventStore) -> Iterator[sqlite3.Connection]:
    """A plain ``sqlite3`` connection to a store's file: no pragmas, autocommit."""
    with closing(sqlite3.connect(sqlite_db.path, isolation_level=None)) as connection:
        yield connection


def test_with_foreign_keys_on_an_orphan_event_is_refused(raw_db: sqlite3.Connection) -> None:
    raw_db.execute("PRAGMA foreign_keys = ON")
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY constraint failed"):
        raw_db.execute(ORPHAN)
    assert raw_db.execute("SELECT count(*) FROM events").fetchone() == (0,)


def test_with_foreign_keys_off_as_sqlite_defaults_an_orphan_event_gets_in(
    raw_db: sqlite3.Connection,
) -> None:
    # This is why the store sets the pragma on every connection it opens.
    assert raw_db.execute("PRAGMA foreign_keys").fetchone() == (0,)
    raw_db.execute(ORPHAN)
    assert raw_db.execute("SELECT session_id FROM events").fetchall() == [("no-such-session",)]


def test_on_postgresql_an_orphan_event_is_refused_on_any_connection(postgres_url: str) -> None:
    import psycopg

    with open_store(postgres_url), raw_connection(postgres_url) as raw:
        with pytest.raises(psycopg.errors.ForeignKeyViolation):
            raw.execute(ORPHAN)
        assert raw.execute("SELECT count(*) FROM events") == [(0,)]


def test_the_store_refuses_an_event_for_an_unknown_session_and_writes_nothing(
    fresh_db: EventStore,
) -> None:
    with pytest.raises(UnknownSessionError, match="create it first"):
        fresh_db.append_event("no-such-session", "user_message", {"content": "hi"})
    assert fresh_db.list_active_session_ids() == []
    fresh_db.create_session("chat", session_id="s")
    assert fresh_db.append_event("s", "user_message", {"content": "hi"}).event_id == 1
