"""The corrections on SQLite: the two numbers the shared rule reads, read with SQLite's SQL.

The rule itself (:func:`sqlite_demo.store.corrections.refuse_unless_it_fits`) and the
in-force condition are the backends' shared ones; the two partial indexes of ``schema.sql``
answer "was event N removed?" and "up to where was the session cleared?" with one seek each.
These run inside the caller's ``BEGIN IMMEDIATE`` transaction, so nothing they read can change
before the correction is committed.
"""

from __future__ import annotations

import sqlite3

from sqlite_demo.store.corrections import NEWEST_ITEM_IN_FORCE, refuse_unless_it_fits


def newest_item_in_force(connection: sqlite3.Connection, session_id: str) -> int | None:
    """Return the event id of the session's newest item still in force, or None if none is."""
    row = connection.execute(NEWEST_ITEM_IN_FORCE.format("?"), (session_id,)).fetchone()
    return None if row is None else int(row[0])


def check_correction(
    connection: sqlite3.Connection, session_id: str, event_type: str, supersedes: int
) -> None:
    """Refuse a correction that does not point at what it may supersede (the shared rule).

    Raises:
        CorrectionError: an ``item_removed`` that names another event, or no item is left.
        VersionConflictError: a ``session_cleared`` whose session moved on since it was read.
    """
    newest = newest_item_in_force(connection, session_id) if event_type == "item_removed" else None
    last = connection.execute(
        "SELECT coalesce(max(event_id), 0) FROM events WHERE session_id = ?", (session_id,)
    ).fetchone()[0]
    refuse_unless_it_fits(
        session_id, event_type, supersedes, newest_item_in_force=newest, last_event_id=int(last)
    )
