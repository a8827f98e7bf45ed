"""Sessions: created before they are written to, with unguessable ids, listed in creation order."""

from __future__ import annotations

import re
from typing import Any

import pytest

from sqlite_demo import EventStore, SessionExistsError, UnknownSessionError, open_store
from tests.databases import Database


def test_a_generated_session_id_is_sess_followed_by_128_random_bits_in_hex(
    fresh_db: EventStore,
) -> None:
    session = fresh_db.create_session("chat")
    assert re.fullmatch(r"sess_[0-9a-f]{32}", session.id), session.id


def test_generated_session_ids_do_not_repeat(fresh_db: EventStore) -> None:
    ids = {fresh_db.create_session("chat").id for _ in range(500)}
    assert len(ids) == 500


def test_generated_session_ids_use_every_hex_digit_at_every_position(
    fresh_db: EventStore,
) -> None:
    # A weak source (a counter, a clock) leaves positions stuck; 500 random ids do not.
    ids = [fresh_db.create_session("chat").id.removeprefix("sess_") for _ in range(500)]
    assert all(len({session_id[i] for session_id in ids}) == 16 for i in range(32))


def test_a_created_session_can_be_read_back(fresh_db: EventStore) -> None:
    created = fresh_db.create_session("Orders", session_id="sess_a")
    assert fresh_db.get_session("sess_a") == created
    assert (created.id, created.title) == ("sess_a", "Orders")
    assert isinstance(created.created_at, int)


def test_an_explicit_id_that_exists_already_is_refused(fresh_db: EventStore) -> None:
    fresh_db.create_session("first", session_id="sess_a")
    with pytest.raises(SessionExistsError, match="already exists"):
        fresh_db.create_session("second", session_id="sess_a")
    assert [session.title for session in fresh_db.list_all_sessions()] == ["first"]


@pytest.mark.parametrize(
    ("title", "session_id"), [(None, None), (7, None), ("chat", ""), ("chat", 7)]
)
def test_a_bad_title_or_explicit_id_is_a_value_error(
    fresh_db: EventStore, title: Any, session_id: Any
) -> None:
    with pytest.raises(ValueError):
        fresh_db.create_session(title, session_id=session_id)
    assert fresh_db.list_all_sessions() == []


def test_an_unknown_session_cannot_be_read(fresh_db: EventStore) -> None:
    with pytest.raises(UnknownSessionError, match="nope"):
        fresh_db.get_session("nope")


def test_all_sessions_are_listed_in_creation_order_but_only_active_ones_by_first_event(
    fresh_db: EventStore,
) -> None:
    for session_id in ("c", "a", "b"):
        fresh_db.create_session(session_id, session_id=session_id)
    fresh_db.append_event("b", "user_message", {"content": "x"})
    fresh_db.append_event("c", "user_message", {"content": "x"})
    assert [session.id for session in fresh_db.list_all_sessions()] == ["c", "a", "b"]
    assert fresh_db.list_active_session_ids() == ["b", "c"]


def test_sessions_and_events_outlive_the_store_that_wrote_them(db: Database) -> None:
    with open_store(db) as store:
        session = store.create_session("chat")
        event = store.append_event(session.id, "user_message", {"content": "remember me"})
    with open_store(db) as reopened:
        assert reopened.get_session(session.id) == session
        assert reopened.get_events_for_session(session.id) == [event]
