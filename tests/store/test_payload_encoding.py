"""Payloads are stored as compact JSON text that a person can read with any SQL shell."""

from __future__ import annotations

import pytest

from eventlog import InvalidPayloadError
from sqlite_demo import EventStore
from tests.store.raw import RawDatabase


@pytest.fixture
def chat(fresh_db: EventStore) -> EventStore:
    fresh_db.create_session("chat", session_id="s")
    return fresh_db


def test_a_payload_is_stored_as_compact_json_with_non_ascii_text_kept_readable(
    chat: EventStore, raw_db: RawDatabase
) -> None:
    chat.append_event("s", "user_message", {"content": "你好", "n": [1, 2.5, None, True]})
    stored = raw_db.execute("SELECT payload FROM events")[0][0]
    assert stored == '{"content":"你好","n":[1,2.5,null,true]}'


def test_a_payload_reads_back_equal_to_what_was_appended(chat: EventStore) -> None:
    payload = {"content": "x", "big": 10**30, "tiny": 1e-300, "nested": {"a": [{"b": "c"}]}}
    appended = chat.append_event("s", "user_message", payload)
    assert appended.payload == payload
    assert chat.get_events_for_session("s")[0].payload == payload


def test_a_string_with_a_lone_surrogate_is_refused_because_it_is_not_utf8(
    chat: EventStore,
) -> None:
    # SQLite text must be valid UTF-8, so the shared rules refuse it in both stores.
    with pytest.raises(InvalidPayloadError, match=r"(?i)utf-8"):
        chat.append_event("s", "user_message", {"content": "\ud800"})
    assert chat.get_events_for_session("s") == []


def test_an_int_of_4300_digits_reads_back_and_one_of_4301_is_refused_with_nothing_written(
    chat: EventStore,
) -> None:
    # The contract stops at 4,300 digits, the most Python writes as JSON text: the store keeps
    # every int the contract allows, and says what is wrong with one past it.
    longest = -(10**4300 - 1)
    appended = chat.append_event("s", "user_message", {"content": "x", "n": longest})
    assert chat.get_events_for_session("s")[0].payload["n"] == longest == appended.payload["n"]
    with pytest.raises(InvalidPayloadError, match=r"JSON-compatible.*4300 digits"):
        chat.append_event("s", "user_message", {"content": "x", "n": 10**4300})
    assert len(chat.get_events_for_session("s")) == 1
