"""The EventStore contract, run against both stores: the pure core and SQLite must agree.

Every test here takes the ``store`` fixture, which is the in-memory adapter over
``solutions`` once and the SQLite store once (see ``conftest.py``). The two share no code,
so a rule one of them gets wrong shows up here. Refusals are compared as "raised a
``ValueError``", never by class name: each implementation names its own errors.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from eventlog.ports import EventStore
from tests.store.adapters import plain

HELLO = {"content": "hello"}


def _call(call_id: str, name: str = "lookup") -> dict[str, str]:
    return {"call_id": call_id, "name": name, "arguments": "{}"}


def _wire_call(call_id: str, name: str = "lookup") -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": "{}"}}


def _all_events(store: EventStore) -> list[tuple[int, str, str, dict[str, Any]]]:
    return [
        (event.event_id, event.session_id, event.type, dict(event.payload))
        for session_id in store.list_active_session_ids()
        for event in store.get_events_for_session(session_id)
    ]


def test_event_ids_form_one_global_sequence_from_one_without_gaps(store: EventStore) -> None:
    ids = [
        store.append_event("a", "user_message", HELLO).event_id,
        store.append_event("b", "user_message", HELLO).event_id,
        store.append_event("a", "assistant_message", HELLO).event_id,
    ]
    assert ids == [1, 2, 3]


def test_an_appended_event_carries_its_session_type_and_payload(store: EventStore) -> None:
    event = store.append_event("a", "tool_call", _call("c1"))
    assert (event.session_id, event.type, dict(event.payload)) == ("a", "tool_call", _call("c1"))


def test_extra_payload_keys_are_kept(store: EventStore) -> None:
    payload = {"content": "hi", "lang": "en", "meta": {"tokens": [1, 2]}}
    store.append_event("a", "user_message", payload)
    assert plain(store.get_events_for_session("a")[0].payload) == payload


def test_changing_the_callers_payload_later_changes_nothing(store: EventStore) -> None:
    payload: dict[str, Any] = {"content": "hi", "tags": ["x"]}
    store.append_event("a", "user_message", payload)
    payload["content"] = "changed"
    payload["tags"].append("y")
    assert plain(store.get_events_for_session("a")[0].payload) == {"content": "hi", "tags": ["x"]}


def test_mutating_a_read_payload_does_not_change_the_log(store: EventStore) -> None:
    store.append_event("a", "user_message", {"content": "hi", "tags": ["x"]})
    read = store.get_events_for_session("a")[0].payload
    with contextlib.suppress(AttributeError):  # a store that freezes nested lists as tuples
        read["tags"].append("y")
    with pytest.raises(TypeError):
        read["content"] = "changed"  # type: ignore[index]
    assert plain(store.get_events_for_session("a")[0].payload) == {"content": "hi", "tags": ["x"]}


def test_reading_after_an_id_returns_only_later_events_of_that_session(store: EventStore) -> None:
    for session_id in ("a", "b", "a", "a", "b"):
        store.append_event(session_id, "user_message", {"content": session_id})
    assert [event.event_id for event in store.get_events_for_session("a", 1)] == [3, 4]
    assert [event.event_id for event in store.get_events_for_session("b")] == [2, 5]
    assert list(store.get_events_for_session("a", 4)) == []


def test_an_unknown_session_has_no_events_and_replays_empty(store: EventStore) -> None:
    store.append_event("a", "user_message", HELLO)
    assert list(store.get_events_for_session("nobody")) == []
    assert store.replay_session("nobody") == []


def test_active_sessions_are_listed_once_in_order_of_first_event(store: EventStore) -> None:
    for session_id in ("b", "a", "b", "c", "a"):
        store.append_event(session_id, "user_message", HELLO)
    assert list(store.list_active_session_ids()) == ["b", "a", "c"]


def test_replay_turns_the_chapter_conversation_into_chat_messages(store: EventStore) -> None:
    store.append_event("a", "user_message", {"content": "orders?"})
    store.append_event("a", "tool_call", _call("c1", "count"))
    store.append_event("a", "tool_call", _call("c2", "sum"))
    store.append_event("a", "tool_result", {"call_id": "c1", "content": "42"})
    store.append_event("a", "tool_result", {"call_id": "c2", "content": "7"})
    store.append_event("a", "assistant_message", {"content": "42 orders"})
    both_calls = [_wire_call("c1", "count"), _wire_call("c2", "sum")]
    assert store.replay_session("a") == [
        {"role": "user", "content": "orders?"},
        {"role": "assistant", "content": None, "tool_calls": both_calls},
        {"role": "tool", "tool_call_id": "c1", "content": "42"},
        {"role": "tool", "tool_call_id": "c2", "content": "7"},
        {"role": "assistant", "content": "42 orders"},
    ]


def test_replay_returns_fresh_objects_on_every_call(store: EventStore) -> None:
    store.append_event("a", "user_message", HELLO)
    first = store.replay_session("a")
    first[0]["content"] = "changed"
    assert store.replay_session("a") == [{"role": "user", "content": "hello"}]


def test_call_ids_are_scoped_per_session(store: EventStore) -> None:
    store.append_event("a", "tool_call", _call("c1"))
    store.append_event("b", "tool_call", _call("c1"))
    store.append_event("b", "tool_result", {"call_id": "c1", "content": "b's answer"})
    assert store.replay_session("a")[-1]["tool_calls"] == [_wire_call("c1")]


BAD_APPENDS = {
    "unknown event type": ("a", "system_message", HELLO),
    "empty session id": ("", "user_message", HELLO),
    "session id not a string": (7, "user_message", HELLO),
    "payload not a mapping": ("a", "user_message", ["hello"]),
    "missing content": ("a", "user_message", {}),
    "content not a string": ("a", "assistant_message", {"content": 42}),
    "empty call id": ("a", "tool_call", _call("")),
    "arguments not a string": ("a", "tool_call", {**_call("c9"), "arguments": {}}),
    "reused call id": ("a", "tool_call", _call("c1")),
    "result for an unknown call": ("a", "tool_result", {"call_id": "c9", "content": "?"}),
    "second result for a call": ("a", "tool_result", {"call_id": "c2", "content": "again"}),
}


@pytest.mark.parametrize("bad_append", BAD_APPENDS.values(), ids=BAD_APPENDS.keys())
def test_a_bad_append_raises_value_error_and_appends_nothing(
    store: EventStore, bad_append: tuple[Any, str, Any]
) -> None:
    store.append_event("a", "tool_call", _call("c1"))
    store.append_event("a", "tool_call", _call("c2"))
    store.append_event("a", "tool_result", {"call_id": "c2", "content": "done"})
    before = _all_events(store)
    with pytest.raises(ValueError):
        store.append_event(*bad_append)
    assert _all_events(store) == before
    assert store.append_event("a", "user_message", HELLO).event_id == 4


def test_call_ids_that_differ_only_after_a_nul_character_are_different_calls(
    store: EventStore,
) -> None:
    store.append_event("a", "tool_call", _call("c\x00x"))
    store.append_event("a", "tool_call", _call("c\x00y"))
    store.append_event("a", "tool_result", {"call_id": "c\x00x", "content": "1"})
    for refused in ("c\x00x", "c", "c\x00"):
        with pytest.raises(ValueError):
            store.append_event("a", "tool_result", {"call_id": refused, "content": "again"})
    store.append_event("a", "tool_result", {"call_id": "c\x00y", "content": "2"})
    assert [m["tool_call_id"] for m in store.replay_session("a") if m["role"] == "tool"] == [
        "c\x00x",
        "c\x00y",
    ]
