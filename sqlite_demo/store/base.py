"""What the two backends share: the store contract's methods, written once over plain SQL.

:class:`SqlEventStore` implements every read of :class:`~sqlite_demo.store.EventStore`, the
checks an append makes before it reaches the database, and session creation, on top of a few
methods each backend provides:

========================  ==========================================================
``_fetch_all(sql, args)``  run one read (``?`` parameters) and return its rows
``_insert_session``        insert a session row; raise ``SessionExistsError`` if taken
``_append_checked``        append events already checked by :func:`eventlog.validate_append`
``_CREATION_ORDER``        the column that orders sessions by creation
========================  ==========================================================

So a backend holds only what differs: how it connects, how appends take turns and where
their rules run (SQLite: between statements of one ``BEGIN IMMEDIATE``; PostgreSQL: inside
one server-side function, one round trip), and how its errors are translated.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from functools import reduce
from typing import Any, ClassVar, Self

from eventlog import (
    EMPTY_CONVERSATION,
    ReadOnlyPayload,
    StoredEvent,
    StoreError,
    UnknownSessionError,
    apply_event,
    check_session_id,
    check_text,
    messages_of,
    validate_append,
)
from eventlog.messages import sentence
from sqlite_demo.store import reads, rows
from sqlite_demo.store.records import MessageRow, Session, ToolCallRow, new_session_id, now_ms

#: ``(event_type, payload)`` pairs that :func:`eventlog.validate_append` has checked.
CheckedEvents = Sequence[tuple[str, ReadOnlyPayload]]


class SqlEventStore(ABC):
    """The contract's methods shared by the SQLite and the PostgreSQL store."""

    #: The sessions' column that grows with each insert: their order of creation.
    _CREATION_ORDER: ClassVar[str]

    @abstractmethod
    def close(self) -> None:
        """Release the database; closing twice is fine. Later calls raise ``StorageError``."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()

    @abstractmethod
    def _fetch_all(self, sql: str, arguments: tuple[Any, ...] = ()) -> list[Any]:
        """Run one read (``?`` parameters), translating the driver's errors; return its rows."""

    @abstractmethod
    def _insert_session(self, session: Session) -> None:
        """Insert the session's row; raise ``SessionExistsError`` if its id is taken."""

    @abstractmethod
    def _append_checked(
        self, session_id: str, events: CheckedEvents, key: str | None, version: int | None
    ) -> list[StoredEvent]:
        """Append checked events in one transaction: all or none (a key: one event only)."""

    # -- sessions -------------------------------------------------------------------------

    def create_session(self, title: str, *, session_id: str | None = None) -> Session:
        """Create a session and return it.

        Args:
            title: a human-readable name (any string, even empty).
            session_id: leave it out for ``"sess_"`` + 128 random bits as 32 hex digits,
                unguessable and unique without coordination; tests pass their own.

        Raises:
            StoreError: a ``title`` that is not a string of valid text; InvalidSessionIdError
                and SessionExistsError: a bad ``session_id``, or one that is taken.
        """
        check_text(title, "title", StoreError, non_empty=False)
        if session_id is None:
            session_id = new_session_id()
        session = Session(check_session_id(session_id), title, now_ms())
        self._insert_session(session)
        return session

    def get_session(self, session_id: str) -> Session:
        """Return the session with this id.

        Raises:
            UnknownSessionError: there is none.
        """
        rows = self._fetch_all(reads.SESSION_BY_ID, (session_id,))
        if not rows:
            raise UnknownSessionError(sentence("session.unknown", session_id=session_id))
        return Session(*rows[0])

    def list_all_sessions(self) -> list[Session]:
        """Return every created session, with or without events, in the order of creation."""
        rows = self._fetch_all(
            f"SELECT id, title, created_at FROM sessions ORDER BY {self._CREATION_ORDER}"
        )
        return [Session(*row) for row in rows]

    def list_active_session_ids(self) -> list[str]:
        """Return the ids of sessions that have events, in the order of their first event.

        This is the pure core's ``list_sessions``: sessions without events are left out.
        """
        return [str(session_id) for (session_id,) in self._fetch_all(reads.ACTIVE_SESSION_IDS)]

    # -- the log --------------------------------------------------------------------------

    def append_event(
        self,
        session_id: str,
        event_type: str,
        payload: Mapping[str, Any],
        *,
        idempotency_key: str | None = None,
        expected_version: int | None = None,
    ) -> StoredEvent:
        """Append one event and update its projection, in one transaction; return the event.

        Args:
            session_id: an existing session (see :meth:`create_session`).
            event_type: one of :data:`eventlog.STORE_EVENT_TYPES`: the chapter's four
                (``user_message``, ``assistant_message``, ``tool_call``, ``tool_result``),
                ``agent_item``, or a correction (``item_removed``, ``session_cleared``).
            payload: the event's details, checked by :func:`eventlog.validate_append`.
            idempotency_key: a non-empty string naming this request, so that a retry of it
                (same session, key, type and payload) returns the event appended the first
                time and appends nothing, whatever else changed since.
            expected_version: the session's last event id (0 when empty) that the caller's
                decision was based on; checked inside the transaction, so that no event is
                ever appended to a session that moved on since it was read.

        Returns:
            The stored event; its ``event_id`` is the next number of one global sequence.

        Raises:
            ValueError: for every refusal, and nothing is written: the shared rules'
                errors, UnknownSessionError, IdempotencyConflictError (the key was used for
                another request), VersionConflictError, CorrectionError (a correction that
                does not point at what it may supersede), StoreError (a bad key; the
                database refused or failed: :class:`~eventlog.StorageError`).
        """
        checked = validate_append(session_id, event_type, payload)
        if idempotency_key is not None:
            check_text(idempotency_key, "idempotency_key", StoreError, non_empty=True)
        events = ((event_type, checked),)
        return self._append_checked(session_id, events, idempotency_key, expected_version)[0]

    def append_events(
        self,
        session_id: str,
        events: Sequence[tuple[str, Mapping[str, Any]]],
        *,
        expected_version: int | None = None,
    ) -> list[StoredEvent]:
        """Append several events, each with its projection, in ONE transaction: all or none.

        What an agent framework's ``add_items`` of several items needs: a reader (in this
        process or another) sees none of them or all of them, and a failure at the last one
        leaves the log as it was. Each event is checked as :meth:`append_event` checks it,
        and the rules that read the log see the events of the batch before it (a tool_call
        and its tool_result can come in one batch).

        Args:
            session_id: an existing session.
            events: ``(event_type, payload)`` pairs, in the order they happened.
            expected_version: as for :meth:`append_event`, checked once, before the first.

        Returns:
            The stored events, in order; an empty list for an empty batch (nothing written).

        Raises:
            ValueError: as :meth:`append_event`, for the first event that is refused;
                nothing of the batch is written.
        """
        checked = [(kind, validate_append(session_id, kind, payload)) for kind, payload in events]
        if not checked:
            return []
        return self._append_checked(session_id, checked, None, expected_version)

    def get_events_for_session(
        self, session_id: str, after_event_id: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """Return the session's events with ``event_id > after_event_id``, oldest first.

        An unknown session has no events, so it gives an empty list, as in the pure core,
        rather than an error: "nothing after id N" and "no such session" look the same here.

        Args:
            limit: at most this many events (the oldest of them); None for all.
        """
        arguments = (session_id, reads.clamp(after_event_id), reads.limit_or_all(limit))
        with rows.collector_paused():
            found = self._fetch_all(reads.EVENTS_AFTER, arguments)
            return rows.stored_events(session_id, found)

    def get_items_in_force(
        self, session_id: str, newest: int | None = None
    ) -> list[rows.ItemEvent]:
        """Return the session's item events in force, oldest first: all, or the newest ones.

        An item is in force unless a correction took it out (``item_removed`` names it, or a
        ``session_cleared`` reaches it); the corrections themselves are not items. Asking
        for the newest few reads them from the end of the session, in time that does not
        grow with its length.

        Args:
            newest: at most this many, the newest; None for all.
        """
        if newest is not None:
            return rows.item_events(reads.newest_items(self._fetch_all, session_id, newest))
        with rows.collector_paused():
            return rows.item_events(self._fetch_all(*reads.items_in_force(session_id)))

    def get_facts_in_force(self, session_id: str) -> list[rows.Fact]:
        """Return the type and payload of each of the session's items in force, oldest first.

        :meth:`get_items_in_force` of all of them, less their ids: what a fold or an agent's
        whole history needs, for one column fewer read and a pair built per item.
        """
        with rows.collector_paused():
            return list(rows.facts(self._fetch_all(reads.FACTS_IN_FORCE, (session_id,) * 4)))

    def last_event_id(self, session_id: str) -> int:
        """Return the session's last event id: 0 when it has none (or there is no session)."""
        return int(self._fetch_all(reads.LAST_EVENT_ID, (session_id,))[0][0])

    def replay_session(self, session_id: str) -> list[dict[str, Any]]:
        """Fold the session's events into OpenAI Chat Completions messages (fresh every call).

        The fold is the shared one (:func:`eventlog.apply_event`), over the items in force:
        the corrections are applied by the read, so the fold only ever adds, exactly as if
        it had folded every event with :func:`eventlog.replay_events`. The read takes only
        what the fold reads of each event: its type and its payload.
        """
        with rows.collector_paused():
            found = self._fetch_all(reads.FACTS_IN_FORCE, (session_id,) * 4)
            return messages_of(reduce(apply_event, rows.facts(found), EMPTY_CONVERSATION))

    # -- projections ----------------------------------------------------------------------

    def get_messages(
        self, session_id: str, after_event_id: int = 0, limit: int | None = None
    ) -> list[MessageRow]:
        """Return the session's user and assistant messages from the projection, in event order.

        The fast read path for showing a chat; tool events are in :meth:`get_tool_calls`.

        Args:
            after_event_id: only the rows of events after this one.
            limit: at most this many rows (the oldest of them); None for all.
        """
        arguments = (session_id, reads.clamp(after_event_id), reads.limit_or_all(limit))
        return rows.message_rows(self._fetch_all(reads.MESSAGES, arguments))

    def get_tool_calls(
        self, session_id: str, after_event_id: int = 0, limit: int | None = None
    ) -> list[ToolCallRow]:
        """Return the session's tool calls from the projection, each with its result if any.

        Args:
            after_event_id: only the calls made by events after this one.
            limit: at most this many rows (the oldest of them); None for all.
        """
        arguments = (session_id, reads.clamp(after_event_id), reads.limit_or_all(limit))
        return rows.tool_call_rows(self._fetch_all(reads.TOOL_CALLS, arguments))
