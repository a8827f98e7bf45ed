"""Reading learner values into plain JSON observations, ignoring harmless style choices.

The contract fixes behaviour, not types: a payload may be a dict, a read-only mapping or JSON
text parsed on access; a returned sequence may be a tuple, a list or a generator; an event may
be a dataclass, a NamedTuple or a class of the learner's own. Observations turn all of these
into dicts, lists and scalars. Strings are never touched, and a mapping is only ever turned
into a dict. What cannot be read the way the contract promises raises :class:`Unreadable`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .codec import MAX_DEPTH, encode_float, encode_pairs
from .text import EVENT_FIELDS, sanitize, show


class Unreadable(Exception):
    """A learner value could not be read as the contract promises.

    ``what`` names the promise: ``attribute:NAME``, ``mapping`` or ``sequence``; the trusted
    side turns it into a sentence in the learner's language.
    """

    def __init__(self, what: str, value: Any) -> None:
        super().__init__(what)
        self.what = what
        self.value = value

    def answer(self) -> dict[str, str]:
        return {"unreadable": self.what, "shown": show(self.value)}


def observe(value: Any, depth: int = 0) -> Any:
    """Deep-convert a learner value to JSON-ready data: mappings to dicts, sequences to lists.

    Tuples become lists because a deep-frozen payload (lists stored as tuples so nobody can
    change them) is a sensible way to keep the log read-only, and JSON has no tuples anyway.
    Any other object becomes an ``$opaque`` tag with its type name and repr.
    """
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return value
    if depth > MAX_DEPTH:
        return {"$opaque": ["...", "..."]}
    if isinstance(value, int):
        return int(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, float):
        return encode_float(float(value))
    if isinstance(value, bytes):
        return {"$bytes": bytes(value).hex()}
    if kind is dict or isinstance(value, Mapping) or is_mapping_like(value):
        # keys(), not iteration: a mapping-like class of a learner's may iterate differently.
        keys = value.keys()
        pairs = [(observe(key, depth + 1), observe(value[key], depth + 1)) for key in keys]
        return encode_pairs(pairs)
    if isinstance(value, list | tuple):
        return [observe(item, depth + 1) for item in value]
    return {"$opaque": [kind.__name__, sanitize(_repr(value))]}


def _repr(value: Any) -> str:
    try:
        return repr(value)
    except Exception as error:
        return f"<{type(value).__name__} whose repr raised {type(error).__name__}>"


def is_mapping_like(value: Any) -> bool:
    """Has ``keys`` and ``__getitem__`` (and is not a class): read like a mapping."""
    return hasattr(value, "keys") and hasattr(value, "__getitem__") and not isinstance(value, type)


def sequence(value: Any) -> list[Any]:
    """``list(value)``, or :class:`Unreadable` when the value is not a sequence of items."""
    if isinstance(value, str | bytes | Mapping):
        raise Unreadable("sequence", value)
    try:
        return list(value)
    except Exception:
        raise Unreadable("sequence", value) from None


def event_view(event: Any) -> list[Any]:
    """``[event_id, session_id, type, payload]``, each read once by attribute and observed."""
    values = []
    for name in EVENT_FIELDS:
        try:
            values.append(getattr(event, name))
        except Exception:
            raise Unreadable(f"attribute:{name}", event) from None
    payload = values[3]
    if not (isinstance(payload, Mapping) or is_mapping_like(payload)):
        raise Unreadable("mapping", event)
    try:
        return [observe(item) for item in values]
    except Exception:
        raise Unreadable("mapping", event) from None


def view(value: Any, kind: str) -> Any:
    """Observe ``value`` as ``kind``: ``event``, ``events``, ``list`` or ``plain``.

    Raises:
        Unreadable: the value is not what ``kind`` promises (for ``events``, the whole
            sequence is shown).
    """
    if kind == "event":
        return event_view(value)
    if kind == "events":
        items = sequence(value)
        try:
            return [event_view(item) for item in items]
        except Unreadable as problem:
            raise Unreadable(problem.what, value) from None
    if kind == "list":
        items = sequence(value)
        try:
            return [observe(item) for item in items]
        except Exception:
            raise Unreadable("sequence", value) from None
    return observe(value)
