"""Replay: fold one session's events into chat messages a model API accepts."""

from __future__ import annotations

from typing import Any

from eventlog import replay_events
from solutions.event_log import EventLog
from solutions.sessions import get_events_for_session


def replay_session(log: EventLog, session_id: str) -> list[dict[str, Any]]:
    """Return the session as OpenAI Chat Completions messages, freshly built on every call.

    The fold itself lives in :mod:`eventlog.fold` so the SQLite store replays with the very
    same code.
    """
    return replay_events(get_events_for_session(log, session_id))
