"""The schema itself keeps the log append-only: even a raw connection cannot edit or erase."""

from __future__ import annotations

import sqlite3

import pytest

from sqlite_demo import SqliteEventStore


@pytest.fixture
def one_event(fresh_db: SqliteEventStore) -> SqliteEventStore:
    fresh_db.create_session("chat", session_id="s")
    fresh_db.append_event("s", "user_message", {"content": "hello"})
    return fresh_db


def test_updating_an_event_is_refused_by_a_trigger(
    one_event: SqliteEventStore, raw_db: sqlite3.Connection
) -> None:
    with pytest.raises(sqlite3.IntegrityError, match="events are append-only"):
        raw_db.execute('UPDATE events SET payload = \'{"content":"edited"}\' WHERE event_id = 1')
    assert one_event.get_events_for_session("s")[0].payload == {"content": "hello"}


def test_deleting_an_event_is_refused_by_a_trigger(
    one_event: SqliteEventStore, raw_db: sqlite3.Connection
) -> None:
    with pytest.raises(sqlite3.IntegrityError, match="events are append-only"):
        raw_db.execute("DELETE FROM events")
    assert len(one_event.get_events_for_session("s")) == 1


def test_projection_rows_may_be_deleted_and_refolded_from_the_events(
    one_event: SqliteEventStore, raw_db: sqlite3.Connection
) -> None:
    before = one_event.get_messages("s")
    raw_db.execute("DELETE FROM messages")
    assert one_event.get_messages("s") == []
    one_event.rebuild_projections()
    assert one_event.get_messages("s") == before != []


@pytest.mark.parametrize(
    ("event_type", "payload"),
    [("user_message", "not json"), ("user_message", "[1]"), ("system_message", "{}")],
)
def test_a_bad_type_or_a_payload_that_is_not_a_json_object_is_refused_by_a_check(
    one_event: SqliteEventStore, raw_db: sqlite3.Connection, event_type: str, payload: str
) -> None:
    with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
        raw_db.execute(
            "INSERT INTO events (session_id, type, payload, created_at) VALUES ('s', ?, ?, 0)",
            (event_type, payload),
        )
