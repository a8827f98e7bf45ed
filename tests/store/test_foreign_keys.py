"""Foreign keys tie every event to a session, but only on connections that turn them on."""

from __future__ import annotations

import sqlite3

import pytest

from sqlite_demo import SqliteEventStore, UnknownSessionError

ORPHAN = (
    "INSERT INTO events (session_id, type, payload, created_at)"
    " VALUES ('no-such-session', 'user_message', '{\"content\":\"hi\"}', 0)"
)


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


def test_the_store_refuses_an_event_for_an_unknown_session_and_writes_nothing(
    fresh_db: SqliteEventStore,
) -> None:
    with pytest.raises(UnknownSessionError, match="create it first"):
        fresh_db.append_event("no-such-session", "user_message", {"content": "hi"})
    assert fresh_db.list_active_session_ids() == []
    fresh_db.create_session("chat", session_id="s")
    assert fresh_db.append_event("s", "user_message", {"content": "hi"}).event_id == 1
