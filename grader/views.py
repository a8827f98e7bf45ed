"""Plain views of what learner code returned, built from the child's observations.

The child reads learner values into JSON (see :mod:`grader.callserver.looking`): mappings
become dicts, sequences lists, events their four attributes. Here those observations become
values the properties compare: :class:`EventView` for an event, plain data for the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader import messages
from grader.callserver.codec import decode
from grader.callserver.text import EVENT_FIELDS, listing, literal


class Malformed(Exception):
    """The child answered something that is not the protocol (its code was tampered with)."""


@dataclass(frozen=True)
class EventView:
    """The four attributes of an event, read once and turned into plain values."""

    event_id: Any
    session_id: Any
    type: Any
    payload: Any

    def __str__(self) -> str:
        shown = ", ".join(f"{name}={literal(getattr(self, name))}" for name in EVENT_FIELDS)
        return f"Event({shown})"


def event_view(observed: Any) -> EventView:
    """The view of one event the child observed as ``[event_id, session_id, type, payload]``."""
    fields = decode(observed)
    if not isinstance(fields, list) or len(fields) != 4 or not isinstance(fields[3], dict):
        raise Malformed()
    return EventView(*fields)


def value_of(answer: dict[str, Any], kind: str) -> Any:
    """The value in an answer observed as ``kind`` (``event``, ``events``, ``list``).

    Raises:
        Malformed: the answer does not have the shape the call server gives.
    """
    try:
        if kind == "event":
            return event_view(answer["value"])
        value = answer["value"]
        if kind in ("events", "list") and not isinstance(value, list):
            raise Malformed()
        if kind == "events":
            return [event_view(item) for item in value]
        return decode(value)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise Malformed() from None


def unreadable(answer: dict[str, Any]) -> str:
    """The sentence for an answer saying a value could not be read as the contract promises."""
    what = str(answer.get("unreadable"))
    if what.startswith("attribute:"):
        promise = messages.NEEDS_ATTRIBUTE.format(name=what.split(":", 1)[1])
    elif what == "mapping":
        promise = messages.NEEDS_MAPPING
    else:
        promise = messages.NEEDS_SEQUENCE
    return messages.UNREADABLE.format(what=promise, value=answer.get("shown", ""))


def show_views(views: list[EventView]) -> list[str]:
    """Each view as ``Event(...)``, ready for :func:`grader.callserver.text.listing`."""
    return [str(view) for view in views]


def shown(value: Any) -> str:
    """A plain value, or a list of them, as text (events by their fields)."""
    if isinstance(value, list):
        return listing([str(v) if isinstance(v, EventView) else literal(v) for v in value])
    return str(value) if isinstance(value, EventView) else literal(value)
