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
What was added is what is read back, key for key and in order, and each text is stored once:

* **The payload is the item**, where the item already holds the payload's fields: a message
  whose content is a string, a call, an output whose output is a string (kept under the
  payload's name, ``content``, in the output's place). Reading it back is its decoding.
* **Otherwise the item is kept under** ``"item"``, beside the payload's fields, with every
  field the payload already holds marked ``null``: the content, the call's id, name and
  arguments, the output, and the text of a content made of one text part (a model's answer).
  Reading it puts the payload's value back in the marked place. None of these fields can hold
  ``null`` in an item of these kinds, so a mark is never taken for a value.

Any other item (a system message, a reasoning step, a hosted tool's call, an item whose fields
do not fit the chapter's columns) is an ``agent_item``: kept whole, outside the chat replay and
the projections. An event the kit's own agent service wrote holds the chapter's fields alone:
it reads as the item they make, so a session of the HTTP service is an SDK session too.

Nothing here touches a store or imports the SDK: it is the mapping, as pure functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from eventlog import KEPT_ITEM, InvalidPayloadError
from sqlite_demo.store.records import MESSAGE_ROLES

#: An item: a JSON object. The SDK types it as a union of TypedDicts; at run time it is a dict.
Item = dict[str, Any]

#: The event type of a message item, by its role (the inverse of ``MESSAGE_ROLES``).
_MESSAGE_EVENTS: Final = {role: event_type for event_type, role in MESSAGE_ROLES.items()}
#: The fields of a call that its ``tool_call`` payload holds, as the item names them.
_CALL_FIELDS: Final = ("call_id", "name", "arguments")
#: What an event type that is no message maps to, for ``MESSAGE_ROLES.get``: no role equals it.
_NO_ROLE: Final = object()
_TEXT_KEYS: Final = {"input_text": "text", "output_text": "text", "refusal": "refusal"}


def event_for_item(item: object) -> tuple[str, dict[str, Any]]:
    """Return the event type and payload that keep ``item`` (the item is not changed).

    Raises:
        InvalidPayloadError: ``item`` is not a JSON object (a dict with string keys).
    """
    if not isinstance(item, Mapping):
        raise InvalidPayloadError(f"an item must be a JSON object (a dict), got {type(item)}")
    kind, role = item.get("type", "message"), item.get("role")
    if kind == "message" and role in ("user", "assistant") and _is_content(item.get("content")):
        return _MESSAGE_EVENTS[role], _message_payload(item)
    if kind == "function_call" and _fits_a_call(item):
        if "item" not in item:
            return "tool_call", dict(item)
        fields = {key: item[key] for key in _CALL_FIELDS}
        return "tool_call", {**fields, "item": {**item, **dict.fromkeys(_CALL_FIELDS)}}
    if kind == "function_call_output" and _fits_an_output(item):
        return "tool_result", _output_payload(item)
    return kept_whole(item)


def kept_whole(item: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """Return the ``agent_item`` event that keeps ``item`` whole, outside chat and projections."""
    return KEPT_ITEM, {"item": item}


def item_from(event_type: str, payload: dict[str, Any]) -> Item:
    """Return the item an event of ``event_type`` keeps, from its decoded ``payload``.

    ``payload`` must be the caller's own (as ``get_items_in_force`` hands it out): the item
    is made of it, not copied from it.
    """
    kept: Item | None = payload.get("item")
    if kept is not None:
        return _with_text_put_back(event_type, kept, payload)
    if event_type in MESSAGE_ROLES:
        if payload.get("role") == MESSAGE_ROLES[event_type]:
            return payload
        return {"role": MESSAGE_ROLES[event_type], "content": payload["content"]}
    if event_type == "tool_call":
        if payload.get("type") == "function_call":
            return payload
        return {"type": "function_call", **{key: payload[key] for key in _CALL_FIELDS}}
    if payload.get("type") == "function_call_output" and "output" not in payload:
        return {("output" if key == "content" else key): value for key, value in payload.items()}
    return {"type": "function_call_output", "call_id": payload["call_id"],
            "output": payload["content"]}  # fmt: skip


def items_from(facts: Iterable[tuple[str, dict[str, Any]]]) -> list[Item]:
    """Return :func:`item_from` of each ``(event_type, payload)``, in order.

    A session's history is mostly messages whose payload is the item itself (its role, and
    nothing kept under ``"item"``): those are taken as they are, tested here in the loop rather
    than by a call of :func:`item_from` each (whose first two tests these are), about 5% of a
    whole session's read. Any other goes through :func:`item_from`.
    """
    return [
        payload
        if "item" not in payload and payload.get("role") == MESSAGE_ROLES.get(event_type, _NO_ROLE)
        else item_from(event_type, payload)
        for event_type, payload in facts
    ]


def text_of(content: object) -> str:
    """Return the text of a message's content or a call's output: a string, or its parts'."""
    if isinstance(content, str):
        return content
    parts = content if isinstance(content, list) else []
    return "".join(_text_of_part(part) for part in parts)


def _message_payload(item: Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(item["content"], str) and "item" not in item:
        return dict(item)
    text = text_of(item["content"])
    return {"content": text, "item": _with_text_marked(item, "content", text)}


def _output_payload(item: Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(item["output"], str) and "item" not in item and "content" not in item:
        # The output under the payload's name, in its place: the item, and the payload.
        return {("content" if key == "output" else key): value for key, value in item.items()}
    text = text_of(item["output"])
    kept = _with_text_marked({**item, "call_id": None}, "output", text)
    return {"call_id": item["call_id"], "content": text, "item": kept}


def _with_text_marked(item: Mapping[str, Any], key: str, text: str) -> Item:
    """Return ``item`` with the text at ``key`` (which ``text`` repeats) marked ``null``."""
    value = item[key]
    if isinstance(value, str):
        return {**item, key: None}
    part = _the_one_text_part(value)
    if part is None or part.get(_TEXT_KEYS[part["type"]]) != text or text == _mark_of(part):
        return dict(item)
    return {**item, key: [{**part, _TEXT_KEYS[part["type"]]: None}]}


def _with_text_put_back(event_type: str, kept: Item, payload: dict[str, Any]) -> Item:
    """Return the item kept under ``"item"``, each field marked ``null`` given back."""
    if event_type == "tool_call":
        for key in _CALL_FIELDS:
            if key in kept and kept[key] is None:
                kept[key] = payload[key]
    elif event_type == "tool_result":
        if "call_id" in kept and kept["call_id"] is None:
            kept["call_id"] = payload["call_id"]
        _put_text_back(kept, "output", payload["content"])
    elif event_type in MESSAGE_ROLES:
        _put_text_back(kept, "content", payload["content"])
    return kept


def _put_text_back(kept: Item, key: str, text: str) -> None:
    """Put ``text`` back where :func:`_with_text_marked` marked it, if it did."""
    value = kept.get(key, "")
    if value is None:
        kept[key] = text
        return
    part = _the_one_text_part(value) if isinstance(value, list) else None
    if part is None or part.get(_TEXT_KEYS[part["type"]], "") is not None:
        return
    # A part whose text was null to begin with gave its mark as the content: left as it is.
    if text != _mark_of(part):
        part[_TEXT_KEYS[part["type"]]] = text


def _the_one_text_part(parts: list[Any]) -> dict[str, Any] | None:
    # One part of a text kind: the case of a model's answer, whose text is then the content.
    if len(parts) == 1 and isinstance(parts[0], dict):
        kind = parts[0].get("type")
        if isinstance(kind, str) and kind in _TEXT_KEYS:
            part: dict[str, Any] = parts[0]
            return part
    return None


def _mark_of(part: Mapping[str, Any]) -> str:
    """The text :func:`text_of` gives a part without a text: its kind in brackets."""
    kind = part.get("type")
    return f"[{kind if isinstance(kind, str) else 'part'}]"


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
    return _mark_of(part)
