"""The SQL of one append on PostgreSQL, in two round trips to the server.

The steps and the rules are SQLite's (:mod:`sqlite_demo.store.sqlite.writes`), in the same
order: a known idempotency key answers with the original event; the session must be at the
expected version; the call id must fit the session's calls in force; a correction must point
at what it may supersede (the backends' shared rule, :mod:`sqlite_demo.store.corrections`);
then the event row, its projection and the notification, all in one transaction. A batch
(:func:`append_batch`) is several of these inside one outer transaction: all or none.

What PostgreSQL changes is how appends take turns. There is no database-wide write lock:
the first statement of every append increments the log's head row (``log_head``), and the
row lock it takes is held until COMMIT. So:

* everything read after it (the key, the version, the call) is read as the previous append
  left the log, and stays true until COMMIT, as under SQLite's ``BEGIN IMMEDIATE``;
* appends commit in the order of their ids, so a reader never sees id N+1 before id N;
* a refused or failed append rolls the head back with everything else: no gap in the ids.

Round trips: BEGIN, the head and the reads go in one pipeline; the event row, its
projection, the NOTIFY and COMMIT in a second. The rules are decided in Python between the
two, with the same shared functions as on SQLite.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import NamedTuple

import psycopg
from psycopg.rows import TupleRow

from eventlog import (
    IdempotencyConflictError,
    ReadOnlyPayload,
    StoredEvent,
    UnknownSessionError,
    VersionConflictError,
    call_state_in,
    check_call_id,
)
from eventlog.messages import sentence
from eventlog.rules import EVENT_ID_KEYS
from sqlite_demo.store.corrections import IN_FORCE, NEWEST_ITEM_IN_FORCE, refuse_unless_it_fits
from sqlite_demo.store.postgres import projections
from sqlite_demo.store.postgres.connection import APPENDS_CHANNEL, Connection
from sqlite_demo.store.records import now_ms

#: The columns every query that builds a :class:`StoredEvent` reads, in constructor order.
EVENT_COLUMNS = "event_id, session_id, type, payload, created_at"
#: The first statement of every append: its id, and the lock that makes appends take turns.
TAKE_NEXT_ID = "UPDATE log_head SET last_event_id = last_event_id + 1 RETURNING last_event_id"

EventRow = tuple[int, str, str, str, int]


class _Answered(Exception):
    """Leaves the transaction, rolling it back, with the event that answers the request."""

    def __init__(self, event: StoredEvent) -> None:
        super().__init__()
        self.event = event


def append_in_transaction(
    connection: Connection,
    session_id: str,
    event_type: str,
    payload: ReadOnlyPayload,
    idempotency_key: str | None,
    expected_version: int | None = None,
) -> StoredEvent:
    """Append an event already checked by :func:`eventlog.validate_append`, and its projection.

    Runs its own transaction on ``connection`` (an autocommit connection of the pool), or a
    savepoint inside the caller's transaction (:func:`append_batch`).

    Raises:
        UnknownSessionError, IdempotencyConflictError, VersionConflictError, CallIdError,
        CorrectionError.
    """
    call_id = payload["call_id"] if event_type in ("tool_call", "tool_result") else None
    supersedes = payload[EVENT_ID_KEYS[event_type]] if event_type in EVENT_ID_KEYS else None
    try:
        with connection.pipeline() as pipeline, connection.transaction():
            head = connection.execute(TAKE_NEXT_ID)
            by_key = _find_by_idempotency_key(connection, session_id, idempotency_key)
            state = connection.execute(
                "SELECT (SELECT max(event_id) FROM events WHERE session_id = %s),"
                " EXISTS (SELECT 1 FROM sessions WHERE id = %s)",
                (session_id, session_id),
            )
            calls = _call_events(connection, session_id, call_id)
            newest = _newest_item_in_force(connection, session_id, event_type)
            pipeline.sync()  # round trip 1: the turn is ours, and the log as it stands
            if by_key is not None and (original := by_key.fetchone()) is not None:
                answer = _same_request_or_conflict(event_from_row(original), event_type, payload)
                raise _Answered(answer)
            last, exists = _fetch_state(state)
            if not exists:
                unknown = sentence("session.unknown_create_first", session_id=session_id)
                raise UnknownSessionError(unknown)
            if expected_version is not None and last != expected_version:
                raise VersionConflictError(session_id, expected_version, last)
            if calls is not None and call_id is not None:
                events = map(event_from_row, calls.fetchall())
                check_call_id(event_type, call_id, call_state_in(events, call_id))
            if supersedes is not None:
                newest_id = None if newest is None else _fetch_optional_id(newest)
                refuse_unless_it_fits(
                    session_id,
                    event_type,
                    supersedes,
                    newest_item_in_force=newest_id,
                    last_event_id=last,
                )
            event_id = _fetch_id(head)
            columns = _Columns(idempotency_key, call_id, supersedes)
            event = _insert_event(connection, event_id, session_id, event_type, payload, columns)
            # Called through the module so that a test can make this step fail.
            projections.write_projection(connection, event)
            notify_append(connection, session_id)
    except _Answered as answered:
        return answered.event
    return event


def append_batch(
    connection: Connection,
    session_id: str,
    events: Sequence[tuple[str, ReadOnlyPayload]],
    expected_version: int | None,
) -> list[StoredEvent]:
    """Append events already checked by :func:`eventlog.validate_append`, in ONE transaction.

    Each event is one :func:`append_in_transaction`, run as a savepoint of the batch's
    transaction, so each sees the events of the batch before it (a tool_call and its
    tool_result can come in one batch). The first refusal rolls the whole batch back, the
    log's head with it: no event, no id, no notification is left of it. Readers see none of
    the batch or all of it; the notifications are delivered at the one COMMIT.

    Raises:
        As :func:`append_in_transaction`, for the first event that is refused.
    """
    appended = []
    with connection.transaction():
        version = expected_version
        for event_type, payload in events:
            appended.append(
                append_in_transaction(connection, session_id, event_type, payload, None, version)
            )
            version = None  # the batch's own events move the session on
    return appended


def notify_append(connection: Connection, session_id: str) -> None:
    """Queue the notification that wakes every server's streams of the session at COMMIT.

    The payload is a digest of the session id, never the event: a key that says "read this
    session again", whatever the length of its id (a payload is at most 8,000 bytes).
    """
    connection.execute("SELECT pg_notify(%s, %s)", (APPENDS_CHANNEL, session_key(session_id)))


def session_key(session_id: str) -> str:
    """Return the key a notification carries for ``session_id``: 32 hex digits."""
    return hashlib.blake2b(session_id.encode("utf-8"), digest_size=16).hexdigest()


def event_from_row(row: EventRow) -> StoredEvent:
    """Build a :class:`StoredEvent` from a row of :data:`EVENT_COLUMNS` (payload decoded lazily)."""
    event_id, session_id, event_type, payload_json, created_at = row
    return StoredEvent(event_id, session_id, event_type, ReadOnlyPayload(payload_json), created_at)


def _find_by_idempotency_key(
    connection: Connection, session_id: str, key: str | None
) -> psycopg.Cursor[TupleRow] | None:
    if key is None:
        return None
    return connection.execute(
        f"SELECT {EVENT_COLUMNS} FROM events WHERE session_id = %s AND idempotency_key = %s",
        (session_id, key),
    )


def _call_events(
    connection: Connection, session_id: str, call_id: str | None
) -> psycopg.Cursor[TupleRow] | None:
    # One index scan finds the call and its result, if any: the events stay the source of
    # truth, and the shared fold over those at most two events decides.
    if call_id is None:
        return None
    # Events a correction took out do not count: a removed result leaves its call open
    # again, and a removed call leaves its id free.
    return connection.execute(
        f"SELECT {EVENT_COLUMNS} FROM events AS e WHERE session_id = %s AND call_id = %s"
        f" AND {IN_FORCE} ORDER BY event_id",
        (session_id, call_id),
    )


def _newest_item_in_force(
    connection: Connection, session_id: str, event_type: str
) -> psycopg.Cursor[TupleRow] | None:
    # Only item_removed needs it: the item it may take out is the newest one in force.
    if event_type != "item_removed":
        return None
    return connection.execute(NEWEST_ITEM_IN_FORCE.format("%s"), (session_id,))


def _fetch_optional_id(cursor: psycopg.Cursor[TupleRow]) -> int | None:
    row = cursor.fetchone()
    return None if row is None else int(row[0])


def _fetch_state(cursor: psycopg.Cursor[TupleRow]) -> tuple[int, bool]:
    row = cursor.fetchone()
    assert row is not None  # a SELECT without FROM returns one row
    last, exists = row
    return int(last or 0), bool(exists)


def _fetch_id(cursor: psycopg.Cursor[TupleRow]) -> int:
    row = cursor.fetchone()
    if row is None:
        raise psycopg.DataError("log_head holds no row: the schema was changed by hand")
    return int(row[0])


def _same_request_or_conflict(
    original: StoredEvent, event_type: str, payload: ReadOnlyPayload
) -> StoredEvent:
    # Canonical JSON rather than ==, which would call 1, 1.0 and True the same payload.
    if original.type != event_type or _canonical(original.payload) != _canonical(payload):
        raise IdempotencyConflictError(
            sentence("idempotency.key_reused", session_id=original.session_id,
                     event_id=original.event_id, event_type=original.type)
        )  # fmt: skip
    return original


def _canonical(payload: ReadOnlyPayload) -> str:
    return json.dumps(json.loads(payload.json_text), sort_keys=True, ensure_ascii=False)


class _Columns(NamedTuple):
    """The columns an event row copies out of its payload or its request, for the indexes."""

    idempotency_key: str | None
    call_id: str | None
    supersedes: int | None


def _insert_event(
    connection: Connection,
    event_id: int,
    session_id: str,
    event_type: str,
    payload: ReadOnlyPayload,
    columns: _Columns,
) -> StoredEvent:
    created_at = now_ms()
    connection.execute(
        "INSERT INTO events (event_id, session_id, type, payload, created_at, idempotency_key,"
        " call_id, supersedes) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
        (event_id, session_id, event_type, payload.json_text, created_at, *columns),
    )
    return StoredEvent(event_id, session_id, event_type, payload, created_at)
