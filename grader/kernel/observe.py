"""Reading learner values into plain data, ignoring harmless style choices.

The contract fixes behaviour, not types: a payload may be a dict, a read-only mapping or JSON
text parsed on access; a returned sequence may be a tuple, a list or a generator; an event
may be a dataclass, a NamedTuple or a class of the learner's own. An observation turns all of
these into exact ``dict``, ``list``, ``str``, ``int``, ``float``, ``bool`` and ``None``, which
the C encoder writes without running any other code; the trusted side compares them type
for type. Tuples become lists (a frozen payload keeps lists as tuples, and JSON has no
tuples). What JSON cannot say is a one-key object whose key starts with ``$``:

``{"$float": "nan"}``, ``{"$bytes": "6869"}``, ``{"$dict": [[key, value], ...]}`` (keys that
are not all strings, or that start with ``$``), ``{"$opaque": [type name, text]}``,
``{"$deep": true}`` (nested past :data:`MAX_DEPTH`), ``{"$str": "eda0bd"}`` (text holding a
surrogate, as UTF-8 with surrogates passed: JSON would join ``"\\ud83d\\ude42"``, two lone
surrogates, into the one character ``"🙂"``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.kernel.capture import (
        _bytes_hex,
        _dict_items,
        _float_exact,
        _int_exact,
        _list_append,
        _MappingProxy,
        _str_encode,
        _str_exact,
        _str_isascii,
        _str_join,
        _str_startswith,
        _UnicodeEncodeError,
    )
    from grader.kernel.reach import (
        EVENT_FIELDS,
        MAX_DEPTH,
        Reach,
        TooLarge,
        Unreadable,
        reach_fields,
        reach_items,
        reach_plain,
    )

#: How many items one observation may hold before it is refused as too large.
MAX_NODES = 2_000_000
_INF = float("inf")


class _Counter:
    def __init__(self) -> None:
        self.nodes = 0


def observe(value: Any, counter: _Counter, depth: int = 0) -> Any:
    """``value`` as plain data (see the module docstring)."""
    # The commonest kinds first, each by its exact type: an observation visits every node of
    # every answer, so this function is most of the kernel's time.
    counter.nodes += 1
    if counter.nodes > MAX_NODES:
        raise TooLarge()
    kind = type(value)
    if kind is str:
        return value if _str_isascii(value) else _exact_text(value)
    if kind is int or kind is bool or value is None:
        return value
    if kind is float:
        return value if -_INF < value < _INF else {"$float": repr(value)}
    if depth > MAX_DEPTH:
        return {"$deep": True}
    if kind is dict:
        # Its own items, taken at once: no learner code runs to list them.
        items = list(_dict_items(value))
        return _pairs([(observe(key, counter, depth + 1), observe(item, counter, depth + 1))
                       for key, item in items])  # fmt: skip
    if kind is list or kind is tuple:
        return [observe(item, counter, depth + 1) for item in value]
    if kind is _MappingProxy:  # how a frozen payload is usually kept
        return _mapping(value, counter, depth)
    if isinstance(value, str):
        return _exact_text(_str_exact(value))
    if isinstance(value, int):
        return value if isinstance(value, bool) else _int_exact(value)
    if isinstance(value, float):
        return observe(_float_exact(value), counter, depth)
    if isinstance(value, bytes | bytearray):
        return {"$bytes": _bytes_hex(bytes(value))}
    if isinstance(value, list | tuple):
        return [observe(item, counter, depth + 1) for item in value]
    if value is Ellipsis:  # past the depth :mod:`.reach` follows
        return {"$deep": True}
    if is_mapping(value):
        return _mapping(value, counter, depth)
    return {"$opaque": [kind.__name__, show(value)]}


def _exact_text(value: str) -> Any:
    """Text as it is, unless it holds a surrogate (see the module docstring)."""
    try:
        _str_encode(value, "utf-8")
    except _UnicodeEncodeError:
        return {"$str": _bytes_hex(_str_encode(value, "utf-8", "surrogatepass"))}
    return value


def is_mapping(value: Any) -> bool:
    """Has ``keys`` and ``__getitem__`` on its class, and is not a sequence or text."""
    kind = type(value)
    if kind is dict:
        return True
    if isinstance(value, str | bytes | bytearray | list | tuple | type):
        return False
    return hasattr(kind, "keys") and hasattr(kind, "__getitem__")


def _mapping(value: Any, counter: _Counter, depth: int) -> Any:
    return _pairs([
        (observe(key, counter, depth + 1), observe(value[key], counter, depth + 1))
        for key in list(value.keys())
    ])  # fmt: skip


def _pairs(pairs: list[tuple[Any, Any]]) -> Any:
    """Observed pairs as a JSON object, unless a key is not text or looks like a tag."""
    if all(type(key) is str and not _str_startswith(key, "$") for key, _ in pairs):
        return dict(pairs)
    return {"$dict": [[key, item] for key, item in pairs]}


def viewed(value: Any, kind: str) -> Reach:
    """Observe ``value`` as ``kind``: ``event``, ``events``, ``list`` or ``plain`` (every
    learner value in it read through the trampoline by :mod:`.reach`, then written as
    plain data here).

    Raises:
        Unreadable: it is not what ``kind`` promises (for ``events``, the whole sequence is
            named, since that is what the learner returned).
        TooLarge: it holds more than :data:`MAX_NODES` items.
    """
    counter = _Counter()
    if kind == "event":
        return [observe(field, counter) for field in (yield from _fields_plain(value))]
    if kind == "events":
        events: list[Any] = []
        for item in (yield from reach_items(value)):
            try:
                fields = yield from _fields_plain(item)
            except Unreadable as problem:
                raise Unreadable(problem.what, value) from None
            _list_append(events, [observe(field, counter) for field in fields])
        return events
    if kind == "list":
        items = yield from reach_plain((yield from reach_items(value)))
        return [observe(item, counter) for item in items]
    return observe((yield from reach_plain(value)), counter)


def _fields_plain(event: Any) -> Reach:
    fields = yield from reach_fields(event)
    return (yield from reach_plain(fields))


# --- showing a value as text, for a learner to read -------------------------------------
_MAX_SHOWN = 400


def show(value: Any) -> str:
    """A learner value as text: events by their fields, the rest like ``repr``, cut short.

    Runs learner code (``repr``, attribute reads), so it never lets an exception out.
    """
    parts: list[str] = []
    try:
        _show(value, parts, 0)
    except _Enough:
        pass
    except Exception as error:
        parts.append(f"<{type(value).__name__} that raised {type(error).__name__} when shown>")
    text = _str_join("", parts)
    return text if len(text) <= _MAX_SHOWN else text[:_MAX_SHOWN] + " ..."


class _Enough(Exception):
    pass


def _put(parts: list[str], text: str) -> None:
    _list_append(parts, text)
    if sum(len(part) for part in parts) > 2 * _MAX_SHOWN:
        raise _Enough()


def _show(value: Any, parts: list[str], depth: int) -> None:
    kind = type(value)
    if kind in (str, int, float, bool, bytes) or value is None:
        _put(parts, repr(value) if kind is not str else repr(value[: 4 * _MAX_SHOWN]))
        return
    if depth > 6:
        _put(parts, "...")
        return
    if _looks_like_event(value):
        _put(parts, "Event(")
        for number, name in enumerate(EVENT_FIELDS):
            _put(parts, (", " if number else "") + name + "=")
            _show(getattr(value, name), parts, depth + 1)
        _put(parts, ")")
    elif isinstance(value, list | tuple) and not hasattr(value, "_fields"):
        opening, closing = ("[", "]") if isinstance(value, list) else ("(", ")")
        _put(parts, opening)
        for number, item in enumerate(value):
            _put(parts, ", " if number else "")
            _show(item, parts, depth + 1)
        _put(parts, "," + closing if closing == ")" and len(value) == 1 else closing)
    elif is_mapping(value) and kind is dict:
        _put(parts, "{")
        for number, key in enumerate(list(value.keys())):
            _put(parts, ", " if number else "")
            _show(key, parts, depth + 1)
            _put(parts, ": ")
            _show(value[key], parts, depth + 1)
        _put(parts, "}")
    else:
        _put(parts, _without_addresses(repr(value)))


def _looks_like_event(value: Any) -> bool:
    try:
        return all(hasattr(value, name) for name in EVENT_FIELDS)
    except Exception:
        return False


def _without_addresses(text: str) -> str:
    """``<Foo object at 0x7f3a...>`` without the address, which changes on every run."""
    out: list[str] = []
    index = 0
    while (found := text.find("0x", index)) >= 0:
        end = found + 2
        while end < len(text) and text[end] in "0123456789abcdefABCDEF":
            end += 1
        if end - found - 2 >= 6:
            start = found - 4 if text[max(0, found - 4) : found] == " at " else found
            _list_append(out, text[index:start])
        else:
            _list_append(out, text[index:end])
        index = end
    _list_append(out, text[index:])
    return _str_join("", out)
