"""The corrections' rule, shared by both backends: whether a correction may be appended.

A correction (``item_removed``, ``session_cleared``; see :data:`eventlog.CORRECTION_TYPES`)
never deletes an event: it is an event itself, whose ``supersedes`` column points at what it
takes out. An event is in force unless an ``item_removed`` names it or a ``session_cleared``
reaches it (:data:`sqlite_demo.store.reads.IN_FORCE` says it in SQL). Each backend reads the
two numbers the rule needs (the session's newest item in force, its last event) inside the
append's own transaction, while appends take turns, so nothing it read can change before the
correction is committed; the decision is this module's.
"""

from __future__ import annotations

from eventlog import CorrectionError, VersionConflictError
from eventlog.messages import sentence


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
            transaction (None: it has none); only ``item_removed`` reads it.
        last_event_id: the session's last event id, as read in the same transaction.

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
