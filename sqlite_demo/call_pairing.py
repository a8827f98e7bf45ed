"""Calls and their outputs: which of a batch's the chapter's pairing can hold, decided on a
read, and a limit that never hands over an output without its call.

The store's call-id rule (:func:`eventlog.check_call_id`) wants each ``tool_call`` to use a
call id not in force in its session, and each ``tool_result`` to answer an open call. An
agent framework does not promise either: a scripted model may give every call the same id,
and a history may hold an output whose call it never kept. Such an item is still kept, whole,
as an ``agent_item`` (see :mod:`sqlite_demo.agent_items`), outside the ``tool_calls``
projection, so that ``add_items`` never refuses what the SDK's own session would keep.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from eventlog import CallState
from sqlite_demo.agent_items import Item, event_for_item, kept_whole

#: Which item answers which call, as the SDK pairs them (``run_internal/items.py``).
OUTPUT_OF_CALL: Final = {
    "program": "program_output",
    "function_call": "function_call_output",
    "custom_tool_call": "custom_tool_call_output",
    "shell_call": "shell_call_output",
    "apply_patch_call": "apply_patch_call_output",
    "computer_call": "computer_call_output",
    "local_shell_call": "local_shell_call_output",
    "tool_search_call": "tool_search_output",
}
_OUTPUTS: Final = frozenset(OUTPUT_OF_CALL.values())


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


def without_split_calls(items: list[Item]) -> list[Item]:
    """Return ``items`` less every output whose call is not among them.

    What a ``limit`` must never do is hand over a tool's output without the call it answers:
    a model refuses such a history. The window is never widened to fetch the call (a limit is
    a budget), so the output is left out, as the SDK's runner leaves it out.
    """
    answers = [_answers(item) for item in items]
    if not any(answers):
        return items  # no output at all, the common case: nothing to pair
    calls = set(_call_keys(items))
    return [item for item, answer in zip(items, answers, strict=True)
            if answer is None or answer in calls]  # fmt: skip


def _answers(item: Item) -> tuple[str, str] | None:
    # Items come back as they were added: "type" may be anything JSON holds, even a list.
    kind = item.get("type")
    if type(kind) is str and kind in _OUTPUTS and isinstance(item.get("call_id"), str):
        return kind, item["call_id"]
    return None


def _call_keys(items: Iterable[Item]) -> Iterable[tuple[str, str]]:
    for item in items:
        kind = item.get("type")
        output = OUTPUT_OF_CALL.get(kind) if type(kind) is str else None
        if output is not None and isinstance(item.get("call_id"), str):
            yield output, item["call_id"]
