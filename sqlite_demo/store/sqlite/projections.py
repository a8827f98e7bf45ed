"""The projections: read-optimised tables derived from the events, one event at a time.

``write_projection`` is the projection's fold step. Appending calls it inside the event's own
transaction, so the projection can never lag behind or run ahead of the log; rebuilding
calls it for every event in order. One function for both means a rebuilt projection is the
same as one maintained append by append. The projections show what is in force: a
correction deletes the rows of what it takes out (the events themselves stay in the log).
"""

from __future__ import annotations

from collections.abc import Iterable

from eventlog import ProjectionOutOfStepError, StoredEvent
from sqlite_demo.store.records import MESSAGE_ROLES
from sqlite_demo.store.sqlite.connection import Sql


def write_projection(connection: Sql, event: StoredEvent) -> None:
    """Apply one just-appended event to the projections; call it inside the write transaction.

    Raises:
        ProjectionOutOfStepError: a tool_result whose tool_call row is missing from the
            projection (rows were deleted by hand); ``rebuild_projections`` repairs that.
    """
    row_start = (event.session_id, event.event_id)
    payload = event.payload
    if event.type in MESSAGE_ROLES:
        connection.execute(
            "INSERT INTO messages (session_id, event_id, role, content, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (*row_start, MESSAGE_ROLES[event.type], payload["content"], event.created_at),
        )
    elif event.type == "tool_call":
        connection.execute(
            "INSERT INTO tool_calls (session_id, event_id, call_id, name, arguments, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (
                *row_start,
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


def _take_out_item(connection: Sql, session_id: str, event_id: int) -> None:
    # The event taken out is read from the log, the source of truth: its type says which
    # row it projected to. An agent_item projected to none.
    row = connection.execute(
        "SELECT type, call_id FROM events WHERE session_id = ? AND event_id = ?",
        (session_id, event_id),
    ).fetchone()
    event_type, call_id = row if row is not None else (None, None)
    if event_type in MESSAGE_ROLES:
        connection.execute("DELETE FROM messages WHERE event_id = ?", (event_id,))
    elif event_type == "tool_call":
        connection.execute("DELETE FROM tool_calls WHERE event_id = ?", (event_id,))
    elif event_type == "tool_result":
        connection.execute(
            "UPDATE tool_calls SET result = NULL WHERE session_id = ? AND call_id = ?",
            (session_id, call_id),
        )


def _take_out_through(connection: Sql, session_id: str, event_id: int) -> None:
    # messages has no session index of its own: its rows are found through the events'.
    connection.execute(
        "DELETE FROM messages WHERE event_id IN"
        " (SELECT event_id FROM events WHERE session_id = ? AND event_id <= ?)",
        (session_id, event_id),
    )
    connection.execute(
        "DELETE FROM tool_calls WHERE session_id = ? AND event_id <= ?", (session_id, event_id)
    )


def _fill_in_result(connection: Sql, event: StoredEvent) -> None:
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


def rebuild_all(connection: Sql, events: Iterable[StoredEvent]) -> None:
    """Empty both projections and refold them from ``events``; call it inside a transaction.

    Args:
        events: every event of the log, oldest first.
    """
    connection.execute("DELETE FROM messages")
    connection.execute("DELETE FROM tool_calls")
    for event in events:
        write_projection(connection, event)
