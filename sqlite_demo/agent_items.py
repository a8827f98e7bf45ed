"""An agent framework's history items as the store's events, and back again.

The OpenAI Agents SDK keeps a conversation as a list of items: plain JSON objects
(``TResponseInputItem``). The four kinds the chapter knows become its four event types, so
they fill the ``messages`` and ``tool_calls`` projections and the Chat Completions replay:

==========================================================  =====================  =========
item                                                        event                  payload
==========================================================  =====================  =========
``{"role": "user", "content": ...}``                        ``user_message``       content
``{"role": "assistant", "content": ...}``                   ``assistant_message``  content
``{"type": "function_call", "call_id", "name", ...}``       ``tool_call``          call_id,
                                                                                   name,
                                                                                   arguments
``{"type": "function_call_output", "call_id", "output"}``   ``tool_result``        call_id,
                                                                                   content
==========================================================  =====================  =========

``content`` is the item's text: a string as it is, or the text of its parts (``input_text``,
``output_text``, ``refusal``), with ``[input_image]``-style marks for parts that are not text.
Every payload also keeps the item whole under ``"item"``, so what was added is what is read
back, key for key. Any other item (a system message, a reasoning step, a hosted tool's call,
an item whose fields do not fit the chapter's columns) is an ``agent_item``: kept whole, in
the history, outside the chat replay and the projections.

Nothing here touches a store or imports the SDK: it is the mapping, as pure functions.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from typing import Any, Final

from eventlog import KEPT_ITEM, InvalidPayloadError, ReadOnlyPayload

#: An item: a JSON object. The SDK types it as a union of TypedDicts; at run time it is a dict.
Item = dict[str, Any]

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
_MESSAGE_EVENTS: Final = {"user": "user_message", "assistant": "assistant_message"}
_TEXT_KEYS: Final = {"input_text": "text", "output_text": "text", "refusal": "refusal"}


def event_for_item(item: object) -> tuple[str, dict[str, Any]]:
    """Return the event type and payload that keep ``item``.

    Raises:
        InvalidPayloadError: ``item`` is not a JSON object (a dict with string keys).
    """
    if not isinstance(item, Mapping):
        raise InvalidPayloadError(f"an item must be a JSON object (a dict), got {type(item)}")
    kind, role = item.get("type", "message"), item.get("role")
    if kind == "message" and role in ("user", "assistant") and _is_content(item.get("content")):
        return _MESSAGE_EVENTS[role], {"content": text_of(item["content"]), "item": item}
    if kind == "function_call" and _fits_a_call(item):
        fields = {key: item[key] for key in ("call_id", "name", "arguments")}
        return "tool_call", {**fields, "item": item}
    if kind == "function_call_output" and _fits_an_output(item):
        return "tool_result", {"call_id": item["call_id"], "content": text_of(item["output"]),
                               "item": item}  # fmt: skip
    return kept_whole(item)


def kept_whole(item: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """Return the ``agent_item`` event that keeps ``item`` whole, outside chat and projections."""
    return KEPT_ITEM, {"item": item}


def item_of(event: Any) -> Item:
    """Return the item an event keeps, as a fresh dict (changing it changes nothing stored).

    An event the kit's own agent service wrote holds no ``"item"``: the item is built from the
    chapter's fields, so a session of the HTTP service can be read as an SDK session too.
    """
    payload = _fresh_payload(event.payload)
    if "item" in payload:
        kept: Item = payload["item"]
        return kept
    if event.type in ("user_message", "assistant_message"):
        return {"role": event.type.removesuffix("_message"), "content": payload["content"]}
    if event.type == "tool_call":
        fields = ("call_id", "name", "arguments")
        return {"type": "function_call", **{key: payload[key] for key in fields}}
    return {"type": "function_call_output", "call_id": payload["call_id"],
            "output": payload["content"]}  # fmt: skip


def _fresh_payload(payload: Mapping[str, Any]) -> dict[str, Any]:
    # One decode of the stored text is a fresh dict, cheaper than the deep copy that each
    # read of a ReadOnlyPayload's nested value makes (get_items reads every item).
    if isinstance(payload, ReadOnlyPayload):
        fresh: dict[str, Any] = json.loads(payload.json_text)
        return fresh
    return copy.deepcopy(dict(payload))


def text_of(content: object) -> str:
    """Return the text of a message's content or a call's output: a string, or its parts'."""
    if isinstance(content, str):
        return content
    parts = content if isinstance(content, list) else []
    return "".join(_text_of_part(part) for part in parts)


def without_split_calls(items: list[Item]) -> list[Item]:
    """Return ``items`` less every output whose call is not among them.

    What a ``limit`` must never do is hand over a tool's output without the call it answers:
    a model refuses such a history. The window is never widened to fetch the call (a limit is
    a budget), so the output is left out, as the SDK's runner leaves it out.
    """
    calls = set(_call_keys(items))
    return [item for item in items if _answers(item) in calls or _answers(item) is None]


def _answers(item: Item) -> tuple[str, str] | None:
    kind = item.get("type")
    if kind in OUTPUT_OF_CALL.values() and isinstance(item.get("call_id"), str):
        return str(kind), item["call_id"]
    return None


def _call_keys(items: Iterable[Item]) -> Iterable[tuple[str, str]]:
    for item in items:
        kind = item.get("type")
        # Items come back as they were added: "type" may be anything JSON holds, even a list.
        output = OUTPUT_OF_CALL.get(kind) if isinstance(kind, str) else None
        if output is not None and isinstance(item.get("call_id"), str):
            yield output, item["call_id"]


def _is_content(content: object) -> bool:
    return isinstance(content, str) or (
        isinstance(content, list) and all(isinstance(part, Mapping) for part in content)
    )


def _fits_a_call(item: Mapping[str, Any]) -> bool:
    # The chapter's columns: a non-empty call id and name, and arguments as text.
    call_id, name, arguments = item.get("call_id"), item.get("name"), item.get("arguments")
    return _non_empty_text(call_id) and _non_empty_text(name) and isinstance(arguments, str)


def _fits_an_output(item: Mapping[str, Any]) -> bool:
    return _non_empty_text(item.get("call_id")) and _is_content(item.get("output"))


def _non_empty_text(value: object) -> bool:
    return isinstance(value, str) and value != ""


def _text_of_part(part: Mapping[str, Any]) -> str:
    kind = part.get("type")
    key = _TEXT_KEYS.get(kind) if isinstance(kind, str) else None
    if key is not None and isinstance(part.get(key), str):
        return str(part[key])
    return f"[{kind if isinstance(kind, str) else 'part'}]"
