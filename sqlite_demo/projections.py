"""The projections: read-optimised tables derived from the events, one event at a time.

``write_projection`` is the projection's fold step. Appending calls it inside the event's own
transaction, so the projection can never lag behind or run ahead of the log; rebuilding
calls it for every event in order. One function for both means a rebuilt projection is the
same as one maintained append by append.
"""

from __future__ import annotations

import sqlite3
from typing import Final

from sqlite_demo.errors import ProjectionOutOfStepError
from sqlite_demo.rows import EVENT_COLUMNS, MessageRow, StoredEvent, ToolCallRow, event_from_row

#: The ``messages.role`` of each event type that the messages projection keeps.
MESSAGE_ROLES: Final = {"user_message": "user", "assistant_message": "assistant"}


def write_projection(connection: sqlite3.Connection, event: StoredEvent) -> None:
    """Apply one just-appended event to the projections; call it inside the write transaction.

    Raises:
        ProjectionOutOfStepError: a tool_result whose tool_call row is missing from the
            projection (rows were deleted by hand); ``rebuild_projections`` repairs that.
    """
    if event.type in MESSAGE_ROLES:
        _insert_message(connection, event)
    elif event.type == "tool_call":
        _insert_tool_call(connection, event)
    elif event.type == "tool_result":
        _fill_in_result(connection, event)


def _insert_message(connection: sqlite3.Connection, event: StoredEvent) -> None:
    role, content = MESSAGE_ROLES[event.type], event.payload["content"]
    connection.execute(
        "INSERT INTO messages (session_id, event_id, role, content, created_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (event.session_id, event.event_id, role, content, event.created_at),
    )


def _insert_tool_call(connection: sqlite3.Connection, event: StoredEvent) -> None:
    call = (event.payload["call_id"], event.payload["name"], event.payload["arguments"])
    connection.execute(
        "INSERT INTO tool_calls (session_id, event_id, call_id, name, arguments, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (event.session_id, event.event_id, *call, event.created_at),
    )


def _fill_in_result(connection: sqlite3.Connection, event: StoredEvent) -> None:
    # The projection row is updated in place; the events it came from never are.
    cursor = connection.execute(
        "UPDATE tool_calls SET result = ? WHERE session_id = ? AND call_id = ?",
        (event.payload["content"], event.session_id, event.payload["call_id"]),
    )
    if cursor.rowcount != 1:
        raise ProjectionOutOfStepError(
            f"tool_calls has no row for call_id {event.payload['call_id']!r} in session"
            f" {event.session_id!r}; run rebuild_projections() to refold it from the events"
        )


def rebuild_all(connection: sqlite3.Connection) -> None:
    """Empty both projections and refold them from every event; call it inside a transaction."""
    connection.execute("DELETE FROM messages")
    connection.execute("DELETE FROM tool_calls")
    rows = connection.execute(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY event_id")
    for row in rows.fetchall():
        write_projection(connection, event_from_row(row))


def read_messages(connection: sqlite3.Connection, session_id: str) -> list[MessageRow]:
    """Return the session's message rows in event order (empty for an unknown session)."""
    rows = connection.execute(
        "SELECT event_id, role, content FROM messages WHERE session_id = ? ORDER BY event_id",
        (session_id,),
    )
    return [MessageRow(*row) for row in rows]


def read_tool_calls(connection: sqlite3.Connection, session_id: str) -> list[ToolCallRow]:
    """Return the session's tool call rows in event order (empty for an unknown session)."""
    rows = connection.execute(
        "SELECT event_id, call_id, name, arguments, result FROM tool_calls"
        " WHERE session_id = ? ORDER BY event_id",
        (session_id,),
    )
    return [ToolCallRow(*row) for row in rows]
