"""The reference implementation of the five event-log functions. Compare with ``exercises``.

Standard library only, and nothing from the rest of the kit: this is what a learner's
``exercises/`` looks like when every task passes.
"""

from __future__ import annotations

from solutions.event_log import AppendRefused, Event, EventLog, append_event, create_event_log
from solutions.replay import replay_session
from solutions.sessions import get_events_for_session, list_sessions

__all__ = [
    "AppendRefused",
    "Event",
    "EventLog",
    "append_event",
    "create_event_log",
    "get_events_for_session",
    "list_sessions",
    "replay_session",
]
