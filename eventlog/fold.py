"""Replay as a fold: one function applies one event to the conversation so far.

The output is the message list of the OpenAI Chat Completions API, so a replayed session
can be sent straight back to a model. Tool calls made together (consecutive ``tool_call``
events) become one assistant message, because the API wants parallel calls in a single
message directly followed by their results.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Final, overload

from eventlog.events import CORRECTION_TYPES, KEPT_ITEM

Message = dict[str, Any]

#: The conversation so far, newest message first, as a chain of ``(message, earlier)`` pairs.
#: Adding or replacing the newest message builds one new pair and shares the rest, so every
#: state stays an immutable value and folding n events costs O(n), where copying a tuple of
#: all messages at each step would cost O(n²).
Conversation = tuple[Message, "Conversation"] | None

EMPTY_CONVERSATION: Final[Conversation] = None


def apply_event(conversation: Conversation, event: Any) -> Conversation:
    """Return the conversation with ``event`` folded in; the input is left as it was.

    Args:
        conversation: the messages so far (start from :data:`EMPTY_CONVERSATION`).
        event: anything with ``type`` and ``payload`` (see :class:`eventlog.EventLike`).

    An ``agent_item`` leaves the chat as it was: it is an item of some framework's history that
    Chat Completions has no message for. A correction cannot be folded here, since taking an
    item out needs to know the conversation before it: :func:`eventlog.apply_to_history` does.

    Raises:
        ValueError: the event's type is none of the four, nor ``agent_item``.
    """
    kind, payload = event.type, event.payload
    if kind == "user_message":
        return {"role": "user", "content": payload["content"]}, conversation
    if kind == "assistant_message":
        return {"role": "assistant", "content": payload["content"]}, conversation
    if kind == "tool_result":
        result = {"role": "tool", "tool_call_id": payload["call_id"], "content": payload["content"]}
        return result, conversation
    if kind == KEPT_ITEM:
        return conversation
    if kind in CORRECTION_TYPES:
        raise ValueError(f"a {kind} event is folded by apply_to_history, not apply_event")
    if kind != "tool_call":
        raise ValueError(f"cannot replay an event of unknown type {kind!r}")
    call = {
        "id": payload["call_id"],
        "type": "function",
        "function": {"name": payload["name"], "arguments": payload["arguments"]},
    }
    if conversation is not None and "tool_calls" in conversation[0]:
        # The previous event was a tool_call too: join its message instead of starting one.
        last, earlier = conversation
        return {**last, "tool_calls": [*last["tool_calls"], call]}, earlier
    return {"role": "assistant", "content": None, "tool_calls": [call]}, conversation


def messages_of(conversation: Conversation) -> list[Message]:
    """Return the conversation's messages as a fresh list, oldest first."""
    # A plain walk of the chain, then one reversal in place: a replay of 10,000 messages
    # spends a quarter of the time the view's generators take (list(ConversationView(...))).
    messages = []
    link = conversation
    while link is not None:
        message, link = link
        messages.append(message)
    messages.reverse()
    return messages


class ConversationView(Sequence[Message]):
    """A conversation read as a list of messages, oldest first, without copying it.

    What a reader usually wants is at the end (the last message, the last user message), and
    the chain starts there: ``view[-1]``, ``reversed(view)`` and ``bool(view)`` cost as much
    as the messages they reach, not the whole conversation. Iterating it from the start,
    ``len`` and a non-negative index walk it all once.
    """

    __slots__ = ("_newest",)

    def __init__(self, conversation: Conversation) -> None:
        self._newest = conversation

    def __reversed__(self) -> Iterator[Message]:
        link = self._newest
        while link is not None:
            message, link = link
            yield message

    def __iter__(self) -> Iterator[Message]:
        return reversed(list(reversed(self)))

    def __len__(self) -> int:
        return sum(1 for _ in reversed(self))

    def __bool__(self) -> bool:
        return self._newest is not None

    @overload
    def __getitem__(self, index: int) -> Message: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Message]: ...

    def __getitem__(self, index: int | slice) -> Message | Sequence[Message]:
        if isinstance(index, slice):
            return list(self)[index]
        if index >= 0:
            return list(self)[index]
        for steps, message in enumerate(reversed(self), start=1):
            if steps == -index:
                return message
        raise IndexError("conversation index out of range")
