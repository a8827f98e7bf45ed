"""The rules: what a session id and each event type's payload must be, and how call ids pair up.

The SQLite store calls these before it writes anything, which is what makes "bad input writes
nothing" true: a rule that fails raises before a transaction even starts.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Mapping
from typing import Any, Final

from eventlog.errors import (
    CallIdError,
    EventLogError,
    InvalidPayloadError,
    InvalidSessionIdError,
    UnknownEventTypeError,
)
from eventlog.events import JSON_SCALARS, STORE_EVENT_TYPES, EventLike, ReadOnlyPayload
from eventlog.messages import sentence

#: The one JSON encoding of a payload: compact, non-ASCII kept readable, NaN refused. Made once,
#: because json.dumps() with options builds a new encoder at every call.
_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
#: The same encoding, by the C encoder ``_ENCODER.encode`` builds afresh at every call (most of
#: the cost of encoding a chat message), built once. Without the check for circular references:
#: the payload's checks walk every list and dict first, so a cycle never reaches the encoder.
#: None where the C accelerator is missing; ``_ENCODER`` encodes then.
_MAKE_C_ENCODER: Final[Any] = getattr(json.encoder, "c_make_encoder", None)
_C_ENCODE: Final[Any] = (
    None
    if _MAKE_C_ENCODER is None
    else _MAKE_C_ENCODER(
        None, _ENCODER.default, json.encoder.encode_basestring, None, ":", ",", False, False,
        False,
    )
)  # fmt: skip

#: Required keys per event type, and whether each must be non-empty. All are strings.
REQUIRED_KEYS: Final[Mapping[str, Mapping[str, bool]]] = {
    "user_message": {"content": False},
    "assistant_message": {"content": False},
    "tool_call": {"call_id": True, "name": True, "arguments": False},
    "tool_result": {"call_id": True, "content": False},
    "agent_item": {},
    "item_removed": {},
    "session_cleared": {},
}
#: Required keys that hold a JSON object, per event type: the item an ``agent_item`` keeps.
OBJECT_KEYS: Final[Mapping[str, str]] = {"agent_item": "item"}
#: The largest event id a database can hold (a signed 64-bit integer).
MAX_EVENT_ID: Final = 2**63 - 1
#: Required keys that hold an event id (an int, 0 or more), per event type: the corrections'
#: pointers to what they supersede.
EVENT_ID_KEYS: Final[Mapping[str, str]] = {
    "item_removed": "supersedes",
    "session_cleared": "supersedes_through",
}


class CallState(enum.Enum):
    """Where a call id stands in one session."""

    UNUSED = "unused"
    OPEN = "open"  # called, no result yet
    ANSWERED = "answered"


def check_text(value: object, what: str, error: type[EventLogError], *, non_empty: bool) -> str:
    """Return ``value`` if it is a string SQLite can store as text; raise ``error`` otherwise.

    A lone surrogate (``"\\ud800"``) is a valid Python ``str`` but not valid UTF-8, and SQLite
    text must be UTF-8: this is the one place that refuses it, for every text the store keeps.
    """
    if not isinstance(value, str) or (non_empty and not value):
        kind = "text.not_a_non_empty_string" if non_empty else "text.not_a_string"
        raise error(sentence(kind, what=what, value=value))
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as problem:
            raise error(sentence("text.not_unicode", what=what, problem=problem)) from None
    return value


def check_session_id(session_id: object) -> str:
    """Return ``session_id`` if it is a non-empty string of valid text, else raise.

    Raises:
        InvalidSessionIdError: it is not.
    """
    return check_text(session_id, "session_id", InvalidSessionIdError, non_empty=True)


def validate_append(session_id: object, event_type: object, payload: object) -> ReadOnlyPayload:
    """Check everything about an append that needs no look at the log; encode the payload once.

    Args:
        session_id: a non-empty string.
        event_type: one of :data:`eventlog.STORE_EVENT_TYPES`.
        payload: a mapping with the type's required string keys; extra keys are kept. Every
            value must be JSON: a string, a number, a bool, None, a list or a dict with string
            keys, at any depth (a tuple or an int key would not read back as it went in).

    Returns:
        The payload as a read-only JSON object, ready to store.

    Raises:
        UnknownEventTypeError, InvalidSessionIdError, InvalidPayloadError.
    """
    if event_type not in STORE_EVENT_TYPES:
        known = ", ".join(STORE_EVENT_TYPES)
        raise UnknownEventTypeError(
            sentence("event_type.unknown", event_type=event_type, known=known)
        )
    check_session_id(session_id)
    # A dict is a Mapping: asked first, it spares the ABC's slower check for the usual payload.
    if type(payload) is not dict and not isinstance(payload, Mapping):
        raise InvalidPayloadError(sentence("payload.not_a_mapping", got=type(payload).__name__))
    kind = str(event_type)
    for key, must_be_non_empty in REQUIRED_KEYS[kind].items():
        _check_string_field(kind, payload, key, must_be_non_empty)
    if kind in OBJECT_KEYS:
        _check_object_field(kind, payload, OBJECT_KEYS[kind])
    if kind in EVENT_ID_KEYS:
        _check_event_id_field(kind, payload, EVENT_ID_KEYS[kind])
    flat = _check_json_object(payload, "payload")
    items = dict(payload)
    # A flat payload (strings, numbers, bools, None) decodes to exactly this copy, which
    # nobody else holds: hand it over and spare the first reader a decode.
    return ReadOnlyPayload(_encode(items), items if flat else None)


def _check_string_field(
    event_type: str, payload: Mapping[Any, Any], key: str, must_be_non_empty: bool
) -> None:
    if key not in payload:
        raise InvalidPayloadError(sentence("payload.missing_key", event_type=event_type, key=key))
    value = payload[key]
    if not isinstance(value, str):
        got = type(value).__name__
        raise InvalidPayloadError(
            sentence("payload.not_a_string", event_type=event_type, key=key, got=got)
        )
    if must_be_non_empty and not value:
        raise InvalidPayloadError(sentence("payload.empty", event_type=event_type, key=key))


def _check_object_field(event_type: str, payload: Mapping[Any, Any], key: str) -> None:
    if key not in payload:
        raise InvalidPayloadError(sentence("payload.missing_key", event_type=event_type, key=key))
    value = payload[key]
    if not isinstance(value, Mapping):
        got = type(value).__name__
        raise InvalidPayloadError(
            sentence("payload.not_an_object", event_type=event_type, key=key, got=got)
        )


def _check_event_id_field(event_type: str, payload: Mapping[Any, Any], key: str) -> None:
    if key not in payload:
        raise InvalidPayloadError(sentence("payload.missing_key", event_type=event_type, key=key))
    value = payload[key]
    # bool is an int to Python, and True would be stored as the event id 1: refuse it.
    if type(value) is not int or not 0 <= value <= MAX_EVENT_ID:
        raise InvalidPayloadError(
            sentence("payload.not_an_event_id", event_type=event_type, key=key, value=value)
        )


def _check_json_object(value: Mapping[Any, Any], where: str) -> bool:
    # json.dumps would quietly turn an int key into a string and a tuple into a list, so the
    # payload read back would differ from the one appended: refuse both, at every depth.
    # Returns whether the object is flat: no list or dict inside.
    flat = True
    for key, item in value.items():
        if not isinstance(key, str):
            raise InvalidPayloadError(sentence("payload.key_not_a_string", where=where, key=key))
        if type(item) not in JSON_SCALARS:
            flat = False
            _check_json_value(item, f"{where}[{key!r}]")
    return flat


def _check_json_value(value: object, where: str) -> None:
    if isinstance(value, Mapping):
        _check_json_object(value, where)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_json_value(item, f"{where}[{index}]")
    elif isinstance(value, tuple):
        raise InvalidPayloadError(sentence("payload.tuple", where=where))


def _encode(payload: dict[str, Any]) -> str:
    # The one encode of an append: what is checked here is exactly the text that is stored.
    try:
        text = _ENCODER.encode(payload) if _C_ENCODE is None else "".join(_C_ENCODE(payload, 0))
    except (TypeError, ValueError) as error:
        raise InvalidPayloadError(sentence("payload.not_json", error=error)) from None
    return check_text(text, "payload", InvalidPayloadError, non_empty=True)


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
        raise CallIdError(sentence("call_id.used", call_id=call_id))
    if event_type == "tool_result" and state is CallState.UNUSED:
        raise CallIdError(sentence("call_id.never_called", call_id=call_id))
    if event_type == "tool_result" and state is CallState.ANSWERED:
        raise CallIdError(sentence("call_id.answered", call_id=call_id))
