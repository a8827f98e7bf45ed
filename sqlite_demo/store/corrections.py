"""The corrections' rule, shared by both backends: which events are in force, and whether a
correction may be appended.

A correction (``item_removed``, ``session_cleared``; see :data:`eventlog.CORRECTION_TYPES`)
never deletes an event: it is an event itself, whose ``supersedes`` column points at what it
takes out. An event is in force unless an ``item_removed`` names it or a ``session_cleared``
reaches it. Each backend reads the two numbers the rule needs (the session's newest item in
force, its last event) inside the append's own transaction, while appends take turns, so
nothing it read can change before the correction is committed; the decision is this module's.
"""

from __future__ import annotations

from typing import Final

from eventlog import ITEM_TYPES, CorrectionError, VersionConflictError
from eventlog.messages import sentence

#: A condition on ``events AS e``: the event is in force (no correction takes it out). Plain
#: SQL that SQLite and PostgreSQL both run; each backend's partial indexes make it two seeks.
IN_FORCE: Final = (
    "e.event_id > coalesce((SELECT max(c.supersedes) FROM events AS c"
    " WHERE c.session_id = e.session_id AND c.type = 'session_cleared'), 0)"
    " AND NOT EXISTS (SELECT 1 FROM events AS r WHERE r.session_id = e.session_id"
    " AND r.type = 'item_removed' AND r.supersedes = e.event_id)"
)
#: The item types as an SQL list, for ``type IN (...)``.
ITEM_TYPES_SQL: Final = ", ".join(f"'{event_type}'" for event_type in ITEM_TYPES)
#: The query for the session's newest item in force (one parameter: the session id). The walk
#: goes back from the session's last event and stops at the first item in force: it reads as
#: many events as were taken out at the end, not the whole session.
NEWEST_ITEM_IN_FORCE: Final = (
    f"SELECT event_id FROM events AS e WHERE session_id = {{0}} AND type IN ({ITEM_TYPES_SQL})"
    f" AND {IN_FORCE} ORDER BY event_id DESC LIMIT 1"
)


def refuse_unless_it_fits(
    session_id: str,
    event_type: str,
    supersedes: int,
    *,
    newest_item_in_force: int | None,
    last_event_id: int,
) -> None:
    """Refuse a correction that does not point at what it may supersede.

    * ``item_removed`` may take out only the session's newest item in force: so two writers
      that both remove "the newest item" can never remove one item twice, or skip one.
    * ``session_cleared`` must reach exactly the session's last event: it clears what its
      writer saw, and a writer that did not see the latest events is told so.

    Args:
        session_id: the session appended to.
        event_type: ``item_removed`` or ``session_cleared``.
        supersedes: the event id the correction points at.
        newest_item_in_force: the session's newest item in force, as read in the append's
            transaction (None if none is left).
        last_event_id: the session's last event id (0 for none), as read there too.

    Raises:
        CorrectionError: an ``item_removed`` that names another event, or no item is left.
        VersionConflictError: a ``session_cleared`` whose session moved on since it was read.
    """
    if event_type == "item_removed":
        if newest_item_in_force != supersedes:
            said = (
                sentence("correction.none_in_force", session_id=session_id, supersedes=supersedes)
                if newest_item_in_force is None
                else sentence("correction.another_in_force", session_id=session_id,
                             newest=newest_item_in_force, supersedes=supersedes)
            )  # fmt: skip
            raise CorrectionError(said)
        return
    if last_event_id != supersedes:
        raise VersionConflictError(session_id, supersedes, last_event_id)
