"""The projections: fast read paths kept in step with the events, and refoldable from them."""

from __future__ import annotations

import pytest

from sqlite_demo import EventStore, MessageRow, StorageError, ToolCallRow
from tests.store.folds import expected_messages, expected_tool_calls
from tests.store.raw import RawDatabase


@pytest.fixture
def chapter_chat(fresh_db: EventStore) -> EventStore:
    """The chapter's conversation in session a, and a short second one in session b."""
    store = fresh_db
    store.create_session("Orders", session_id="a")
    store.create_session("Docs", session_id="b")
    store.append_event("a", "user_message", {"content": "hello"})
    store.append_event("a", "assistant_message", {"content": "hi, I can count orders"})
    store.append_event("a", "user_message", {"content": "how many orders?"})
    store.append_event("a", "tool_call", {"call_id": "c1", "name": "count", "arguments": "{}"})
    store.append_event("b", "tool_call", {"call_id": "c1", "name": "summarise", "arguments": ""})
    store.append_event("a", "tool_result", {"call_id": "c1", "content": "42"})
    store.append_event("a", "assistant_message", {"content": "You have 42 orders."})
    return store


def test_messages_hold_only_user_and_assistant_events_so_tool_event_ids_are_skipped(
    chapter_chat: EventStore,
) -> None:
    assert [row.event_id for row in chapter_chat.get_messages("a")] == [1, 2, 3, 7]
    assert chapter_chat.get_messages("a")[0] == MessageRow(1, "user", "hello")


def test_a_tool_result_fills_in_the_result_of_its_own_sessions_call(
    chapter_chat: EventStore,
) -> None:
    assert chapter_chat.get_tool_calls("a") == [ToolCallRow(4, "c1", "count", "{}", "42")]
    assert chapter_chat.get_tool_calls("b") == [ToolCallRow(5, "c1", "summarise", "", None)]


def test_an_unknown_session_has_empty_projections(chapter_chat: EventStore) -> None:
    assert (chapter_chat.get_messages("zz"), chapter_chat.get_tool_calls("zz")) == ([], [])


def test_rebuilding_after_projection_rows_were_deleted_restores_the_fold_of_the_events(
    chapter_chat: EventStore, raw_db: RawDatabase
) -> None:
    raw_db.execute("DELETE FROM messages WHERE event_id IN (2, 7)")
    raw_db.execute("DELETE FROM tool_calls")
    chapter_chat.rebuild_projections()
    for session_id in ("a", "b"):
        events = chapter_chat.get_events_for_session(session_id)
        assert chapter_chat.get_messages(session_id) == expected_messages(events)
        assert chapter_chat.get_tool_calls(session_id) == expected_tool_calls(events)


def test_rebuilding_overwrites_projection_rows_that_were_edited_by_hand(
    chapter_chat: EventStore, raw_db: RawDatabase
) -> None:
    before = chapter_chat.get_messages("a"), chapter_chat.get_tool_calls("a")
    raw_db.execute("UPDATE messages SET content = 'tampered'")
    raw_db.execute("UPDATE tool_calls SET result = NULL")
    chapter_chat.rebuild_projections()
    assert (chapter_chat.get_messages("a"), chapter_chat.get_tool_calls("a")) == before


def test_appending_continues_normally_after_a_rebuild(chapter_chat: EventStore) -> None:
    chapter_chat.rebuild_projections()
    chapter_chat.append_event("b", "tool_result", {"call_id": "c1", "content": "a summary"})
    assert chapter_chat.get_tool_calls("b")[0].result == "a summary"


def test_a_closed_store_refuses_every_call(chapter_chat: EventStore) -> None:
    chapter_chat.close()
    chapter_chat.close()  # closing twice is fine
    calls = [
        lambda: chapter_chat.get_messages("a"),
        lambda: chapter_chat.get_tool_calls("a"),
        lambda: chapter_chat.get_events_for_session("a"),
        lambda: chapter_chat.replay_session("a"),
        lambda: chapter_chat.append_event("a", "user_message", {"content": "x"}),
        lambda: chapter_chat.create_session("t"),
        chapter_chat.rebuild_projections,
        chapter_chat.check_writable,
    ]
    for call in calls:
        with pytest.raises(StorageError, match="closed"):
            call()
