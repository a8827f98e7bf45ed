"""The event: one immutable fact in the log, and the read-only payload it carries."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol

#: The four kinds of fact a conversation is made of, in the order a turn usually produces them.
EVENT_TYPES: Final = ("user_message", "assistant_message", "tool_call", "tool_result")


class ReadOnlyPayload(Mapping[str, Any]):
    """A mapping nobody can change: not the caller who gave it, not the reader who gets it.

    The constructor takes a deep copy, so changing the caller's dict later changes nothing.
    Every read hands out a deep copy of the value, so a reader who mutates a nested list
    mutates their own copy, never the log. It compares equal to a dict with the same items.
    """

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data: dict[str, Any] = copy.deepcopy(dict(data))

    @classmethod
    def wrapping_fresh(cls, data: dict[str, Any]) -> ReadOnlyPayload:
        """Wrap a dict that nobody else holds (one just decoded from JSON) without copying it."""
        payload = cls.__new__(cls)
        payload._data = data
        return payload

    def __getitem__(self, key: str) -> Any:
        return copy.deepcopy(self._data[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return repr(self._data)


@dataclass(frozen=True, slots=True)
class Event:
    """One appended fact: which session, what kind, the details, and its place in the log.

    ``event_id`` is the position in one global sequence shared by all sessions: 1, 2, 3, ...
    """

    event_id: int
    session_id: str
    type: str
    payload: ReadOnlyPayload


class EventLike(Protocol):
    """What the replay fold needs from an event, whichever store produced it."""

    @property
    def type(self) -> str: ...

    @property
    def payload(self) -> Mapping[str, Any]: ...
