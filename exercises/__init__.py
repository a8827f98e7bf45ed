"""Your implementation of the five event-log functions. Grade it with ``python -m grader``."""

from __future__ import annotations

from exercises.event_log import append_event, create_event_log
from exercises.replay import replay_session
from exercises.sessions import get_events_for_session, list_sessions

__all__ = [
    "append_event",
    "create_event_log",
    "get_events_for_session",
    "list_sessions",
    "replay_session",
]
