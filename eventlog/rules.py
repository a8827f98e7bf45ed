"""The payload rules: what each event type must carry, and how tool call ids pair up.

Both stores call these before writing anything, which is what makes "bad input writes
nothing" true everywhere: a rule that fails raises before the first byte is stored.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Mapping
from typing import Any, Final

from eventlog.errors import (
    CallIdError,
    InvalidPayloadError,
    InvalidSessionIdError,
    UnknownEventTypeError,
)
from eventlog.events import EVENT_TYPES, EventLike, ReadOnlyPayload

#: Required keys per event type, and whether each must be non-empty. All are strings.
REQUIRED_KEYS: Final[Mapping[str, Mapping[str, bool]]] = {
    "user_message": {"content": False},
    "assistant_message": {"content": False},
    "tool_call": {"call_id": True, "name": True, "arguments": False},
    "tool_result": {"call_id": True, "content": False},
}


class CallState(enum.Enum):
    """Where a call id stands in one session."""

    UNUSED = "unused"
    OPEN = "open"  # called, no result yet
    ANSWERED = "answered"


def validate_append(session_id: object, event_type: object, payload: object) -> ReadOnlyPayload:
    """Check everything about an append that needs no look at the log.

    Args:
        session_id: must be a non-empty ``str``.
        event_type: one of :data:`EVENT_TYPES`.
        payload: a mapping with the type's required string keys; extra keys are kept.

    Returns:
        A read-only copy of the payload, safe to store.

    Raises:
        UnknownEventTypeError, InvalidSessionIdError, InvalidPayloadError.
    """
    if event_type not in EVENT_TYPES:
        raise UnknownEventTypeError(
            f"unknown event type {event_type!r}: expected one of {', '.join(EVENT_TYPES)}"
        )
    if not isinstance(session_id, str) or not session_id:
        raise InvalidSessionIdError(f"session_id must be a non-empty string, got {session_id!r}")
    if not isinstance(payload, Mapping):
        raise InvalidPayloadError(f"payload must be a mapping, got {type(payload).__name__}")
    for key, must_be_non_empty in REQUIRED_KEYS[str(event_type)].items():
        _check_string_field(str(event_type), payload, key, must_be_non_empty)
    _check_json_compatible(payload)
    return ReadOnlyPayload(payload)


def _check_string_field(
    event_type: str, payload: Mapping[Any, Any], key: str, must_be_non_empty: bool
) -> None:
    if key not in payload:
        raise InvalidPayloadError(f"a {event_type} payload needs the key {key!r}")
    value = payload[key]
    if not isinstance(value, str):
        raise InvalidPayloadError(
            f"{event_type} payload[{key!r}] must be a string, got {type(value).__name__}"
        )
    if must_be_non_empty and not value:
        raise InvalidPayloadError(f"{event_type} payload[{key!r}] must not be empty")


def _check_json_compatible(payload: Mapping[Any, Any]) -> None:
    # The SQLite store keeps payloads as JSON text; refusing what JSON cannot hold here
    # keeps the two stores' answers identical for every input.
    if not all(isinstance(key, str) for key in payload):
        raise InvalidPayloadError("payload keys must all be strings")
    try:
        # encode() catches lone surrogates ("\ud800"): valid in a str, not storable as UTF-8.
        json.dumps(payload, allow_nan=False, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError) as error:
        raise InvalidPayloadError(f"payload must be JSON-compatible: {error}") from None


def call_state_in(session_events: Iterable[EventLike], call_id: str) -> CallState:
    """Fold one session's events into the state of ``call_id``: unused, open or answered."""
    state = CallState.UNUSED
    for event in session_events:
        if event.type in ("tool_call", "tool_result") and event.payload["call_id"] == call_id:
            state = CallState.OPEN if event.type == "tool_call" else CallState.ANSWERED
    return state


def check_call_id(event_type: str, call_id: str, state: CallState) -> None:
    """Refuse a tool event that breaks the pairing of calls and results within a session.

    A ``tool_call`` needs a call id the session has never used; a ``tool_result`` needs an
    open call (called, not yet answered). Other event types pass untouched.

    Raises:
        CallIdError: with a sentence naming the call id and what was wrong.
    """
    if event_type == "tool_call" and state is not CallState.UNUSED:
        raise CallIdError(f"call_id {call_id!r} is already used in this session")
    if event_type == "tool_result" and state is CallState.UNUSED:
        raise CallIdError(f"tool_result for call_id {call_id!r}, which this session never called")
    if event_type == "tool_result" and state is CallState.ANSWERED:
        raise CallIdError(f"call_id {call_id!r} already has a result in this session")
