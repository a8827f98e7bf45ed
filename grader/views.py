"""Plain views of what learner code returns, so comparisons ignore harmless style choices.

The contract fixes behaviour, not types: a payload may be a dict, a read-only mapping or JSON
text parsed on access; a returned sequence may be a tuple or a list; an event may be a
dataclass, a NamedTuple or a class of the learner's own. Views turn all of these into dicts,
lists and scalars before comparing. Strings are never touched, and a mapping is only ever
compared with a mapping.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from grader import messages
from grader.rendering import listing, literal


class Unreadable(Exception):
    """Learner data could not be read the way the contract promises (e.g. no ``event_id``)."""

    def __init__(self, what: str, error: Exception | None = None) -> None:
        super().__init__(what)
        self.what = what
        self.error = error


_SCALARS = frozenset({str, int, float, bool, bytes, type(None)})


def plain(value: Any) -> Any:
    """Deep-convert mappings to dicts and lists/tuples to lists; leave every other value alone.

    Tuples become lists because a deep-frozen payload (lists stored as tuples so nobody can
    change them) is a sensible way to keep the log read-only, and JSON has no tuples anyway.
    """
    kind = type(value)
    # Fast paths first: this runs on every value of every read of every example.
    if kind in _SCALARS:
        return value
    if kind is dict:
        return {key: plain(item) for key, item in value.items()}
    if kind is list or kind is tuple:
        return [plain(item) for item in value]
    if isinstance(value, str | bytes):
        return value
    if isinstance(value, Mapping) or _is_mapping_like(value):
        return {key: plain(value[key]) for key in list(value.keys())}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


def _is_mapping_like(value: Any) -> bool:
    return hasattr(value, "keys") and hasattr(value, "__getitem__") and not isinstance(value, type)


def plain_sequence(value: Any) -> list[Any]:
    """``list(value)``, or :class:`Unreadable` when the value cannot be iterated."""
    if isinstance(value, str | bytes | Mapping):
        raise Unreadable(messages.NEEDS_SEQUENCE)
    try:
        return list(value)
    except Exception as error:
        raise Unreadable(messages.NEEDS_SEQUENCE, error) from None


@dataclass(frozen=True)
class EventView:
    """The four attributes of an event, read once and turned into plain values."""

    event_id: Any
    session_id: Any
    type: Any
    payload: Any

    def __str__(self) -> str:
        fields = (self.event_id, self.session_id, self.type, self.payload)
        names = ("event_id", "session_id", "type", "payload")
        return (
            "Event("
            + ", ".join(f"{n}={literal(v)}" for n, v in zip(names, fields, strict=True))
            + ")"
        )


def event_view(event: Any) -> EventView:
    """Read ``event_id``, ``session_id``, ``type`` and ``payload`` by attribute."""
    values = []
    for name in ("event_id", "session_id", "type", "payload"):
        try:
            values.append(getattr(event, name))
        except Exception as error:
            raise Unreadable(messages.NEEDS_ATTRIBUTE.format(name=name), error) from None
    try:
        payload = plain(values[3])
    except Exception as error:
        raise Unreadable(messages.NEEDS_MAPPING, error) from None
    if not isinstance(payload, dict):
        raise Unreadable(messages.NEEDS_MAPPING)
    return EventView(values[0], values[1], values[2], payload)


def show_views(views: list[EventView]) -> str:
    """``[Event(...), Event(...)]`` for a list of views."""
    return listing([str(view) for view in views])
