"""Creating the log and appending to it: the only way the log ever grows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from eventlog import Event, call_state_in, check_call_id, validate_append


@dataclass(frozen=True, slots=True)
class EventLog:
    """An immutable log: a tuple of events in append order. Appending builds a new log."""

    events: tuple[Event, ...] = ()


def create_event_log() -> EventLog:
    """Return an empty log."""
    return EventLog()


def append_event(
    log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]
) -> tuple[EventLog, Event]:
    """Return ``(new_log, event)`` with the event appended; ``log`` itself is unchanged.

    Args:
        log: the log to extend.
        session_id: the conversation the event belongs to (a non-empty string).
        event_type: ``user_message``, ``assistant_message``, ``tool_call`` or ``tool_result``.
        payload: the event's details; it is copied, so later changes by the caller do not leak in.

    Returns:
        The new log and the event, whose ``event_id`` is one more than the last one (1 at first).

    Raises:
        ValueError: (an :class:`eventlog.EventLogError`) for any bad input; nothing is appended.
    """
    stored_payload = validate_append(session_id, event_type, payload)
    if event_type in ("tool_call", "tool_result"):
        # Call ids are scoped to their session, so only this session's events matter.
        session_events = (event for event in log.events if event.session_id == session_id)
        call_id = stored_payload["call_id"]
        check_call_id(event_type, call_id, call_state_in(session_events, call_id))
    # Ids are positions in one global sequence: no gaps, never reused.
    event = Event(len(log.events) + 1, session_id, event_type, stored_payload)
    return EventLog((*log.events, event)), event
