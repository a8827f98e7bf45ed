"""Reading the log: one session's events (optionally after an id), and the list of sessions.

Readers only filter what is there and hand out new tuples: a caller who changes what they got
changes their own tuple (they cannot: tuples are read-only), never the log.
"""

from __future__ import annotations

from solutions.event_log import Event, EventLog


def get_events_for_session(
    log: EventLog, session_id: str, after_event_id: int = 0
) -> tuple[Event, ...]:
    """Return the session's events with ``event_id > after_event_id``, oldest first.

    ``after_event_id`` is the resume point: a client that saw event 4 asks for what came
    after it. Ids are compared, not positions, so any number works (0, negative, too large).
    """
    return tuple(
        event
        for event in log.events
        if event.session_id == session_id and event.event_id > after_event_id
    )


def list_sessions(log: EventLog) -> tuple[str, ...]:
    """Return each session id that has events, once, in the order of its first event."""
    # dict keys keep insertion order and drop repeats: exactly "first appearance" order.
    return tuple(dict.fromkeys(event.session_id for event in log.events))
