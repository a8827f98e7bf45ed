"""An append is one transaction: when any step fails, neither the event nor its projection stays."""

from __future__ import annotations

import pytest

from sqlite_demo import (
    ConstraintViolationError,
    EventStore,
    ProjectionOutOfStepError,
    SqliteEventStore,
    StoredEvent,
)
from sqlite_demo.store.sqlite import projections
from tests.store.raw import (
    RawDatabase,
    let_projection_inserts_succeed,
    make_projection_inserts_fail,
)


@pytest.fixture
def chat(fresh_db: EventStore) -> EventStore:
    fresh_db.create_session("chat", session_id="s")
    return fresh_db


def _row_counts(store: EventStore) -> tuple[int, int, int]:
    return (
        len(store.get_events_for_session("s")),
        len(store.get_messages("s")),
        len(store.get_tool_calls("s")),
    )


def test_a_projection_refused_by_the_database_rolls_back_the_event_too(
    chat: EventStore, raw_db: RawDatabase
) -> None:
    # The event INSERT succeeds; then the messages INSERT hits this trigger.
    make_projection_inserts_fail(raw_db)
    with pytest.raises(ConstraintViolationError, match="projection failed on purpose"):
        chat.append_event("s", "user_message", {"content": "hello"})
    assert _row_counts(chat) == (0, 0, 0)


def test_after_a_rolled_back_append_the_next_event_id_has_no_gap(
    chat: EventStore, raw_db: RawDatabase
) -> None:
    make_projection_inserts_fail(raw_db)
    with pytest.raises(ConstraintViolationError):
        chat.append_event("s", "user_message", {"content": "lost"})
    let_projection_inserts_succeed(raw_db)
    assert chat.append_event("s", "user_message", {"content": "kept"}).event_id == 1


def test_a_python_error_in_the_projection_step_rolls_back_and_propagates_unchanged(
    sqlite_db: SqliteEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SQLite only: its append runs Python between the event and its projection. PostgreSQL's
    # runs inside the database (kit_append), where the test above makes the step fail.
    chat = sqlite_db
    chat.create_session("chat", session_id="s")
    chat.append_event("s", "user_message", {"content": "before"})

    def crash(connection: object, event: StoredEvent) -> None:
        raise RuntimeError("crashed between the event and its projection")

    with monkeypatch.context() as patch:
        patch.setattr(projections, "write_projection", crash)
        with pytest.raises(RuntimeError, match="crashed between"):
            chat.append_event("s", "tool_call", {"call_id": "c1", "name": "n", "arguments": ""})
    assert _row_counts(chat) == (1, 1, 0)
    # The connection is not left inside the failed transaction: the next append works.
    assert chat.append_event("s", "user_message", {"content": "after"}).event_id == 2


def test_a_result_for_a_call_missing_from_the_projection_is_refused_and_not_stored(
    chat: EventStore, raw_db: RawDatabase
) -> None:
    chat.append_event("s", "tool_call", {"call_id": "c1", "name": "n", "arguments": ""})
    raw_db.execute("DELETE FROM tool_calls")
    with pytest.raises(ProjectionOutOfStepError, match="rebuild_projections"):
        chat.append_event("s", "tool_result", {"call_id": "c1", "content": "42"})
    assert [event.type for event in chat.get_events_for_session("s")] == ["tool_call"]
