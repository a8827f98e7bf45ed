"""Optimistic concurrency: an append can state the session version its decision was based on.

The version is the session's last event id (0 while it is empty). The store checks it inside
the write transaction, after taking the write lock, so a writer that read the session before
another writer appended cannot append on its stale view, in this process or in another one.
"""

from __future__ import annotations

import pytest

from sqlite_demo import EventStore, UnknownSessionError, VersionConflictError, open_store
from tests.databases import Database

HELLO = {"content": "hello"}


@pytest.fixture
def chat(fresh_db: EventStore) -> EventStore:
    fresh_db.create_session("chat", session_id="s")
    fresh_db.create_session("other", session_id="t")
    return fresh_db


def test_an_empty_session_is_at_version_zero_and_each_append_moves_it_to_its_event_id(
    chat: EventStore,
) -> None:
    first = chat.append_event("s", "user_message", HELLO, expected_version=0)
    chat.append_event("t", "user_message", HELLO)  # another session's event takes id 2
    second = chat.append_event("s", "assistant_message", HELLO, expected_version=first.event_id)
    assert (first.event_id, second.event_id) == (1, 3)


def test_a_stale_version_is_a_typed_conflict_that_names_both_versions_and_writes_nothing(
    chat: EventStore,
) -> None:
    chat.append_event("s", "user_message", HELLO)
    with pytest.raises(VersionConflictError, match="at event 1, not 0") as conflict:
        chat.append_event("s", "assistant_message", HELLO, expected_version=0)
    assert (conflict.value.expected, conflict.value.actual) == (0, 1)
    assert isinstance(conflict.value, ValueError)
    assert [event.event_id for event in chat.get_events_for_session("s")] == [1]
    assert len(chat.get_messages("s")) == 1


def test_a_version_from_the_future_is_a_conflict_too(chat: EventStore) -> None:
    with pytest.raises(VersionConflictError):
        chat.append_event("s", "user_message", HELLO, expected_version=5)


def test_other_sessions_appends_do_not_move_a_sessions_version(chat: EventStore) -> None:
    chat.append_event("s", "user_message", HELLO)
    for _ in range(3):
        chat.append_event("t", "user_message", HELLO)
    assert chat.append_event("s", "assistant_message", HELLO, expected_version=1).event_id == 5


def test_an_unknown_session_is_unknown_not_a_conflict(chat: EventStore) -> None:
    with pytest.raises(UnknownSessionError):
        chat.append_event("nobody", "user_message", HELLO, expected_version=0)


def test_of_two_writers_in_two_stores_on_one_file_that_read_the_same_version_one_wins(
    db: Database,
) -> None:
    with open_store(db) as first, open_store(db) as second:
        first.create_session("chat", session_id="s")
        version = 0  # both read the empty session and decide to greet
        first.append_event(
            "s", "assistant_message", {"content": "hi from 1"}, expected_version=version
        )
        with pytest.raises(VersionConflictError):
            second.append_event(
                "s", "assistant_message", {"content": "hi from 2"}, expected_version=version
            )
        # The loser reads again and decides on what it sees now.
        latest = second.get_events_for_session("s")[-1].event_id
        second.append_event("s", "user_message", HELLO, expected_version=latest)
        assert [event.payload["content"] for event in first.get_events_for_session("s")] == [
            "hi from 1",
            "hello",
        ]
