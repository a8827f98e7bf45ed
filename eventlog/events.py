"""The event: one immutable fact in the log, and the read-only JSON payload it carries."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol

#: The four kinds of fact a conversation is made of, in the order a turn usually produces them:
#: the chapter's vocabulary, and the exercises'.
EVENT_TYPES: Final = ("user_message", "assistant_message", "tool_call", "tool_result")

#: An item of an agent framework's history that is none of the four (a reasoning step, a
#: hosted tool's call, a system message, ...), kept whole in ``payload["item"]``. It puts one
#: item in the session's history and nothing in the chat that replay builds.
KEPT_ITEM: Final = "agent_item"

#: The events that each put one item in a session's history, and can be taken out again.
ITEM_TYPES: Final = (*EVENT_TYPES, KEPT_ITEM)

#: Corrections: the chapter's pitfall 2, "correct by appending". Nothing is ever deleted from
#: the log; these events say what no longer counts, with a pointer to it, and every reader
#: (replay, the projections, the call-id rule, the live page) leaves out what they supersede.
#:
#: * ``item_removed``, ``{"supersedes": N}``: event N, the session's newest item still in
#:   force, is taken out (what an agent framework's ``pop_item`` does);
#: * ``session_cleared``, ``{"supersedes_through": N}``: every item up to event N, the
#:   session's last event, is taken out (``clear_session``).
CORRECTION_TYPES: Final = ("item_removed", "session_cleared")

#: Every event type the store keeps: a superset of the exercises' four.
STORE_EVENT_TYPES: Final = (*ITEM_TYPES, *CORRECTION_TYPES)

#: The JSON values that hold nothing else: immutable, so a payload can hand them out as they are.
JSON_SCALARS: Final = (str, int, float, bool, type(None))


class ReadOnlyPayload(Mapping[str, Any]):
    """A JSON object nobody can change: not the writer who gave it, not a reader who gets it.

    It holds the payload as JSON text, the form the SQLite store keeps it in, and decodes that
    text once, on the first read. Text is immutable, so nothing the writer does to their own
    dict later reaches it. A read hands out a copy of a nested list or dict, so a reader who
    mutates it mutates their own copy, never the log. It compares equal to a dict with the
    same items.

    Args:
        json_text: a JSON object, as :func:`eventlog.validate_append` or the database wrote it.
        decoded: what decoding ``json_text`` gives, when the caller already has it in a dict
            that nobody else holds; it saves the decode.
    """

    __slots__ = ("_decoded", "json_text")

    def __init__(self, json_text: str, decoded: dict[str, Any] | None = None) -> None:
        self.json_text = json_text
        self._decoded = decoded

    def _items(self) -> dict[str, Any]:
        # Decoded lazily: a writer that never reads the payload back never pays for a decode.
        if self._decoded is None:
            self._decoded = json.loads(self.json_text)
        return self._decoded

    def __getitem__(self, key: str) -> Any:
        value = self._items()[key]
        if isinstance(value, JSON_SCALARS):
            return value
        return copy.deepcopy(value)

    def __iter__(self) -> Iterator[str]:
        return iter(self._items())

    def __len__(self) -> int:
        return len(self._items())

    def __repr__(self) -> str:
        return repr(self._items())


@dataclass(frozen=True, slots=True)
class Event:
    """One appended fact: which session, what kind, the details, and its place in the log.

    ``event_id`` is the position in one global sequence shared by all sessions: 1, 2, 3, ...
    """

    event_id: int
    session_id: str
    type: str
    payload: ReadOnlyPayload


@dataclass(frozen=True, slots=True)
class StoredEvent(Event):
    """An event as the SQLite store hands it out: an :class:`Event` plus when it was stored.

    ``created_at`` is unix time in milliseconds, taken when the event was appended.
    """

    created_at: int


class EventLike(Protocol):
    """What the replay fold needs from an event, whichever store produced it."""

    @property
    def type(self) -> str: ...

    @property
    def payload(self) -> Mapping[str, Any]: ...
