"""The store contract: what the service, the agent, the stream and the CLI ask of a store.

:class:`EventStore` extends the pure core's port (:class:`eventlog.ports.EventStore`: append,
read after an id, list, replay) with what a durable, shared log adds: sessions created
before they are written to, idempotency keys, expected versions, projections, a health
check, and a signal that wakes streams when events are appended. Two backends honour it:

* :class:`~sqlite_demo.store.sqlite.SqliteEventStore`, the chapter's: one file, one machine;
* :class:`~sqlite_demo.store.postgres.PostgresEventStore`: one PostgreSQL database, any
  number of server processes on any number of machines.

Both promise the same things, and one test suite holds both to them (``tests/store``):

* **Append-only**, enforced by the database itself (triggers), and every projection row is
  written in the same transaction as its event.
* **One global sequence of ids, without gaps, visible in order.** An event with a smaller
  id is never committed after one with a larger id became visible, so a reader that asks
  for "the events after N" again and again never skips one. Both backends get this the
  same way: appends take turns (SQLite's write lock; a row lock on PostgreSQL).
* **Refusals write nothing** and raise :mod:`eventlog`'s errors, never a driver's.
* **Corrections are appended, and checked**: an ``item_removed`` may take out only the
  session's newest item in force, a ``session_cleared`` must reach its last event
  (:mod:`sqlite_demo.store.corrections`, one rule for both); what they take out leaves the
  projections, the replay and the call-id rule, and stays in the log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, Self

from eventlog import StorageError, ports
from eventlog.events import StoredEvent
from sqlite_demo.store.append_signal import AppendSignal
from sqlite_demo.store.records import MessageRow, Session, ToolCallRow
from sqlite_demo.store.rows import Fact, ItemEvent


class EventStore(ports.EventStore, Protocol):
    """A durable, append-only log of sessions' events, with projections kept in step."""

    @property
    def append_signal(self) -> AppendSignal:
        """Subscriptions that wake a stream when an event of its session is committed."""
        ...

    def close(self) -> None:
        """Release the database; closing twice is fine. Later calls raise ``StorageError``."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exception: object) -> None: ...

    def check_writable(self) -> None:
        """Prove that a write would succeed now, writing nothing; raise ``StorageError`` if not."""
        ...

    def create_session(self, title: str, *, session_id: str | None = None) -> Session:
        """Create a session (a random ``sess_...`` id unless given one) and return it."""
        ...

    def get_session(self, session_id: str) -> Session:
        """Return the session; raise ``UnknownSessionError`` if there is none."""
        ...

    def list_all_sessions(self) -> list[Session]:
        """Return every session, with or without events, in the order of creation."""
        ...

    def list_active_session_ids(self) -> list[str]:
        """Return the ids of sessions with events, in the order of their first event."""
        ...

    def append_event(
        self,
        session_id: str,
        event_type: str,
        payload: Mapping[str, Any],
        *,
        idempotency_key: str | None = None,
        expected_version: int | None = None,
    ) -> StoredEvent:
        """Append one event and its projection in one transaction; return the stored event.

        A repeated ``idempotency_key`` returns the first event and appends nothing; an
        ``expected_version`` that is not the session's last event id raises
        ``VersionConflictError``.
        """
        ...

    def append_events(
        self,
        session_id: str,
        events: Sequence[tuple[str, Mapping[str, Any]]],
        *,
        expected_version: int | None = None,
    ) -> list[StoredEvent]:
        """Append ``(event_type, payload)`` pairs in ONE transaction: all of them or none.

        Each is checked as ``append_event`` checks it and sees the batch's events before it;
        ``expected_version`` is checked once, before the first. An empty batch writes nothing.
        """
        ...

    def get_events_for_session(
        self, session_id: str, after_event_id: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """Return at most ``limit`` of the session's events after ``after_event_id``, in order."""
        ...

    def get_items_in_force(self, session_id: str, newest: int | None = None) -> list[ItemEvent]:
        """Return the session's item events in force, oldest first: all, or the newest ones.

        Each payload is decoded for this call alone; reading the newest few costs the same
        whatever the session's length.
        """
        ...

    def get_facts_in_force(self, session_id: str) -> list[Fact]:
        """Return the type and payload of each of the session's items in force, oldest first
        (:meth:`get_items_in_force` of all of them, without their ids)."""
        ...

    def newest_items_now(self, session_id: str, newest: int) -> list[ItemEvent] | None:
        """Return the newest items in force if they can be read at once, without waiting on a
        lock or a network: None when they cannot (the caller then reads in a thread)."""
        ...

    def last_event_id(self, session_id: str) -> int:
        """Return the session's last event id: 0 when it has none, or there is no session."""
        ...

    def replay_session(self, session_id: str) -> list[dict[str, Any]]:
        """Fold the session's events into OpenAI Chat Completions messages."""
        ...

    def get_messages(
        self, session_id: str, after_event_id: int = 0, limit: int | None = None
    ) -> list[MessageRow]:
        """Return the session's rows of the ``messages`` projection, in event order."""
        ...

    def get_tool_calls(
        self, session_id: str, after_event_id: int = 0, limit: int | None = None
    ) -> list[ToolCallRow]:
        """Return the session's rows of the ``tool_calls`` projection, in event order."""
        ...

    def rebuild_projections(self) -> None:
        """Throw both projections away and refold them from the events, in one transaction."""
        ...


def check_writable_or_busy(store: EventStore) -> None:
    """Raise what ``store.check_writable()`` raises, unless the database is only busy.

    Busy means other writers hold the lock right now (other servers are appending): the
    database can be written, so a server started or restarted under load comes up, as
    ``/health`` answers 200 ``busy`` rather than an error.
    """
    try:
        store.check_writable()
    except StorageError as fault:
        if fault.reason != "busy":
            raise
