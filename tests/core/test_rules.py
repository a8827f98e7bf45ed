"""The shared payload rules, checked directly: both stores rely on them refusing the same input."""

from __future__ import annotations

from typing import Any

import pytest

from eventlog import (
    CallIdError,
    CallState,
    Event,
    InvalidPayloadError,
    InvalidSessionIdError,
    ReadOnlyPayload,
    UnknownEventTypeError,
    call_state_in,
    check_call_id,
    validate_append,
)

VALID = {
    "user_message": {"content": ""},
    "assistant_message": {"content": "hi"},
    "tool_call": {"call_id": "c", "name": "n", "arguments": "{not json"},
    "tool_result": {"call_id": "c", "content": ""},
}


@pytest.mark.parametrize("event_type", sorted(VALID))
def test_a_valid_payload_comes_back_as_an_equal_read_only_copy(event_type: str) -> None:
    payload = {**VALID[event_type], "extra": [1, {"deep": True}]}
    stored = validate_append("s", event_type, payload)
    payload["extra"][1]["deep"] = False
    assert stored == {**VALID[event_type], "extra": [1, {"deep": True}]}


def test_every_error_is_a_value_error() -> None:
    for error in (UnknownEventTypeError, InvalidSessionIdError, InvalidPayloadError, CallIdError):
        assert issubclass(error, ValueError)


@pytest.mark.parametrize(
    ("session_id", "event_type", "payload", "error"),
    [
        ("s", "system_message", {"content": "x"}, UnknownEventTypeError),
        ("", "user_message", {"content": "x"}, InvalidSessionIdError),
        (7, "user_message", {"content": "x"}, InvalidSessionIdError),
        ("s", "user_message", [("content", "x")], InvalidPayloadError),
        ("s", "user_message", {}, InvalidPayloadError),
        ("s", "user_message", {"content": 1}, InvalidPayloadError),
        ("s", "tool_call", {"call_id": "", "name": "n", "arguments": "{}"}, InvalidPayloadError),
        ("s", "tool_call", {"call_id": "c", "name": "", "arguments": "{}"}, InvalidPayloadError),
        ("s", "tool_call", {"call_id": "c", "name": "n", "arguments": {}}, InvalidPayloadError),
        ("s", "tool_result", {"call_id": "c"}, InvalidPayloadError),
        ("s", "user_message", {"content": "x", "when": {1, 2}}, InvalidPayloadError),
        ("s", "user_message", {"content": "x", 3: "non-str key"}, InvalidPayloadError),
    ],
)
def test_bad_input_is_refused_with_its_own_error(
    session_id: Any, event_type: Any, payload: Any, error: type[Exception]
) -> None:
    with pytest.raises(error):
        validate_append(session_id, event_type, payload)


def test_a_read_only_payload_cannot_be_changed_through_what_it_hands_out() -> None:
    payload = ReadOnlyPayload({"content": "x", "items": [1]})
    payload["items"].append(2)
    with pytest.raises(TypeError):
        payload["content"] = "y"  # type: ignore[index]
    assert payload == {"content": "x", "items": [1]}


def _tool(event_id: int, event_type: str, call_id: str) -> Event:
    body = {"call_id": call_id, "content": "", "name": "n", "arguments": "{}"}
    return Event(event_id, "s", event_type, ReadOnlyPayload(body))


def test_a_call_id_moves_from_unused_to_open_to_answered() -> None:
    call, result = _tool(1, "tool_call", "c"), _tool(2, "tool_result", "c")
    assert call_state_in([], "c") is CallState.UNUSED
    assert call_state_in([call], "c") is CallState.OPEN
    assert call_state_in([call, result], "c") is CallState.ANSWERED
    assert call_state_in([call, result], "other") is CallState.UNUSED


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


def test_a_payload_wrapped_without_a_copy_still_hands_out_copies() -> None:
    payload = ReadOnlyPayload.wrapping_fresh({"content": "x", "items": [1]})
    payload["items"].append(2)
    assert payload == {"content": "x", "items": [1]}
