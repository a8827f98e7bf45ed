"""The SQL of one append, run inside the caller's ``BEGIN IMMEDIATE`` ... ``COMMIT``.

These steps take a connection, not a store, so that they run the same on any connection
opened by :func:`sqlite_demo.store.sqlite.connection.open_connection`: the store's own
(behind its lock), or one a notebook traces statement by statement. Between BEGIN IMMEDIATE
and COMMIT nothing they read can change, and if any step fails, everything they wrote rolls
back.

Each step costs one indexed lookup at most, whatever the length of the session or the log:
an append is as cheap at event 6,000 of a session as at event 3.
"""

from __future__ import annotations

import json
import sqlite3
from typing import NamedTuple

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
from sqlite_demo.store.corrections import IN_FORCE
from sqlite_demo.store.records import now_ms
from sqlite_demo.store.sqlite import projections
from sqlite_demo.store.sqlite.corrections import check_correction

#: The columns every query that builds a :class:`StoredEvent` reads, in constructor order.
EVENT_COLUMNS = "event_id, session_id, type, payload, created_at"


def append_in_transaction(
    connection: sqlite3.Connection,
    session_id: str,
    event_type: str,
    payload: ReadOnlyPayload,
    idempotency_key: str | None,
    expected_version: int | None = None,
) -> StoredEvent:
    """Append an event already checked by :func:`eventlog.validate_append`, and its projection.

    Steps, in order: a known idempotency key answers with the original event (a retry is
    answered, whatever it expected); the session must be at ``expected_version`` when one is
    given; the call id must fit the session's calls in force; a correction must point at
    what it may supersede; then the event row and its projection.

    Raises:
        UnknownSessionError, IdempotencyConflictError, VersionConflictError, CallIdError,
        CorrectionError.
    """
    if idempotency_key is not None:
        original = _find_by_idempotency_key(connection, session_id, idempotency_key)
        if original is not None:
            return _same_request_or_conflict(original, event_type, payload)
    call_id = payload["call_id"] if event_type in ("tool_call", "tool_result") else None
    supersedes = payload[EVENT_ID_KEYS[event_type]] if event_type in EVENT_ID_KEYS else None
    if expected_version is not None or call_id is not None or supersedes is not None:
        # The session must exist before its calls are asked about: an unknown session is
        # UnknownSessionError, not a result for "a call this session never made".
        _check_version(connection, session_id, expected_version)
    if call_id is not None:
        _check_call_id(connection, session_id, event_type, call_id)
    if supersedes is not None:
        check_correction(connection, session_id, event_type, supersedes)
    columns = _Columns(idempotency_key, call_id, supersedes)
    event = _insert_event(connection, session_id, event_type, payload, columns)
    # Called through the module so that a test can make this step fail and watch the rollback.
    projections.write_projection(connection, event)
    return event


def event_from_row(row: tuple[int, str, str, str, int]) -> StoredEvent:
    """Build a :class:`StoredEvent` from a row of :data:`EVENT_COLUMNS` (payload decoded lazily)."""
    event_id, session_id, event_type, payload_json, created_at = row
    return StoredEvent(event_id, session_id, event_type, ReadOnlyPayload(payload_json), created_at)


def last_event_id(connection: sqlite3.Connection, session_id: str) -> int | None:
    """Return the session's last event id (0 when it has none), or None if there is no session."""
    row = connection.execute(
        "SELECT (SELECT max(event_id) FROM events WHERE session_id = ?),"
        " EXISTS (SELECT 1 FROM sessions WHERE id = ?)",
        (session_id, session_id),
    ).fetchone()
    last, exists = row
    return (last or 0) if exists else None


def _find_by_idempotency_key(
    connection: sqlite3.Connection, session_id: str, key: str
) -> StoredEvent | None:
    row = connection.execute(
        f"SELECT {EVENT_COLUMNS} FROM events WHERE session_id = ? AND idempotency_key = ?",
        (session_id, key),
    ).fetchone()
    return None if row is None else event_from_row(row)


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


def _check_version(connection: sqlite3.Connection, session_id: str, expected: int | None) -> None:
    actual = last_event_id(connection, session_id)
    if actual is None:
        raise UnknownSessionError(sentence("session.unknown_create_first", session_id=session_id))
    if expected is not None and actual != expected:
        raise VersionConflictError(session_id, expected, actual)


def _check_call_id(
    connection: sqlite3.Connection, session_id: str, event_type: str, call_id: str
) -> None:
    # One seek in idx_events_call_id finds the call and its result, if any: the events stay
    # the source of truth (a projection edited by hand cannot fool the rule), and the shared
    # fold over those few events decides, comparing the ids in Python, exactly. Events that a
    # correction took out do not count: a removed result leaves its call open again, and a
    # removed call leaves its id free.
    rows = connection.execute(
        f"SELECT {EVENT_COLUMNS} FROM events AS e WHERE session_id = ? AND call_id = ?"
        f" AND {IN_FORCE} ORDER BY event_id",
        (session_id, call_id),
    )
    check_call_id(event_type, call_id, call_state_in(map(event_from_row, rows), call_id))


class _Columns(NamedTuple):
    """The columns an event row copies out of its payload or its request, for the indexes."""

    idempotency_key: str | None
    call_id: str | None
    supersedes: int | None


def _insert_event(
    connection: sqlite3.Connection,
    session_id: str,
    event_type: str,
    payload: ReadOnlyPayload,
    columns: _Columns,
) -> StoredEvent:
    created_at = now_ms()
    try:
        cursor = connection.execute(
            "INSERT INTO events (session_id, type, payload, created_at, idempotency_key, call_id,"
            " supersedes) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (session_id, event_type, payload.json_text, created_at, *columns),
        )
    except sqlite3.IntegrityError as error:
        # The only foreign key of an event is its session: with foreign_keys = ON, SQLite
        # itself is the check that the session exists, at no extra query.
        if "FOREIGN KEY" not in str(error):
            raise
        raise UnknownSessionError(
            sentence("session.unknown_create_first", session_id=session_id)
        ) from None
    # event_id is the row id (INTEGER PRIMARY KEY), which SQLite hands back for free; a
    # RETURNING clause would cost a result row to step through.
    event_id = cursor.lastrowid
    assert event_id is not None  # set by every INSERT
    return StoredEvent(event_id, session_id, event_type, payload, created_at)
