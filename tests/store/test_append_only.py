"""The schema itself keeps the log append-only: even a raw connection cannot edit or erase.

Each test runs on both backends (SQLite's RAISE(ABORT) triggers, PostgreSQL's plpgsql ones).
"""

from __future__ import annotations

import pytest

from sqlite_demo import EventStore
from tests.store.raw import RawDatabase


@pytest.fixture
def one_event(fresh_db: EventStore) -> EventStore:
    fresh_db.create_session("chat", session_id="s")
    fresh_db.append_event("s", "user_message", {"content": "hello"})
    return fresh_db


def test_updating_an_event_is_refused_by_a_trigger(
    one_event: EventStore, raw_db: RawDatabase
) -> None:
    with pytest.raises(raw_db.Refused, match="events are append-only"):
        raw_db.execute('UPDATE events SET payload = \'{"content":"edited"}\' WHERE event_id = 1')
    assert one_event.get_events_for_session("s")[0].payload == {"content": "hello"}


def test_deleting_an_event_is_refused_by_a_trigger(
    one_event: EventStore, raw_db: RawDatabase
) -> None:
    with pytest.raises(raw_db.Refused, match="events are append-only"):
        raw_db.execute("DELETE FROM events")
    assert len(one_event.get_events_for_session("s")) == 1


def test_projection_rows_may_be_deleted_and_refolded_from_the_events(
    one_event: EventStore, raw_db: RawDatabase
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
    one_event: EventStore, raw_db: RawDatabase, event_type: str, payload: str
) -> None:
    refusal = r"(?i)check constraint|invalid input syntax for type json"
    with pytest.raises(raw_db.Refused, match=refusal):
        raw_db.execute(
            "INSERT INTO events (event_id, session_id, type, payload, created_at)"
            " VALUES (99, 's', ?, ?, 0)",
            (event_type, payload),
        )


def test_emptying_the_log_at_once_is_refused_too(
    one_event: EventStore, raw_db: RawDatabase
) -> None:
    # PostgreSQL's TRUNCATE fires no row trigger: it has a statement trigger of its own.
    statement = "TRUNCATE events CASCADE" if raw_db.backend == "postgres" else "DELETE FROM events"
    with pytest.raises(raw_db.Refused, match="events are append-only"):
        raw_db.execute(statement)
    assert len(one_event.get_events_for_session("s")) == 1
