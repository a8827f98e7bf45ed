"""The two stores behind the shared contract suite, each shaped as ``eventlog.ports.EventStore``.

``MemoryEventStore`` wraps the pure reference in ``solutions``, an implementation written on
its own (it shares no code with the store), through its public functions only: it holds the
current immutable log and swaps in the new one after each append. ``AutoSessionStore``
wraps a durable store (SQLite or PostgreSQL), whose only extra demand is that a session
exists before it is written to.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

import solutions
from sqlite_demo import EventStore, SessionExistsError, StoredEvent


class MemoryEventStore:
    """The pure core as a store: ``solutions``' five functions over a log it keeps."""

    def __init__(self) -> None:
        self.log = solutions.create_event_log()

    def append_event(self, session_id: str, event_type: str, payload: Mapping[str, Any]) -> Any:
        self.log, event = solutions.append_event(self.log, session_id, event_type, payload)
        return event

    def get_events_for_session(self, session_id: str, after_event_id: int = 0) -> Sequence[Any]:
        return tuple(solutions.get_events_for_session(self.log, session_id, after_event_id))

    def list_active_session_ids(self) -> Sequence[str]:
        return tuple(solutions.list_sessions(self.log))

    def replay_session(self, session_id: str) -> list[dict[str, Any]]:
        return list(solutions.replay_session(self.log, session_id))


class AutoSessionStore:
    """A durable store, creating each session the first time an event names it.

    Only a valid id (a non-empty string) is created, so a bad id still reaches
    ``append_event`` and is refused there. A refused append may leave behind the empty
    session it created; sessions without events are invisible to every method of the port,
    so the contract cannot tell.
    """

    def __init__(self, durable_store: EventStore) -> None:
        self.durable_store = durable_store

    def append_event(
        self, session_id: str, event_type: str, payload: Mapping[str, Any]
    ) -> StoredEvent:
        if isinstance(session_id, str) and session_id:
            with contextlib.suppress(SessionExistsError):
                self.durable_store.create_session(session_id, session_id=session_id)
        return self.durable_store.append_event(session_id, event_type, payload)

    def get_events_for_session(self, session_id: str, after_event_id: int = 0) -> list[StoredEvent]:
        return self.durable_store.get_events_for_session(session_id, after_event_id)

    def list_active_session_ids(self) -> list[str]:
        return self.durable_store.list_active_session_ids()

    def replay_session(self, session_id: str) -> list[dict[str, Any]]:
        return self.durable_store.replay_session(session_id)


def plain(value: Any) -> Any:
    """A payload as plain data: mappings as dicts, tuples as lists, all the way down.

    The two stores keep payloads read-only in different ways (``solutions`` freezes them:
    read-only mappings and tuples; SQLite hands out fresh dicts and lists), so they are
    compared as the data they hold.
    """
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value
