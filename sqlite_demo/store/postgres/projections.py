"""The projections on PostgreSQL: the same fold step as on SQLite, in PostgreSQL's SQL.

``write_projection`` runs inside the event's own transaction, so the projection can never
lag behind or run ahead of the log; rebuilding calls it for every event in order, so a
rebuilt projection is the same as one maintained append by append. The projections show
what is in force: a correction deletes the rows of what it takes out (the events stay).
"""

from __future__ import annotations

from collections.abc import Iterable

from eventlog import ProjectionOutOfStepError, StoredEvent
from sqlite_demo.store.postgres.connection import Connection
from sqlite_demo.store.records import MESSAGE_ROLES, MessageRow, ToolCallRow


def write_projection(connection: Connection, event: StoredEvent) -> None:
    """Apply one just-appended event to the projections; call it inside the write transaction.

    Raises:
        ProjectionOutOfStepError: a tool_result whose tool_call row is missing from the
            projection (rows were deleted by hand); ``rebuild_projections`` repairs that.
    """
    payload = event.payload
    if event.type in MESSAGE_ROLES:
        connection.execute(
            "INSERT INTO messages (session_id, event_id, role, content, created_at)"
            " VALUES (%s, %s, %s, %s, %s)",
            (
                event.session_id,
                event.event_id,
                MESSAGE_ROLES[event.type],
                payload["content"],
                event.created_at,
            ),
        )
    elif event.type == "tool_call":
        connection.execute(
            "INSERT INTO tool_calls (session_id, event_id, call_id, name, arguments, created_at)"
            " VALUES (%s, %s, %s, %s, %s, %s)",
            (
                event.session_id,
                event.event_id,
                payload["call_id"],
                payload["name"],
                payload["arguments"],
                event.created_at,
            ),
        )
    elif event.type == "tool_result":
        _fill_in_result(connection, event)
    elif event.type == "item_removed":
        _take_out_item(connection, event.session_id, payload["supersedes"])
    elif event.type == "session_cleared":
        _take_out_through(connection, event.session_id, payload["supersedes_through"])


def _take_out_item(connection: Connection, session_id: str, event_id: int) -> None:
    # The event taken out is read from the log, the source of truth: its type says which
    # row it projected to. An agent_item projected to none.
    row = connection.execute(
        "SELECT type, call_id FROM events WHERE session_id = %s AND event_id = %s",
        (session_id, event_id),
    ).fetchone()
    event_type, call_id = row if row is not None else (None, None)
    if event_type in MESSAGE_ROLES:
        connection.execute("DELETE FROM messages WHERE event_id = %s", (event_id,))
    elif event_type == "tool_call":
        connection.execute("DELETE FROM tool_calls WHERE event_id = %s", (event_id,))
    elif event_type == "tool_result":
        connection.execute(
            "UPDATE tool_calls SET result = NULL WHERE session_id = %s AND call_id = %s",
            (session_id, call_id),
        )


def _take_out_through(connection: Connection, session_id: str, event_id: int) -> None:
    connection.execute(
        "DELETE FROM messages WHERE session_id = %s AND event_id <= %s", (session_id, event_id)
    )
    connection.execute(
        "DELETE FROM tool_calls WHERE session_id = %s AND event_id <= %s", (session_id, event_id)
    )


def _fill_in_result(connection: Connection, event: StoredEvent) -> None:
    # The projection row is updated in place; the events it came from never are.
    # RETURNING rather than rowcount: inside the append's pipeline, fetching the row is
    # what makes the result arrive (a rowcount would not be known yet).
    cursor = connection.execute(
        "UPDATE tool_calls SET result = %s WHERE session_id = %s AND call_id = %s"
        " RETURNING event_id",
        (event.payload["content"], event.session_id, event.payload["call_id"]),
    )
    if cursor.fetchone() is None:
        raise ProjectionOutOfStepError(
            f"tool_calls has no row for call_id {event.payload['call_id']!r} in session"
            f" {event.session_id!r}; run rebuild_projections() to refold it from the events"
        )


def rebuild_all(connection: Connection, events: Iterable[StoredEvent]) -> None:
    """Empty both projections and refold them from ``events``; call it inside a transaction.

    Args:
        events: every event of the log, oldest first.
    """
    connection.execute("DELETE FROM messages")
    connection.execute("DELETE FROM tool_calls")
    for event in events:
        write_projection(connection, event)


def read_messages(
    connection: Connection, session_id: str, after_event_id: int, limit: int | None
) -> list[MessageRow]:
    """Return the session's message rows in event order (empty for an unknown session).

    Only rows of events after ``after_event_id``, at most ``limit`` of them (None: all).
    """
    rows = connection.execute(
        "SELECT m.event_id, m.role, m.content FROM events AS e"
        " JOIN messages AS m ON m.event_id = e.event_id"
        " WHERE e.session_id = %s AND e.event_id > %s ORDER BY e.event_id LIMIT %s",
        (session_id, after_event_id, limit),
    )
    return [MessageRow(*row) for row in rows]


def read_tool_calls(
    connection: Connection, session_id: str, after_event_id: int, limit: int | None
) -> list[ToolCallRow]:
    """Return the session's tool call rows in event order (empty for an unknown session).

    Only rows of events after ``after_event_id``, at most ``limit`` of them (None: all).
    """
    rows = connection.execute(
        "SELECT event_id, call_id, name, arguments, result FROM tool_calls"
        " WHERE session_id = %s AND event_id > %s ORDER BY event_id LIMIT %s",
        (session_id, after_event_id, limit),
    )
    return [ToolCallRow(*row) for row in rows]
