"""The corrections in SQL: which events are in force, and whether a correction may be appended.

A correction (``item_removed``, ``session_cleared``; see :data:`eventlog.CORRECTION_TYPES`)
never deletes an event: it is an event itself, whose ``supersedes`` column points at what it
takes out. An event is in force unless an ``item_removed`` names it or a ``session_cleared``
reaches it; the two partial indexes of ``schema.sql`` answer each question with one seek.
These run inside the caller's ``BEGIN IMMEDIATE`` transaction, so nothing they read can change
before the correction is committed.
"""

from __future__ import annotations

import sqlite3
from typing import Final

from eventlog import ITEM_TYPES, CorrectionError, VersionConflictError

#: A condition on ``events AS e``: the event is in force (no correction takes it out).
IN_FORCE: Final = (
    "e.event_id > coalesce((SELECT max(c.supersedes) FROM events AS c"
    " WHERE c.session_id = e.session_id AND c.type = 'session_cleared'), 0)"
    " AND NOT EXISTS (SELECT 1 FROM events AS r WHERE r.session_id = e.session_id"
    " AND r.type = 'item_removed' AND r.supersedes = e.event_id)"
)
_ITEM_TYPES_SQL: Final = ", ".join(f"'{event_type}'" for event_type in ITEM_TYPES)


def newest_item_in_force(connection: sqlite3.Connection, session_id: str) -> int | None:
    """Return the event id of the session's newest item still in force, or None if none is.

    The walk goes back from the session's last event and stops at the first item in force:
    it reads as many events as were taken out at the end, not the whole session.
    """
    row = connection.execute(
        f"SELECT event_id FROM events AS e WHERE session_id = ? AND type IN ({_ITEM_TYPES_SQL})"
        f" AND {IN_FORCE} ORDER BY event_id DESC LIMIT 1",
        (session_id,),
    ).fetchone()
    return None if row is None else int(row[0])


def check_correction(
    connection: sqlite3.Connection, session_id: str, event_type: str, supersedes: int
) -> None:
    """Refuse a correction that does not point at what it may supersede.

    * ``item_removed`` may take out only the session's newest item in force: so two writers
      that both remove "the newest item" can never remove one item twice, or skip one.
    * ``session_cleared`` must reach exactly the session's last event: it clears what its
      writer saw, and a writer that did not see the latest events is told so.

    Raises:
        CorrectionError: an ``item_removed`` that names another event, or no item is left.
        VersionConflictError: a ``session_cleared`` whose session moved on since it was read.
    """
    if event_type == "item_removed":
        newest = newest_item_in_force(connection, session_id)
        if newest != supersedes:
            which = "it has none" if newest is None else f"that is event {newest}"
            raise CorrectionError(
                f"item_removed may take out only the newest item in force of session"
                f" {session_id!r}, and {which}, not event {supersedes}"
            )
        return
    last = connection.execute(
        "SELECT coalesce(max(event_id), 0) FROM events WHERE session_id = ?", (session_id,)
    ).fetchone()[0]
    if last != supersedes:
        raise VersionConflictError(session_id, supersedes, last)
