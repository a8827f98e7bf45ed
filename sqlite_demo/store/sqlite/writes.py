"""The SQL of one append, run inside the caller's ``BEGIN IMMEDIATE`` ... ``COMMIT``.

These steps take a connection, not a store, so that they run the same on any connection
opened by :func:`sqlite_demo.store.sqlite.connection.open_connection`: the store's own
(behind its lock), or one a notebook traces statement by statement. Between BEGIN IMMEDIATE
and COMMIT nothing they read can change, and if any step fails, everything they wrote rolls
back.

What an append costs is what its event needs, and no more: a chat message is one INSERT of
the event and one of its projection row. A rule that must read the log runs only for the
events it concerns, and each is one indexed lookup, whatever the length of the session or
the log: an idempotency key is looked up only when one is given; the session's last event id
only for an expected version, a tool event or a correction; the call's events only for a
tool event; the newest item in force only for an ``item_removed``.

An event that needs no rule read from the log at all (a chat message or a kept item, appended
alone, without a key or an expected version) needs no transaction of its own making either:
:func:`append_alone` writes it, with its projection row, in ONE statement, which SQLite runs
as its own transaction (a write lock taken before anything is read, as ``BEGIN IMMEDIATE``
takes it, and all of the statement or none of it). A message's two rows are written by the
trigger of a view this connection creates for itself (:data:`MESSAGE_APPENDS`), so the
statement is still the event row, then its projection row, in the order the steps above
take; only the ``BEGIN IMMEDIATE`` and ``COMMIT`` sent from Python are gone, at a third of
the statements a message costs.
"""

from __future__ import annotations

import sqlite3
from typing import Final

import sqlite_demo.store.sqlite.projections as projections
from eventlog import (
    ReadOnlyPayload,
    StoredEvent,
    UnknownSessionError,
    VersionConflictError,
    call_state_in,
    check_call_id,
)
from eventlog.messages import sentence
from eventlog.rules import EVENT_ID_KEYS
from sqlite_demo.store.corrections import refuse_unless_it_fits
from sqlite_demo.store.idempotency import same_request_or_conflict
from sqlite_demo.store.reads import IN_FORCE, items_in_force
from sqlite_demo.store.records import MESSAGE_ROLES, now_ms
from sqlite_demo.store.rows import event_from_row, stored_event
from sqlite_demo.store.sqlite.connection import Sql
from sqlite_demo.store.sqlite.faults import translated

#: The columns of :func:`~sqlite_demo.store.rows.event_from_row`, in constructor order.
EVENT_COLUMNS: Final = "event_id, session_id, type, payload, created_at"
#: The event types whose payload names a call.
_CALL_TYPES: Final = frozenset({"tool_call", "tool_result"})
#: The event row: every column, and the columns of an event that needs none of the last three
#: (a chat message, a kept item): fewer parameters to bind, measurably cheaper per append.
_INSERT: Final = (
    "INSERT INTO events (session_id, type, payload, created_at, idempotency_key, call_id,"
    " supersedes) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_PLAIN: Final = (
    "INSERT INTO events (session_id, type, payload, created_at) VALUES (?, ?, ?, ?)"
)
#: The event types :func:`append_alone` writes in one statement: those no rule reads the log for.
ALONE_TYPES: Final = frozenset({*MESSAGE_ROLES, "agent_item"})
#: The function the view's trigger hands each new event id to: a trigger's INSERT leaves the
#: statement's ``lastrowid`` as it was, and a RETURNING clause costs more than this call.
_NOTE_ID: Final = "kit_appended_event_id"
_ROLE: Final = " ".join(f"WHEN '{kind}' THEN '{role}'" for kind, role in MESSAGE_ROLES.items())
#: A chat message appended alone: ``INSERT INTO message_appends`` writes the event row and its
#: ``messages`` row, the same row :func:`~sqlite_demo.store.sqlite.projections.write_projection`
#: writes, with the content bound by Python, exact to the byte. TEMP: the view and its trigger
#: live on the connection that creates them (:func:`create_message_appends`), never in the
#: file, so the schema, and every other connection to the file, are as they were. Another
#: type's role is NULL, which ``messages`` refuses.
MESSAGE_APPENDS: Final = (
    "CREATE TEMP VIEW IF NOT EXISTS message_appends AS"
    " SELECT session_id, type, payload, created_at, NULL AS content FROM main.events WHERE 0",
    "CREATE TEMP TRIGGER IF NOT EXISTS message_appends_insert"
    " INSTEAD OF INSERT ON message_appends BEGIN"
    " INSERT INTO events (session_id, type, payload, created_at)"
    " VALUES (NEW.session_id, NEW.type, NEW.payload, NEW.created_at);"
    " INSERT INTO messages (event_id, session_id, role, content, created_at)"
    f" VALUES (last_insert_rowid(), NEW.session_id, CASE NEW.type {_ROLE} END, NEW.content,"
    " NEW.created_at);"
    f" SELECT {_NOTE_ID}(last_insert_rowid());"
    " END",
)
_INSERT_MESSAGE: Final = (
    "INSERT INTO message_appends (session_id, type, payload, created_at, content)"
    " VALUES (?, ?, ?, ?, ?)"
)


def create_message_appends(connection: sqlite3.Connection) -> list[int]:
    """Create this connection's ``message_appends`` view and trigger; return the list its
    trigger appends each new event id to (:func:`append_alone` takes them from it)."""
    new_ids: list[int] = []
    connection.create_function(_NOTE_ID, 1, new_ids.append)
    for statement in MESSAGE_APPENDS:
        connection.execute(statement)
    return new_ids


def append_alone(
    sql: Sql, new_ids: list[int], session_id: str, event_type: str, payload: ReadOnlyPayload
) -> StoredEvent:
    """Append one event of :data:`ALONE_TYPES`, checked by :func:`eventlog.validate_append`,
    and its projection, in ONE statement outside any transaction: its own transaction.

    Args:
        sql: a connection in autocommit mode, or a cursor of it, on which
            :func:`create_message_appends` ran; ``new_ids`` is what that returned.

    Raises:
        UnknownSessionError; StoreError (translated from SQLite's errors).
    """
    created_at = now_ms()
    try:
        if event_type == "agent_item":  # no projection: the event row alone
            event_id = sql.execute(
                _INSERT_PLAIN, (session_id, event_type, payload.json_text, created_at)
            ).lastrowid
        else:
            arguments = (session_id, event_type, payload.json_text, created_at, payload["content"])
            sql.execute(_INSERT_MESSAGE, arguments)
            event_id = new_ids.pop()
    except sqlite3.Error as error:
        # The trigger may have noted an id before the statement failed (a foreign key is
        # checked at its end): it was rolled back with the rest.
        new_ids.clear()
        if isinstance(error, sqlite3.IntegrityError) and "FOREIGN KEY" in str(error):
            raise _unknown(session_id) from None
        raise translated(error) from error
    assert event_id is not None  # set by every INSERT
    return stored_event(event_id, session_id, event_type, payload, created_at)


def append_in_transaction(
    connection: Sql,
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
            return same_request_or_conflict(original, event_type, payload)
    call_id = payload["call_id"] if event_type in _CALL_TYPES else None
    supersedes = payload[EVENT_ID_KEYS[event_type]] if event_type in EVENT_ID_KEYS else None
    if expected_version is not None or call_id is not None or supersedes is not None:
        _check_rules(connection, session_id, event_type, expected_version, call_id, supersedes)
    created_at = now_ms()
    try:
        if idempotency_key is None and call_id is None and supersedes is None:
            plain = (session_id, event_type, payload.json_text, created_at)
            cursor = connection.execute(_INSERT_PLAIN, plain)
        else:
            full = (session_id, event_type, payload.json_text, created_at, idempotency_key,
                    call_id, supersedes)  # fmt: skip
            cursor = connection.execute(_INSERT, full)
    except sqlite3.IntegrityError as error:
        # The only foreign key of an event is its session: with foreign_keys = ON, SQLite
        # itself is the check that the session exists, at no extra query.
        if "FOREIGN KEY" not in str(error):
            raise
        raise _unknown(session_id) from None
    # event_id is the row id (INTEGER PRIMARY KEY), which SQLite hands back for free; a
    # RETURNING clause would cost a result row to step through.
    event_id = cursor.lastrowid
    assert event_id is not None  # set by every INSERT
    event = stored_event(event_id, session_id, event_type, payload, created_at)
    # Called through the module so that a test (or notebook 6) can make this step fail.
    projections.write_projection(connection, event)
    return event


def last_event_id(connection: Sql, session_id: str) -> int | None:
    """Return the session's last event id (0 when it has none), or None if there is no session."""
    last, exists = connection.execute(
        "SELECT (SELECT max(event_id) FROM events WHERE session_id = ?),"
        " EXISTS (SELECT 1 FROM sessions WHERE id = ?)",
        (session_id, session_id),
    ).fetchone()
    return (last or 0) if exists else None


def _check_rules(
    connection: Sql,
    session_id: str,
    event_type: str,
    expected_version: int | None,
    call_id: str | None,
    supersedes: int | None,
) -> None:
    # The session must exist before its calls are asked about: an unknown session is
    # UnknownSessionError, not a result for "a call this session never made".
    last = last_event_id(connection, session_id)
    if last is None:
        raise _unknown(session_id)
    if expected_version is not None and last != expected_version:
        raise VersionConflictError(session_id, expected_version, last)
    if call_id is not None:
        _check_call_id(connection, session_id, event_type, call_id)
    if supersedes is not None:
        newest = _newest_item_in_force(connection, session_id, event_type)
        refuse_unless_it_fits(
            session_id, event_type, supersedes, newest_item_in_force=newest, last_event_id=last
        )


def _find_by_idempotency_key(connection: Sql, session_id: str, key: str) -> StoredEvent | None:
    row = connection.execute(
        f"SELECT {EVENT_COLUMNS} FROM events WHERE session_id = ? AND idempotency_key = ?",
        (session_id, key),
    ).fetchone()
    return None if row is None else event_from_row(row)


def _check_call_id(connection: Sql, session_id: str, event_type: str, call_id: str) -> None:
    # One seek in idx_events_call_id finds the call and its result, if any: the events stay
    # the source of truth (a projection edited by hand cannot fool the rule), and the shared
    # fold over those few events decides, comparing the ids in Python, exactly. Events that a
    # correction took out do not count: a removed result leaves its call open again, and a
    # removed call leaves its id free.
    rows = connection.execute(
        f"SELECT {EVENT_COLUMNS} FROM events WHERE session_id = ? AND call_id = ?"
        f" AND {IN_FORCE} ORDER BY event_id",
        (session_id, call_id, session_id, session_id, session_id),
    )
    check_call_id(event_type, call_id, call_state_in(map(event_from_row, rows), call_id))


def _newest_item_in_force(connection: Sql, session_id: str, event_type: str) -> int | None:
    # Only item_removed needs it: the item it may take out is the newest one in force.
    if event_type != "item_removed":
        return None
    row = connection.execute(*items_in_force(session_id, 1)).fetchone()
    return None if row is None else int(row[0])


def _unknown(session_id: str) -> UnknownSessionError:
    return UnknownSessionError(sentence("session.unknown_create_first", session_id=session_id))
