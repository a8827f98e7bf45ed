"""The conversation every system stores: N chat messages, the same for all of them.

Messages alternate user and assistant, as a chat does, and carry about 120 characters of
text: long enough that encoding and I/O cost something, short enough that the store's own
overhead, not byte shovelling, decides the result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

_SENTENCES: Final = (
    "How many orders did I place last month, and which of them have shipped already?",
    "You placed 7 orders last month; 5 have shipped and 2 are waiting for stock.",
    "Please summarise the returns policy in two sentences for a new customer.",
    "Items can be returned within 30 days in their original packaging; refunds take a week.",
)


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One message of the workload: who said it and what they said."""

    role: str  # "user" or "assistant"
    content: str

    @property
    def event_type(self) -> str:
        """The event type our store records this message as."""
        return f"{self.role}_message"

    def as_openai_message(self) -> dict[str, str]:
        """Return the message as a Chat Completions dict: ``{"role": ..., "content": ...}``."""
        return {"role": self.role, "content": self.content}


def chat_messages(count: int) -> list[ChatMessage]:
    """Return ``count`` messages, user first, then alternating, each numbered so none repeat."""
    return [
        ChatMessage(
            role="user" if number % 2 == 0 else "assistant",
            content=f"[{number}] {_SENTENCES[number % len(_SENTENCES)]}",
        )
        for number in range(count)
    ]


def tail_length(count: int) -> int:
    """How many trailing messages a tail read asks for: a resume after a short disconnect."""
    return max(1, min(100, count // 10))
