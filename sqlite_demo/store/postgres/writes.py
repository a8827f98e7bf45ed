"""One append on PostgreSQL: one statement, one round trip, the rules checked on the server.

The steps and the rules are SQLite's (:mod:`sqlite_demo.store.sqlite.writes`), in the same
order: a known idempotency key answers with the original event; the session must be at the
expected version; the call id must fit the session's calls in force; a correction must point
at what it may supersede; then the event rows, their projection and the notification, all in
one transaction. Here they run inside the database, in ``kit_append`` (``append.sql``): the
store sends one ``SELECT * FROM kit_append(...)`` and reads back the ids. A refusal comes back
as one of the kit's own SQLSTATEs, and is worded here by the same shared functions the SQLite
store calls (:func:`eventlog.check_call_id`, :func:`~sqlite_demo.store.corrections.
refuse_unless_it_fits`), so both backends refuse with the same error and the same sentence.

How appends take turns: ``kit_append`` first increments the log's head row (``log_head``),
whose row lock is held until COMMIT. So everything it reads afterwards (the key, the version,
the call) is as the previous append left it, appends commit in the order of their ids (a
reader never sees id N+1 before id N), and a refused append rolls the head back: no gap.

The usual append, one message or item with no idempotency key and no expected version, has
no rule that reads the log: no call id, no correction, no key, no version. It goes as
:data:`APPEND_PLAIN`, one SQL statement doing the same steps in the same order (the head row
first, its lock held to COMMIT; the event; its projection row; the notification), without the
function's interpreter between them: about 50 us of the 460 us an append took on this
machine (from 1.41-1.46x a bare INSERT and COMMIT to 1.35-1.36x). Every append executes on its
connection's one reused cursor (:class:`~.connection.Connection`), borrowed without the
connection's own context (:class:`~.connection.Borrowed`): with those, 1.16-1.26x in seven
runs (see docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import psycopg

from eventlog import (
    CallState,
    ProjectionOutOfStepError,
    ReadOnlyPayload,
    StoredEvent,
    UnknownSessionError,
    VersionConflictError,
    check_call_id,
)
from eventlog.messages import sentence
from eventlog.rules import EVENT_ID_KEYS
from sqlite_demo.store.corrections import refuse_unless_it_fits
from sqlite_demo.store.idempotency import same_request_or_conflict
from sqlite_demo.store.postgres.connection import APPENDS_CHANNEL, Connection
from sqlite_demo.store.postgres.notify import session_key
from sqlite_demo.store.postgres.text import from_postgres_text
from sqlite_demo.store.records import MESSAGE_ROLES, now_ms

#: The one statement of an append (see ``append.sql`` for its arguments).
APPEND: Final = (
    "SELECT * FROM kit_append(%s, %s, %s, %s, %s, %s, %s::text[], %s::text[], %s::text[],"
    " %s::bigint[], %s::text[], %s::text[], %s::text[])"
)
#: The same statement for one event, its arrays built by the server from one value each:
#: psycopg adapts an array parameter in Python, element by element, at about 5 us each, so a
#: lone append (the usual one) sends scalars, for the same call of the same function.
APPEND_ONE: Final = (
    "SELECT * FROM kit_append(%s, %s, %s, %s, %s, %s, ARRAY[%s::text], ARRAY[%s::text],"
    " ARRAY[%s::text], ARRAY[%s::bigint], ARRAY[%s::text], ARRAY[%s::text], ARRAY[%s::text])"
)
#: The usual append (see above) as one statement: each step reads the row the step before it
#: wrote, so they run in order, and the foreign keys are checked at its end, once every row is
#: in. No row comes back only when ``log_head`` has none (then ``kit_append`` says so).
APPEND_PLAIN: Final = (
    "WITH head AS (UPDATE log_head SET last_event_id = last_event_id + 1"
    " RETURNING last_event_id),"
    " event AS (INSERT INTO events (event_id, session_id, type, payload, created_at)"
    " SELECT last_event_id, %(session)s, %(type)s, %(payload)s, %(at)s FROM head"
    " RETURNING event_id),"
    " projected AS (INSERT INTO messages (session_id, event_id, role, content, created_at)"
    " SELECT %(session)s, event_id, %(role)s, %(content)s, %(at)s FROM event"
    " WHERE %(role)s::text IS NOT NULL)"
    " SELECT event_id, pg_notify(%(channel)s, %(key)s) FROM event"
)
#: The event types an append can send as :data:`APPEND_PLAIN`: the messages, projected with
#: their role (:data:`~sqlite_demo.store.records.MESSAGE_ROLES`), and a kept item, which has no
#: projection row.
_PLAIN_TYPES: Final = frozenset({*MESSAGE_ROLES, "agent_item"})
#: The projection step of one event, which a rebuild calls for every event in order.
PROJECT: Final = "SELECT kit_project(%s, %s, %s, %s, %s, %s, %s, %s, %s)"
#: The foreign keys that name the session, whichever an insert checks first.
_SESSION_KEYS: Final = frozenset({"events_session_id_fkey", "messages_session_id_fkey"})
#: The event types whose payload names a call, and those whose text a projection row holds.
_CALL_TYPES: Final = frozenset({"tool_call", "tool_result"})
_TEXT_TYPES: Final = frozenset({"user_message", "assistant_message", "tool_result"})
#: The state of a call, by the type of its newest event in force (see ``KT003``).
_CALL_STATES: Final = {
    "": CallState.UNUSED,
    "tool_call": CallState.OPEN,
    "tool_result": CallState.ANSWERED,
}


def append_checked(
    connection: Connection,
    session_id: str,
    events: Sequence[tuple[str, ReadOnlyPayload]],
    idempotency_key: str | None,
    expected_version: int | None,
) -> list[StoredEvent]:
    """Append events already checked by :func:`eventlog.validate_append`: all of them or none.

    One round trip on an autocommit ``connection``, whose statement is its own transaction.

    Raises:
        UnknownSessionError, IdempotencyConflictError, VersionConflictError, CallIdError,
        CorrectionError, ProjectionOutOfStepError; psycopg's errors for anything else.
    """
    created_at = now_ms()
    if (len(events) == 1 and events[0][0] in _PLAIN_TYPES and idempotency_key is None
            and expected_version is None):  # fmt: skip
        event_id = _append_plain(connection, session_id, *events[0], created_at)
        if event_id is not None:
            event_type, payload = events[0]
            return [StoredEvent(event_id, session_id, event_type, payload, created_at)]
    head = (session_id, idempotency_key, expected_version, created_at, APPENDS_CHANNEL,
            session_key(session_id))  # fmt: skip
    arguments: tuple[Any, ...]
    if len(events) == 1:
        event_type, payload = events[0]
        statement = APPEND_ONE
        arguments = (*head, event_type, payload.json_text, *projected_columns(event_type, payload))
    else:
        columns = [projected_columns(event_type, payload) for event_type, payload in events]
        statement = APPEND
        arguments = (
            *head, [event_type for event_type, _ in events],
            [payload.json_text for _, payload in events], *map(list, zip(*columns, strict=True)),
        )  # fmt: skip
    try:
        rows = connection.append_cursor.execute(statement, arguments).fetchall()
    except psycopg.Error as error:
        raise_refusal(error, session_id, events, expected_version)
        raise
    if rows and rows[0][1] is not None:  # a known key: the first request's event
        event_id, event_type, payload_json, first_created_at = rows[0]
        original = StoredEvent(
            event_id, session_id, event_type, ReadOnlyPayload(payload_json), first_created_at
        )
        return [same_request_or_conflict(original, *events[0])]
    return [
        StoredEvent(row[0], session_id, event_type, payload, created_at)
        for row, (event_type, payload) in zip(rows, events, strict=True)
    ]


def _append_plain(
    connection: Connection,
    session_id: str,
    event_type: str,
    payload: ReadOnlyPayload,
    created_at: int,
) -> int | None:
    """Append one event of :data:`_PLAIN_TYPES` by :data:`APPEND_PLAIN`; return its id, or
    None when ``log_head`` has no row (nothing was written: the caller's ``kit_append`` then
    raises why)."""
    role = MESSAGE_ROLES.get(event_type)
    arguments = {
        "session": session_id, "type": event_type, "payload": payload.json_text,
        "at": created_at, "role": role, "content": payload["content"] if role else None,
        "channel": APPENDS_CHANNEL, "key": session_key(session_id),
    }  # fmt: skip
    try:
        row = connection.append_cursor.execute(APPEND_PLAIN, arguments).fetchone()
    except psycopg.Error as error:
        raise_refusal(error, session_id, [(event_type, payload)], None)
        raise
    return None if row is None else int(row[0])


def projected_columns(
    event_type: str, payload: ReadOnlyPayload
) -> tuple[str | None, int | None, str | None, str | None, str | None]:
    """Return what the event's row and its projection copy out of its payload:
    ``(call_id, supersedes, content, name, arguments)``, None where it has none."""
    call_id = payload["call_id"] if event_type in _CALL_TYPES else None
    supersedes = payload[EVENT_ID_KEYS[event_type]] if event_type in EVENT_ID_KEYS else None
    content = payload["content"] if event_type in _TEXT_TYPES else None
    if event_type == "tool_call":
        return call_id, supersedes, content, payload["name"], payload["arguments"]
    return call_id, supersedes, content, None, None


def raise_refusal(
    error: psycopg.Error,
    session_id: str,
    events: Sequence[tuple[str, Any]],
    expected_version: int | None,
) -> None:
    """Raise the kit's own error for a refusal ``kit_append`` reported; return otherwise.

    Raises:
        UnknownSessionError, VersionConflictError, CallIdError, CorrectionError,
        ProjectionOutOfStepError: as the SQLSTATE says (see ``append.sql``).
    """
    state, detail = error.sqlstate or "", error.diag.message_detail or ""
    if state == "23503" and error.diag.constraint_name in _SESSION_KEYS:
        state = "KT001"  # an insert's foreign key: no such session
    if not state.startswith("KT"):
        return
    if state == "KT001":
        raise UnknownSessionError(sentence("session.unknown_create_first", session_id=session_id))
    if state == "KT005":
        call_id = from_postgres_text(detail)
        raise ProjectionOutOfStepError(
            f"tool_calls has no row for call_id {call_id!r} in session {session_id!r};"
            " run rebuild_projections() to refold it from the events"
        )
    index, *values = detail.split(",")
    event_type, payload = events[int(index) - 1]
    if state == "KT002":
        assert expected_version is not None  # only an expected version is checked so
        raise VersionConflictError(session_id, expected_version, int(values[0]))
    if state == "KT003":
        check_call_id(event_type, payload["call_id"], _CALL_STATES[values[0]])
    if state == "KT004":
        newest, last = values
        supersedes = payload[EVENT_ID_KEYS[event_type]]
        refuse_unless_it_fits(
            session_id,
            event_type,
            supersedes,
            newest_item_in_force=int(newest) if newest else None,
            last_event_id=int(last),
        )
