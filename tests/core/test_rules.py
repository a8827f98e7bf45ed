"""The shared rules, checked directly: what the SQLite store refuses before it writes anything."""

from __future__ import annotations

import json
from typing import Any

import pytest

from eventlog import (
    CallIdError,
    CallState,
    Event,
    EventLogError,
    InvalidPayloadError,
    InvalidSessionIdError,
    ReadOnlyPayload,
    StoreError,
    UnknownEventTypeError,
    call_state_in,
    check_call_id,
    check_text,
    validate_append,
)

VALID = {
    "user_message": {"content": ""},
    "assistant_message": {"content": "hi"},
    "tool_call": {"call_id": "c", "name": "n", "arguments": "{not json"},
    "tool_result": {"call_id": "c", "content": ""},
}


@pytest.mark.parametrize("event_type", sorted(VALID))
def test_a_valid_payload_comes_back_equal_and_the_callers_later_changes_do_not_reach_it(
    event_type: str,
) -> None:
    payload = {**VALID[event_type], "extra": [1, {"deep": True}]}
    stored = validate_append("s", event_type, payload)
    payload["extra"][1]["deep"] = False
    payload["added"] = 1
    assert stored == {**VALID[event_type], "extra": [1, {"deep": True}]}


def test_the_payload_is_encoded_once_as_compact_json_with_non_ascii_text_kept_readable() -> None:
    stored = validate_append("s", "user_message", {"content": "你好", "n": [1, 2.5, None]})
    assert stored.json_text == '{"content":"你好","n":[1,2.5,null]}'


def test_every_error_is_a_value_error() -> None:
    for error in (UnknownEventTypeError, InvalidSessionIdError, InvalidPayloadError, CallIdError):
        assert issubclass(error, ValueError)
    assert issubclass(StoreError, EventLogError)


@pytest.mark.parametrize(
    ("session_id", "event_type", "payload", "error"),
    [
        ("s", "system_message", {"content": "x"}, UnknownEventTypeError),
        ("", "user_message", {"content": "x"}, InvalidSessionIdError),
        (7, "user_message", {"content": "x"}, InvalidSessionIdError),
        ("s\ud800", "user_message", {"content": "x"}, InvalidSessionIdError),
        ("s", "user_message", [("content", "x")], InvalidPayloadError),
        ("s", "user_message", {}, InvalidPayloadError),
        ("s", "user_message", {"content": 1}, InvalidPayloadError),
        ("s", "tool_call", {"call_id": "", "name": "n", "arguments": "{}"}, InvalidPayloadError),
        ("s", "tool_call", {"call_id": "c", "name": "", "arguments": "{}"}, InvalidPayloadError),
        ("s", "tool_call", {"call_id": "c", "name": "n", "arguments": {}}, InvalidPayloadError),
        ("s", "tool_result", {"call_id": "c"}, InvalidPayloadError),
        ("s", "user_message", {"content": "x", "when": {1, 2}}, InvalidPayloadError),
        ("s", "user_message", {"content": "x", 3: "non-str key"}, InvalidPayloadError),
        ("s", "user_message", {"content": "x", "deep": [{"k": {1: "v"}}]}, InvalidPayloadError),
        ("s", "user_message", {"content": "x", "pair": (1, 2)}, InvalidPayloadError),
        ("s", "user_message", {"content": "x", "n": float("nan")}, InvalidPayloadError),
        ("s", "user_message", {"content": "lone \ud800 surrogate"}, InvalidPayloadError),
        ("s", "user_message", {"content": "x", "deep": ["\udfff"]}, InvalidPayloadError),
    ],
)
def test_bad_input_is_refused_with_its_own_error(
    session_id: Any, event_type: Any, payload: Any, error: type[Exception]
) -> None:
    with pytest.raises(error):
        validate_append(session_id, event_type, payload)


@pytest.mark.parametrize(
    ("value", "non_empty", "refused"),
    [("", False, False), ("", True, True), ("a\x00b", True, False), ("\ud83d", False, True)],
)
def test_text_must_be_a_string_sqlite_can_store(value: str, non_empty: bool, refused: bool) -> None:
    if refused:
        with pytest.raises(StoreError, match="title"):
            check_text(value, "title", StoreError, non_empty=non_empty)
    else:
        assert check_text(value, "title", StoreError, non_empty=non_empty) == value


def test_a_read_only_payload_cannot_be_changed_through_what_it_hands_out() -> None:
    payload = ReadOnlyPayload('{"content": "x", "items": [1]}')
    payload["items"].append(2)
    with pytest.raises(TypeError):
        payload["content"] = "y"  # type: ignore[index]
    assert payload == {"content": "x", "items": [1]}


def test_a_payload_handed_its_decoded_items_uses_them_instead_of_decoding() -> None:
    items = {"content": "from the dict"}
    payload = ReadOnlyPayload('{"content": "from the text"}', items)
    assert payload["content"] == "from the dict"


def test_a_read_only_payload_decodes_its_text_only_when_first_read() -> None:
    payload = ReadOnlyPayload("not json at all")  # nothing is decoded yet, so nothing fails
    with pytest.raises(json.JSONDecodeError):
        payload["content"]


def _tool(event_id: int, event_type: str, call_id: str) -> Event:
    body = {"call_id": call_id, "content": "", "name": "n", "arguments": "{}"}
    return Event(event_id, "s", event_type, ReadOnlyPayload(json.dumps(body)))


def test_a_call_id_moves_from_unused_to_open_to_answered() -> None:
    call, result = _tool(1, "tool_call", "c"), _tool(2, "tool_result", "c")
    assert call_state_in([], "c") is CallState.UNUSED
    assert call_state_in([call], "c") is CallState.OPEN
    assert call_state_in([call, result], "c") is CallState.ANSWERED
    assert call_state_in([call, result], "other") is CallState.UNUSED
    assert call_state_in([_tool(1, "tool_call", "c\x00")], "c") is CallState.UNUSED


@pytest.mark.parametrize(
    ("event_type", "state"),
    [
        ("tool_call", CallState.OPEN),
        ("tool_call", CallState.ANSWERED),
        ("tool_result", CallState.UNUSED),
        ("tool_result", CallState.ANSWERED),
    ],
)
def test_call_ids_that_break_the_pairing_are_refused(event_type: str, state: CallState) -> None:
    with pytest.raises(CallIdError):
        check_call_id(event_type, "c", state)


@pytest.mark.parametrize(
    ("event_type", "state"),
    [("tool_call", CallState.UNUSED), ("tool_result", CallState.OPEN)],
)
def test_call_ids_that_keep_the_pairing_pass(event_type: str, state: CallState) -> None:
    check_call_id(event_type, "c", state)
