"""Which of a batch's calls and outputs the chapter's pairing can hold, decided on a read.

The store's call-id rule (:func:`eventlog.check_call_id`) wants each ``tool_call`` to use a
call id not in force in its session, and each ``tool_result`` to answer an open call. An
agent framework does not promise either: a scripted model may give every call the same id,
and a history may hold an output whose call it never kept. Such an item is still kept, whole,
as an ``agent_item`` (see :mod:`sqlite_demo.agent_items`), outside the ``tool_calls``
projection, so that ``add_items`` never refuses what the SDK's own session would keep.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from eventlog import CallState
from sqlite_demo.agent_items import Item, event_for_item, kept_whole


def pair_with_calls_in_force(
    in_force: Iterable[Any], items: list[Item]
) -> list[tuple[str, dict[str, Any]]]:
    """Return the events for ``items``, each call or output the rule would refuse kept whole.

    Args:
        in_force: the session's item events in force, oldest first.
        items: the batch, in order; each sees the calls of the items before it.
    """
    states = _call_states(in_force)
    events = []
    for item in items:
        event_type, payload = event_for_item(item)
        if event_type in ("tool_call", "tool_result"):
            state = states.get(payload["call_id"], CallState.UNUSED)
            needed = CallState.UNUSED if event_type == "tool_call" else CallState.OPEN
            if state is needed:
                states[payload["call_id"]] = _state_after(event_type)
            else:
                event_type, payload = kept_whole(item)
        events.append((event_type, payload))
    return events


def _call_states(events: Iterable[Any]) -> dict[str, CallState]:
    states: dict[str, CallState] = {}
    for event in events:
        if event.type in ("tool_call", "tool_result"):
            states[event.payload["call_id"]] = _state_after(event.type)
    return states


def _state_after(event_type: str) -> CallState:
    return CallState.OPEN if event_type == "tool_call" else CallState.ANSWERED
