"""Reaching into learner values, one primitive at a time, always from the trampoline.

Learner code runs not only when a graded function is called, but whenever the kernel
touches a learner value: an event's attribute may be a property, a payload a ``Mapping`` of
the learner's own, a returned sequence a generator. So the kernel never touches one from its
own functions. It yields the touch as a call of a C function (``getattr``, ``dict``,
``list``, ``operator.setitem``...), which :func:`.plans._drive` makes through
:func:`.calls.enter` like any other call: whatever learner code runs, it runs with the same
frames above it, at the same depth, whether the kernel is observing an answer, following a
path to a part of it, or changing it to check that nothing reaches the log. The only Python
frame between the trampoline and learner code is learner code's own.

The generators here return plain data built from what those calls gave: ``str``, ``int``,
``float``, ``bool``, ``None``, lists and dicts, with what JSON cannot hold kept as it is (the
digest calls it unobservable, the full observation tags it).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.kernel.capture import (
        _TRUSTED_READ,
        _attrgetter,
        _float_exact,
        _gc_disable,
        _gc_enable,
        _gc_isenabled,
        _getitem,
        _int_exact,
        _islice,
        _list,
        _list_append,
        _map,
        _MappingProxy,
        _partial,
        _referents,
        _str_exact,
        _token_nonce,
        _zip,
    )

#: A generator that yields calls and returns plain data.
Reach = Generator[tuple[Any, ...], tuple[int, Any], Any]
#: How deep a learner value is followed: far past any payload the grader builds.
MAX_DEPTH = 200
#: How many learner values one observation may resolve before it is too large.
MAX_RESOLVED = 100_000
#: The fields of an event, in the order every answer lists them.
EVENT_FIELDS = ("event_id", "session_id", "type", "payload")
#: Reads the four fields in one call, in C; made once (a getter holds no state).
READ_FIELDS = _attrgetter(*EVENT_FIELDS)


class Unreadable(Exception):
    """A learner value is not what the contract promises: ``what`` names the promise
    (``attribute:NAME``, ``mapping``, ``sequence``), ``value`` is the value."""

    def __init__(self, what: str, value: Any) -> None:
        self.what = what
        self.value = value


class TooLarge(Exception):
    """An observation would hold more than its limit: :data:`MAX_RESOLVED` learner values
    reached, or ``observe``'s ``MAX_NODES`` items."""


class Raised(Exception):
    """Learner code raised while the kernel reached into its value."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


def reach_call(function: Any, *args: Any) -> Reach:
    """``function(*args)`` through the trampoline; its value, or :class:`Raised`."""
    outcome = yield function, args, {}
    if outcome[0] != 0:
        raise Raised(outcome[1])
    return outcome[1]


def reach_follow(root: Any, path: list[Any]) -> Reach:
    """The part of ``root`` that ``path`` leads to (``["a", name]``: an attribute,
    ``["i", key]``: an item), each step a call of its own."""
    for kind, key in path:
        root = yield from reach_call(getattr if kind == "a" else _getitem, root, key)
    return root


def reach_fields(event: Any) -> Reach:
    """``[event_id, session_id, type, payload]``: one call reads all four.

    Raises:
        Unreadable: an attribute is missing, or the payload is not a mapping.
    """
    try:
        fields = list((yield from reach_call(READ_FIELDS, event)))
    except Raised as raised:
        if not isinstance(raised.error, AttributeError):
            raise
        for name in EVENT_FIELDS:  # which one: each asked alone
            try:
                yield from reach_call(getattr, event, name)
            except Raised:
                raise Unreadable("attribute:" + name, event) from None
        raise
    if not (yield from reach_is_mapping(fields[3])):
        raise Unreadable("mapping", event)
    return fields


def reach_all_fields(events: list[Any]) -> Reach:
    """Each event's ``(event_id, session_id, type, payload)``, as :func:`reach_fields` reads
    one, in one call for them all (the attribute reads run in C, one after another, as one
    loop would make them).

    Raises:
        Unreadable: an event lacks an attribute, or its payload is not a mapping.
    """
    try:
        # The map is made here (iterating a list runs nothing of the learner's); ``list``
        # runs it through the trampoline, so no frame of the kernel's sits between.
        read = yield from reach_call(_list, _map(READ_FIELDS, events))
    except Raised as raised:
        if not isinstance(raised.error, AttributeError):
            raise
        read = None  # which event, and which attribute: asked one by one
    if read is None:
        for event in events:
            yield from reach_fields(event)
        raise Unreadable("sequence", events)  # pragma: no cover - an attribute came and went
    for event, fields in zip(events, read, strict=True):
        if not (yield from reach_is_mapping(fields[3])):
            raise Unreadable("mapping", event)
    return read


def reach_is_mapping(value: Any) -> Reach:
    """Has ``keys`` and ``__getitem__`` on its class, and is not a sequence or text."""
    kind = type(value)
    if kind is dict or kind is _MappingProxy:
        return True
    if isinstance(value, str | bytes | bytearray | list | tuple | type):
        return False
    found = yield from reach_call(_has_mapping_methods, kind)
    return bool(found)


def _has_mapping_methods(kind: type) -> bool:
    return hasattr(kind, "keys") and hasattr(kind, "__getitem__")


def reach_items(value: Any) -> Reach:
    """The items of a returned sequence; text and mappings are not sequences of items.

    Raises:
        Unreadable: it is not a sequence.
    """
    if type(value) is list or type(value) is tuple:
        return list(value)
    if isinstance(value, str | bytes | bytearray) or (yield from reach_is_mapping(value)):
        raise Unreadable("sequence", value)
    try:
        return (yield from reach_call(list, value))
    except Raised as raised:
        if isinstance(raised.error, TypeError):
            raise Unreadable("sequence", value) from None
        raise


def reach_mapping(value: Any) -> Reach:
    """A mapping's items as a dict of its own, read through its ``keys`` and ``[]`` as the
    contract reads a payload: at most :data:`MAX_RESOLVED` keys, so that a ``keys()`` that
    never ends is too large to read at once, the same every time (read whole, it grew until
    the memory limit or the CPU limit stopped it, whichever came first on that machine).

    Raises:
        TooLarge: it has more keys than that.
    """
    if type(value) is dict:
        return value
    view = value
    if type(value) is not _MappingProxy:
        try:
            view = _MappingProxy(value)
        except TypeError:
            raise Unreadable("mapping", value) from None
    keys = yield from reach_call(_MappingProxy.keys, view)
    first = yield from reach_call(_islice, keys, MAX_RESOLVED + 1)
    listed = yield from reach_call(_list, first)
    if len(listed) > MAX_RESOLVED:
        raise TooLarge()
    values = _map(_partial(_getitem, view), listed)  # made lazily: read inside dict() below
    return (yield from reach_call(dict, _zip(listed, values)))


def reach_plain(value: Any, budget: list[int] | None = None, depth: int = 0) -> Reach:
    """``value`` as plain data: every learner value inside it resolved by calls (a mapping
    to a dict, a str, int or float subclass to its exact value). What is not data (bytes, a
    set, an object) stays as it is; nesting past :data:`MAX_DEPTH` becomes ``...``.

    Raises:
        TooLarge: it resolves more than :data:`MAX_RESOLVED` learner values.
    """
    budget = [MAX_RESOLVED] if budget is None else budget
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return value
    if depth > MAX_DEPTH:
        return Ellipsis
    budget[0] -= 1
    if budget[0] < 0:
        raise TooLarge()
    if kind is list or kind is tuple:
        return (yield from _plain_items(value, budget, depth))
    if kind is dict or kind is _MappingProxy or (yield from reach_is_mapping(value)):
        items = yield from reach_mapping(value)
        plain: dict[Any, Any] = {}
        for key, item in items.items():
            plain[(yield from reach_plain(key, budget, depth + 1))] = yield from reach_plain(
                item, budget, depth + 1
            )
        return plain
    if isinstance(value, str):
        return _str_exact(value)
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return _int_exact(value)
    if isinstance(value, float):
        return _float_exact(value)
    if isinstance(value, list | tuple):
        return (yield from _plain_items((yield from reach_call(list, value)), budget, depth))
    return value


def _plain_items(items: Any, budget: list[int], depth: int) -> Reach:
    plain: list[Any] = []
    for item in items:
        _list_append(plain, (yield from reach_plain(item, budget, depth + 1)))
    return plain


def collecting(found: list[Any]) -> Any:
    """The default of the digest's encoder: every value it cannot write is collected and
    replaced by a placeholder, resolved afterwards by calls (see :mod:`.digest`)."""
    return _partial(placeholder, found)


def placeholder(found: list[Any], value: Any) -> Any:
    """What the encoder writes for ``value``: a proxy over a plain dict is written as that
    dict, at C speed, read by the collector's traversal, which asks the mapping nothing (and
    what the encoder then does with the dict, it does after this function has returned).
    Anything else is kept in ``found`` and written as a mark, to be read by a call later.
    (Trusted by the guard with ``gc.get_referents``, for that read.)"""
    if type(value) is _MappingProxy:
        # The guard's checks for this event would cost more than the read: it trusts it
        # while the flag is up. Nothing else runs meanwhile (the traversal calls no Python,
        # and no collection can run a learner's __del__ while the collector is off).
        collecting = _gc_isenabled()
        _gc_disable()
        _TRUSTED_READ[0] = True
        try:
            inner = _referents(value)
        finally:
            _TRUSTED_READ[0] = False
            if collecting:
                _gc_enable()
        if len(inner) == 1 and type(inner[0]) is dict:
            return inner[0]
    _list_append(found, value)
    return PLACEHOLDER + _token_nonce + str(len(found) - 1) + PLACEHOLDER


#: Marks a value the encoder left for later, with a nonce of this kernel's (the encoder writes
#: every non-ASCII character as an escape, so the mark reads ``\ue000<nonce>`` in its text).
PLACEHOLDER = "\ue000"
