"""Creating the log and appending to it: the only way the log ever grows.

The log is a value: a frozen dataclass holding a tuple of events. Appending never changes a
log; it checks the input, builds one new event and returns a new log that holds the old
events and the new one. Everything that can be wrong with an append is checked first, so a
refused append leaves no trace: no id used up, no log changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType, NoneType
from typing import Any

#: The four kinds of fact a conversation is made of.
EVENT_TYPES = ("user_message", "assistant_message", "tool_call", "tool_result")

#: The two types that pair up by ``call_id``.
TOOL_EVENTS = ("tool_call", "tool_result")

#: The keys each type's payload must hold, all strings, and whether each must be non-empty.
REQUIRED_KEYS: Mapping[str, Mapping[str, bool]] = {
    "user_message": {"content": False},
    "assistant_message": {"content": False},
    "tool_call": {"call_id": True, "name": True, "arguments": False},
    "tool_result": {"call_id": True, "content": False},
}


#: What :func:`freeze` keeps as it is, and what it turns into tuples. Tuples of types, built
#: once: ``str | int | ...`` written in the call would build a new union at every call, and
#: a wide payload makes thousands of them.
IMMUTABLE_LEAVES = (str, int, float, NoneType)
SEQUENCES = (list, tuple)


class AppendRefused(ValueError):
    """An append broke the contract; nothing was appended. A ``ValueError``, as promised."""


@dataclass(frozen=True, slots=True)
class Event:
    """One fact. Frozen: assigning to an attribute raises, so nobody can rewrite history.

    ``payload`` is read-only all the way down (see :func:`freeze`).
    """

    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class EventLog:
    """The log: its events, oldest first. A tuple, so two logs never share a list to change."""

    events: tuple[Event, ...] = ()


def create_event_log() -> EventLog:
    """Return an empty log."""
    return EventLog()


def append_event(
    log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]
) -> tuple[EventLog, Event]:
    """Return ``(new_log, event)`` with the event appended; ``log`` itself is unchanged.

    Args:
        log: the log to extend (any log: appending to an older one starts a branch).
        session_id: the conversation the event belongs to, a non-empty string.
        event_type: ``user_message``, ``assistant_message``, ``tool_call`` or ``tool_result``.
        payload: any mapping with the type's required string keys; extra keys are kept.

    Returns:
        The new log and the event, whose ``event_id`` is one more than the number of events
        in ``log``, whatever their sessions.

    Raises:
        AppendRefused: (a ValueError) for any bad input; nothing is appended.
    """
    check_event_type(event_type)
    check_session_id(session_id)
    stored = checked_payload(event_type, payload)
    check_call_id(log, session_id, event_type, stored)
    event = Event(len(log.events) + 1, session_id, event_type, stored)
    # Concatenation copies the old events once; ``(*log.events, event)`` builds a list first
    # and copies it again into a tuple, and appends are the log's commonest work.
    return EventLog(log.events + (event,)), event  # noqa: RUF005


def check_event_type(event_type: object) -> None:
    # ``in`` compares by ==, so a subclass of str spelling a known type is that type, as the
    # contract says (a subclass of str is a str wherever a string goes).
    if event_type not in EVENT_TYPES:
        raise AppendRefused(f"unknown event type {event_type!r}: expected one of {EVENT_TYPES}")


def check_session_id(session_id: object) -> None:
    if not isinstance(session_id, str) or not session_id:
        raise AppendRefused(f"session_id must be a non-empty string, got {session_id!r}")


def checked_payload(event_type: str, payload: object) -> Mapping[str, Any]:
    """Check the payload's required keys and return a frozen copy of it to store.

    Any mapping is a valid payload, so it is read through the ``Mapping`` interface only.
    :func:`freeze` builds new containers at every level, which makes the stored copy
    independent of the caller's: changing their mapping, or a list nested in it, later
    changes nothing here.
    """
    if not isinstance(payload, Mapping):
        raise AppendRefused(f"payload must be a mapping, got {type(payload).__name__}")
    for key, must_be_non_empty in REQUIRED_KEYS[event_type].items():
        value = payload.get(key)
        if not isinstance(value, str):
            raise AppendRefused(f"{event_type} payload[{key!r}] must be a string, got {value!r}")
        if must_be_non_empty and not value:
            raise AppendRefused(f"{event_type} payload[{key!r}] must not be empty")
    frozen: Mapping[str, Any] = freeze(payload)
    return frozen


def freeze(value: Any) -> Any:
    """A read-only copy of ``value``: mappings become read-only mappings, lists and tuples
    tuples, at every depth; strings, numbers, booleans and None are immutable already.

    A ``MappingProxyType`` over a dict only blocks changes at the top: a nested list inside it
    could still be appended to. Freezing every level means nothing a reader gets can change,
    and building every container anew means nothing the writer keeps can reach the log.

    An int is kept as the very object, whatever its size. The contract stops at 4,300 digits,
    the most Python converts to and from text, so that a copy made through JSON text (another
    correct way to copy) keeps every int it allows; past that, ``str(n)`` raises ValueError.
    """
    if isinstance(value, IMMUTABLE_LEAVES):
        return value  # the leaves, most of any payload: answered before the costlier checks
    if isinstance(value, SEQUENCES):
        return tuple(map(freeze, value))
    if isinstance(value, Mapping):  # an ABC check: slower, so after the plain types
        return MappingProxyType({key: freeze(item) for key, item in value.items()})
    return value


def call_state(log: EventLog, session_id: str, call_id: str) -> str:
    """Where ``call_id`` stands in this session, read from its newest tool event back.

    A call id is called at most once per session, so the newest tool event that names it
    settles the matter: its result means ``"answered"``, its call ``"open"``, and none at all
    ``"unused"``. Reading from the newest end stops as soon as it finds one: a result's
    check stops at its call. A new call's id, never used, is still looked for in every event.
    """
    for event in reversed(log.events):
        if (
            event.type in TOOL_EVENTS
            and event.session_id == session_id
            and event.payload["call_id"] == call_id
        ):
            return "answered" if event.type == "tool_result" else "open"
    return "unused"


def check_call_id(
    log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]
) -> None:
    """Refuse a tool event that breaks the pairing of calls and results in its session.

    Call ids are scoped to their session: the same id may be used once in every session.
    Ids are compared with ==, character by character as Python counts them, so a surrogate
    pair and the character it encodes are two ids (the contract says so for session ids and
    call ids alike; only payload strings are compared as JSON counts them).
    """
    if event_type not in TOOL_EVENTS:
        return
    call_id = payload["call_id"]
    state = call_state(log, session_id, call_id)
    if event_type == "tool_call" and state != "unused":
        raise AppendRefused(f"call_id {call_id!r} is already used in session {session_id!r}")
    if event_type == "tool_result" and state == "unused":
        raise AppendRefused(f"session {session_id!r} never called {call_id!r}")
    if event_type == "tool_result" and state == "answered":
        raise AppendRefused(f"call {call_id!r} of session {session_id!r} already has a result")
