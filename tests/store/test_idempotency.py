"""Idempotency keys: a retried append returns the first event and writes nothing twice."""

from __future__ import annotations

from typing import Any

import pytest

from sqlite_demo import EventStore, IdempotencyConflictError, StoreError, open_store
from tests.databases import Database

CALL = {"call_id": "c1", "name": "lookup", "arguments": "{}"}


@pytest.fixture
def chat(fresh_db: EventStore) -> EventStore:
    fresh_db.create_session("chat", session_id="s")
    fresh_db.create_session("other", session_id="t")
    return fresh_db


def test_a_retried_append_returns_the_original_event(chat: EventStore) -> None:
    first = chat.append_event("s", "user_message", {"content": "hi"}, idempotency_key="req-1")
    again = chat.append_event("s", "user_message", {"content": "hi"}, idempotency_key="req-1")
    assert again == first


def test_a_retried_append_writes_neither_event_nor_projection_twice(chat: EventStore) -> None:
    for _ in range(3):
        chat.append_event("s", "user_message", {"content": "hi"}, idempotency_key="req-1")
    assert len(chat.get_events_for_session("s")) == 1
    assert len(chat.get_messages("s")) == 1
    assert chat.append_event("s", "user_message", {"content": "next"}).event_id == 2


def test_a_retried_tool_call_is_answered_with_the_original_not_refused_as_a_reused_call_id(
    chat: EventStore,
) -> None:
    first = chat.append_event("s", "tool_call", CALL, idempotency_key="req-1")
    assert chat.append_event("s", "tool_call", CALL, idempotency_key="req-1") == first


def test_key_order_in_the_payload_does_not_make_a_retry_a_different_request(
    chat: EventStore,
) -> None:
    first = chat.append_event("s", "tool_call", CALL, idempotency_key="req-1")
    reordered = dict(reversed(list(CALL.items())))
    assert chat.append_event("s", "tool_call", reordered, idempotency_key="req-1") == first


@pytest.mark.parametrize(
    ("event_type", "payload"),
    [
        ("user_message", {"content": "something else"}),
        ("assistant_message", {"content": "hi"}),
        ("user_message", {"content": "hi", "extra": 1}),
    ],
)
def test_reusing_a_key_for_a_different_request_raises_and_writes_nothing(
    chat: EventStore, event_type: str, payload: dict[str, Any]
) -> None:
    chat.append_event("s", "user_message", {"content": "hi", "extra": True}, idempotency_key="k")
    with pytest.raises(IdempotencyConflictError, match="use a new key"):
        chat.append_event("s", event_type, payload, idempotency_key="k")
    assert len(chat.get_events_for_session("s")) == 1


def test_the_same_key_in_another_session_is_another_request(chat: EventStore) -> None:
    first = chat.append_event("s", "user_message", {"content": "hi"}, idempotency_key="k")
    other = chat.append_event("t", "user_message", {"content": "hi"}, idempotency_key="k")
    assert (first.event_id, other.event_id) == (1, 2)


def test_a_retry_is_answered_with_the_original_even_when_the_session_moved_on(
    chat: EventStore,
) -> None:
    # The retry states the version the first attempt saw; the first attempt's own event has
    # moved the session past it since. The key is checked first: a retry is never a conflict.
    first = chat.append_event(
        "s", "user_message", {"content": "hi"}, idempotency_key="k", expected_version=0
    )
    chat.append_event("s", "assistant_message", {"content": "hello"})
    again = chat.append_event(
        "s", "user_message", {"content": "hi"}, idempotency_key="k", expected_version=0
    )
    assert again == first
    assert len(chat.get_events_for_session("s")) == 2


def test_a_retry_after_a_restart_still_finds_the_original(db: Database) -> None:
    with open_store(db) as store:
        store.create_session("chat", session_id="s")
        first = store.append_event("s", "user_message", {"content": "hi"}, idempotency_key="k")
    with open_store(db) as restarted:
        again = restarted.append_event("s", "user_message", {"content": "hi"}, idempotency_key="k")
        assert again == first
        assert len(restarted.get_events_for_session("s")) == 1


@pytest.mark.parametrize("bad_key", ["", 42])
def test_a_key_that_is_not_a_non_empty_string_is_refused(chat: EventStore, bad_key: Any) -> None:
    with pytest.raises(StoreError, match="idempotency_key"):
        chat.append_event("s", "user_message", {"content": "hi"}, idempotency_key=bad_key)
    assert chat.get_events_for_session("s") == []
