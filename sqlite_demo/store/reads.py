"""The reads both backends run: one SQL text per question.

Every query is plain SQL that SQLite and PostgreSQL both run, written with ``?`` parameters
(PostgreSQL's backend turns them into psycopg's ``%s``: see :func:`for_psycopg`). The
projections' reads, the log's reads and the items in force are the same on both backends, so
they are written here once; :mod:`sqlite_demo.store.rows` builds the values from their rows.

No correction is folded that does not reach the result: every item in force is selected by
SQL (:data:`IN_FORCE`), which never visits what the last clear took out; the newest few are
read by walking the session back from its last event (:func:`newest_items`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from eventlog import ITEM_TYPES

#: The largest integer either database holds (64-bit, signed): no event id is larger, and a
#: LIMIT of it means "all" on both (SQLite refuses a NULL limit, PostgreSQL a negative one).
MAX_INTEGER: Final = 2**63 - 1
#: The item types as an SQL list, for ``type IN (...)``.
ITEM_TYPES_SQL: Final = ", ".join(f"'{event_type}'" for event_type in ITEM_TYPES)
#: A condition on an event of the session given as the parameter ``?`` (three times): it is
#: an item in force. An event is out if it is a correction, if a ``session_cleared`` reaches it,
#: or if an ``item_removed`` names it. The subqueries name the session by parameter, not by the
#: outer row, so each runs once per query: the first bounds the walk of the session's index
#: (the events before the last clear are never visited), the second asks whether the session
#: has any removal at all. Only if it has are the rows looked up in the set of removed ids;
#: if not, the one correction the walk can meet is the last clear itself. The partial indexes
#: of the corrections answer each subquery with one seek.
IN_FORCE: Final = (
    "event_id > coalesce((SELECT max(supersedes) FROM events"
    " WHERE session_id = ? AND type = 'session_cleared'), 0)"
    " AND CASE WHEN (SELECT NOT EXISTS (SELECT 1 FROM events"
    " WHERE session_id = ? AND type = 'item_removed')) THEN type <> 'session_cleared'"
    f" ELSE type IN ({ITEM_TYPES_SQL}) AND event_id NOT IN (SELECT supersedes FROM events"
    " WHERE session_id = ? AND type = 'item_removed') END"
)
#: The session's items in force, oldest first (the parameter: the session id, four times).
ITEMS_IN_FORCE: Final = (
    f"SELECT event_id, type, payload FROM events WHERE session_id = ? AND {IN_FORCE}"
    " ORDER BY event_id"
)
#: Their types and payloads alone: what the replay folds.
FACTS_IN_FORCE: Final = ITEMS_IN_FORCE.replace("event_id, type, payload", "type, payload", 1)
#: The newest ``?`` of them, newest first: one statement, for a check inside a transaction.
NEWEST_ITEMS_IN_FORCE: Final = (
    ITEMS_IN_FORCE.replace("ORDER BY event_id", "ORDER BY event_id DESC") + " LIMIT ?"
)
#: A page of the session's events before an id, newest first, with what each correction
#: points at: the walk of :func:`newest_items`.
EVENTS_BEFORE: Final = (
    "SELECT event_id, type, payload, supersedes FROM events"
    " WHERE session_id = ? AND event_id < ? ORDER BY event_id DESC LIMIT ?"
)
#: The session's events after an id, at most so many, oldest first.
EVENTS_AFTER: Final = (
    "SELECT event_id, type, payload, created_at FROM events"
    " WHERE session_id = ? AND event_id > ? ORDER BY event_id LIMIT ?"
)
#: The session's last event id, 0 when it has none.
LAST_EVENT_ID: Final = "SELECT coalesce(max(event_id), 0) FROM events WHERE session_id = ?"
#: Every event of the log, oldest first: what a rebuild of the projections folds.
ALL_EVENTS: Final = (
    "SELECT event_id, session_id, type, payload, created_at FROM events ORDER BY event_id"
)
#: The session's message rows, through the events' session index (the projection is keyed
#: by event_id alone).
MESSAGES: Final = (
    "SELECT m.event_id, m.role, m.content FROM events AS e"
    " JOIN messages AS m ON m.event_id = e.event_id"
    " WHERE e.session_id = ? AND e.event_id > ? ORDER BY e.event_id LIMIT ?"
)
#: The session's tool call rows; UNIQUE (session_id, call_id) is the index that finds them.
TOOL_CALLS: Final = (
    "SELECT event_id, call_id, name, arguments, result FROM tool_calls"
    " WHERE session_id = ? AND event_id > ? ORDER BY event_id LIMIT ?"
)
#: The ids of the sessions with events, in the order of their first event.
ACTIVE_SESSION_IDS: Final = (
    "SELECT session_id FROM events GROUP BY session_id ORDER BY min(event_id)"
)
#: One session by id.
SESSION_BY_ID: Final = "SELECT id, title, created_at FROM sessions WHERE id = ?"


#: A backend's read: runs ``(sql, arguments)`` with ``?`` parameters, returns the rows.
Fetch = Callable[[str, tuple[Any, ...]], Sequence[Any]]


def items_in_force(session_id: str, newest: int | None = None) -> tuple[str, tuple[Any, ...]]:
    """Return the query for the session's items in force, and its arguments: all of them,
    oldest first, or the newest ``newest``, newest first."""
    if newest is None:
        return ITEMS_IN_FORCE, (session_id,) * 4
    return NEWEST_ITEMS_IN_FORCE, (*(session_id,) * 4, newest)


def newest_items(fetch: Fetch, session_id: str, newest: int) -> list[tuple[int, str, str]]:
    """Return the session's newest ``newest`` items in force as ``(event_id, type, payload
    JSON)`` rows, oldest first, read from the end of the session's index.

    The walk reads the session's events backwards, a page at a time: first just ``newest``
    of them, which is all it takes when nothing was taken out at the end. A correction is
    always appended after what it takes out, so walking back it is met first: an
    ``item_removed`` marks its item to be skipped when the walk reaches it, a
    ``session_cleared`` ends the walk (nothing before it is in force). So the corrections
    are folded in only where they reach into what is returned, and the work grows with what
    is returned and what was taken out among it, never with the session.

    Each page is a statement of its own; later ones read only events older than the first
    page, which no append can add to or change, so the result is the session as the first
    page saw it.

    Args:
        fetch: runs ``(sql, arguments)`` and returns its rows (a backend's read).
    """
    found: list[tuple[int, str, str]] = []
    removed: set[int] = set()
    before, page = MAX_INTEGER, newest
    while len(found) < newest:
        rows = fetch(EVENTS_BEFORE, (session_id, before, page))
        for event_id, event_type, payload, supersedes in rows:
            if supersedes is None:  # an item: only the corrections point at an event
                if event_id not in removed:
                    found.append((event_id, event_type, payload))
                    if len(found) == newest:
                        break
            elif event_type == "session_cleared":
                return found[::-1]
            else:
                removed.add(supersedes)
        if len(rows) < page:
            break
        before, page = rows[-1][0], page * 2
    return found[::-1]


def for_psycopg(sql: str) -> str:
    """Return ``sql`` with psycopg's ``%s`` for each ``?`` (none of these queries holds a
    ``?`` or a ``%`` of its own)."""
    return sql.replace("?", "%s")


def clamp(value: int) -> int:
    """Return ``value`` clamped into the databases' integers: no answer changes (every id is
    inside), and "after 2**64" still means "nothing", as in the pure core."""
    return max(-MAX_INTEGER - 1, min(value, MAX_INTEGER))


def limit_or_all(limit: int | None) -> int:
    """Return a LIMIT both databases read as ``limit``, or as "all" for None."""
    return MAX_INTEGER if limit is None else limit
