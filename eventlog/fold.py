"""Replay as a fold: one function applies one event to the conversation so far.

The output is the message list of the OpenAI Chat Completions API, so a replayed session
can be sent straight back to a model. Tool calls made together (consecutive ``tool_call``
events) become one assistant message, because the API wants parallel calls in a single
message directly followed by their results.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from typing import Any

Message = dict[str, Any]
Conversation = tuple[Message, ...]


def apply_event(conversation: Conversation, event: Any) -> Conversation:
    """Return the conversation with ``event`` folded in; the input tuple is left as it was.

    Args:
        conversation: the messages so far.
        event: anything with ``type`` and ``payload`` (see :class:`eventlog.EventLike`).
    """
    payload = event.payload
    if event.type == "user_message":
        return (*conversation, {"role": "user", "content": payload["content"]})
    if event.type == "assistant_message":
        return (*conversation, {"role": "assistant", "content": payload["content"]})
    if event.type == "tool_result":
        result = {"role": "tool", "tool_call_id": payload["call_id"], "content": payload["content"]}
        return (*conversation, result)
    if event.type != "tool_call":
        raise ValueError(f"cannot replay an event of unknown type {event.type!r}")
    call = {
        "id": payload["call_id"],
        "type": "function",
        "function": {"name": payload["name"], "arguments": payload["arguments"]},
    }
    if conversation and "tool_calls" in conversation[-1]:
        # The previous event was a tool_call too: join its message instead of starting one.
        last = conversation[-1]
        return (*conversation[:-1], {**last, "tool_calls": [*last["tool_calls"], call]})
    return (*conversation, {"role": "assistant", "content": None, "tool_calls": [call]})


def replay_events(events: Iterable[Any]) -> list[Message]:
    """Fold a session's events, oldest first, into a fresh list of chat messages."""
    empty: Conversation = ()
    conversation: Conversation = reduce(apply_event, events, empty)
    return list(conversation)
