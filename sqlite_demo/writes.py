"""The write path: the steps of one append or one new session, run in the caller's transaction.

Each function here expects to run between ``BEGIN IMMEDIATE`` and ``COMMIT`` (see
:func:`sqlite_demo.connection.write_transaction`): what it reads cannot change before the
commit, and if any later step fails, everything it wrote is rolled back with the rest.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Mapping
from typing import Any, NamedTuple

from eventlog import ReadOnlyPayload, call_state_in, check_call_id
from sqlite_demo import projections
from sqlite_demo.errors import (
    IdempotencyConflictError,
    SessionExistsError,
    UnknownSessionError,
)
from sqlite_demo.rows import (
    EVENT_COLUMNS,
    Session,
    StoredEvent,
    canonical_payload,
    encode_payload,
    event_from_row,
)


def now_ms() -> int:
    """Return the current time as unix milliseconds, the unit of every ``created_at``."""
    return time.time_ns() // 1_000_000


def insert_session(connection: sqlite3.Connection, session: Session) -> None:
    """Insert ``session``.

    Raises:
        SessionExistsError: its id is taken.
    """
    if session_exists(connection, session.id):
        raise SessionExistsError(f"a session with id {session.id!r} already exists")
    connection.execute(
        "INSERT INTO sessions (id, title, created_at) VALUES (?, ?, ?)",
        (session.id, session.title, session.created_at),
    )


def append_in_transaction(
    connection: sqlite3.Connection,
    session_id: str,
    event_type: str,
    payload: ReadOnlyPayload,
    idempotency_key: str | None,
) -> StoredEvent:
    """Append an already validated event and its projection row; return the stored event.

    Steps, in order: the session must exist; a known idempotency key short-cuts to the
    original event; the call id must fit the session's calls; then the event row, then its
    projection row.

    Raises:
        UnknownSessionError, IdempotencyConflictError, CallIdError, InvalidPayloadError.
    """
    payload_json = encode_payload(payload)
    if not session_exists(connection, session_id):
        raise UnknownSessionError(f"no session with id {session_id!r}; create it first")
    if idempotency_key is not None:
        original = find_by_idempotency_key(connection, session_id, idempotency_key)
        if original is not None:
            return _same_request_or_conflict(original, event_type, payload_json)
    _check_call_id(connection, session_id, event_type, payload)
    event = _insert_event(connection, session_id, event_type, payload_json, idempotency_key)
    # Called through the module so a test can make this step fail and watch the rollback.
    projections.write_projection(connection, event)
    return event


def session_exists(connection: sqlite3.Connection, session_id: str) -> bool:
    """Return whether a session with this id exists."""
    row = connection.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone()
    return row is not None


def find_by_idempotency_key(
    connection: sqlite3.Connection, session_id: str, key: str
) -> StoredEvent | None:
    """Return the event appended in this session with this key, or None."""
    row = connection.execute(
        f"SELECT {EVENT_COLUMNS} FROM events WHERE session_id = ? AND idempotency_key = ?",
        (session_id, key),
    ).fetchone()
    return None if row is None else event_from_row(row)


def _same_request_or_conflict(
    original: StoredEvent, event_type: str, payload_json: str
) -> StoredEvent:
    # Canonical JSON rather than ==, which would call 1, 1.0 and True the same payload.
    original_json = canonical_payload(encode_payload(original.payload))
    if original.type != event_type or original_json != canonical_payload(payload_json):
        raise IdempotencyConflictError(
            f"idempotency key already used in session {original.session_id!r} for event"
            f" {original.event_id} ({original.type}) with other details; use a new key"
        )
    return original


def _check_call_id(
    connection: sqlite3.Connection, session_id: str, event_type: str, payload: Mapping[str, Any]
) -> None:
    if event_type not in ("tool_call", "tool_result"):
        return
    call_id = payload["call_id"]
    # The events are the source of truth and call_state_in is the core's own fold over
    # them. Matching the call id in SQL (json_extract) would be faster but is not exact:
    # it never matches an id holding a NUL character, which the core accepts. Decoding only
    # the payload, without building full events, keeps this scan cheap.
    rows = connection.execute(
        "SELECT type, payload FROM events WHERE session_id = ?"
        " AND type IN ('tool_call', 'tool_result') ORDER BY event_id",
        (session_id,),
    )
    tool_events = (_ToolEvent(kind, json.loads(body)) for kind, body in rows)
    check_call_id(event_type, call_id, call_state_in(tool_events, call_id))


class _ToolEvent(NamedTuple):
    """Just what :func:`eventlog.call_state_in` reads of an event."""

    type: str
    payload: dict[str, Any]


def _insert_event(
    connection: sqlite3.Connection,
    session_id: str,
    event_type: str,
    payload_json: str,
    idempotency_key: str | None,
) -> StoredEvent:
    cursor = connection.execute(
        "INSERT INTO events (session_id, type, payload, created_at, idempotency_key)"
        f" VALUES (?, ?, ?, ?, ?) RETURNING {EVENT_COLUMNS}",
        (session_id, event_type, payload_json, now_ms(), idempotency_key),
    )
    # fetchall(), not fetchone(): it steps the INSERT to completion before the next statement.
    (row,) = cursor.fetchall()
    return event_from_row(row)
