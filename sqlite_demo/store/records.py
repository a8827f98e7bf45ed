"""What a store hands out besides events: sessions and projection rows, and two helpers.

Both backends build these same values, so the service, the agent and the tests never ask
which database answered.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Final

#: The ``messages.role`` of each event type that the messages projection keeps.
MESSAGE_ROLES: Final = {"user_message": "user", "assistant_message": "assistant"}


@dataclass(frozen=True, slots=True)
class Session:
    """A conversation: its id, a human title, and when it was created (unix ms)."""

    id: str
    title: str
    created_at: int


@dataclass(frozen=True, slots=True)
class MessageRow:
    """A row of the ``messages`` projection: a user or assistant message, by its event id."""

    event_id: int
    role: str
    content: str


@dataclass(frozen=True, slots=True)
class ToolCallRow:
    """A row of the ``tool_calls`` projection; ``result`` is None until the tool answered."""

    event_id: int
    call_id: str
    name: str
    arguments: str
    result: str | None


def now_ms() -> int:
    """Return the current time as unix milliseconds, the unit of every ``created_at``."""
    return time.time_ns() // 1_000_000


def new_session_id() -> str:
    """Return ``"sess_"`` + 128 random bits as 32 hex digits: unguessable, and unique
    without asking the database."""
    return "sess_" + secrets.token_hex(16)
