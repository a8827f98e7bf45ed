"""The port: what any event store promises, whether it keeps the log in memory or in SQLite.

The pure core's five functions take the log as an argument and return a new one; a store
keeps the log itself and is asked with methods. This Protocol is that contract in store form.
``solutions`` wrapped in a small adapter and ``sqlite_demo.SqliteEventStore`` both honour it,
and one shared test suite (``tests/store/test_contract.py``) runs against each.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from eventlog.events import EventLike


class LoggedEvent(EventLike, Protocol):
    """An event as a store hands it out: what the fold needs, plus its id and its session."""

    @property
    def event_id(self) -> int: ...

    @property
    def session_id(self) -> str: ...


class EventStore(Protocol):
    """An append-only log of events, grouped by session, with one global sequence of ids."""

    def append_event(
        self, session_id: str, event_type: str, payload: Mapping[str, Any]
    ) -> LoggedEvent:
        """Append one event and return it; ``event_id`` is one more than the last (1 at first).

        Raises:
            ValueError: bad input (see :func:`eventlog.validate_append` and
                :func:`eventlog.check_call_id`); nothing is appended.
        """
        ...

    def get_events_for_session(
        self, session_id: str, after_event_id: int = 0
    ) -> Sequence[LoggedEvent]:
        """Return the session's events with ``event_id > after_event_id``, oldest first."""
        ...

    def list_active_session_ids(self) -> Sequence[str]:
        """Return the ids of sessions with events, each once, in the order of their first event."""
        ...

    def replay_session(self, session_id: str) -> list[dict[str, Any]]:
        """Return the session as OpenAI Chat Completions messages, freshly built."""
        ...
