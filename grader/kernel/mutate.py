"""Changing data in place, the way a careless (or curious) caller would.

Used to check that nothing a caller does to a payload mapping, an event, a returned sequence
or a replayed message reaches into the log. Each change is a *descriptor*
``[path, operation, argument]`` that the trusted side writes as a line of Python
(``e1.payload["meta"][0] = "changed"``); the plan reads the log again after the changes (see
``_mutate`` in :mod:`.plans`), so a transcript can end with the line that did the damage.

A *path* leads from a kept value to a part of it, one step at a time: ``["i", key]`` is
``value[key]`` and ``["a", name]`` is ``value.name``.

The changes are planned from the value's *shape*, read the way every value is read (by calls
through the trampoline, :mod:`.reach`), and each is made by calls too: the step to the part it
changes, then the change itself (``operator.setitem``, ``setattr``, or a method: looked up by
``getattr``, then called). So a learner's ``__setitem__`` or property runs with the same frames
above it as any other call of the learner's code.

(Not ``operator.methodcaller``: Pyodide's Python 3.14 dies, "function signature mismatch", when
its garbage collector frees one left in a reference cycle, as a failed change leaves it: the
error's traceback holds the frame that holds the caller.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.kernel.capture import (
        _delitem,
        _list_append,
        _setitem,
    )
    from grader.kernel.observe import _Counter, observe
    from grader.kernel.reach import (
        READ_FIELDS,
        Raised,
        Reach,
        reach_call,
        reach_follow,
        reach_is_mapping,
        reach_mapping,
    )

CHANGED = "changed"
#: What assigning to each attribute of an event puts there (the payload: a fresh empty dict).
NEW_FIELD_VALUES = (("event_id", 99), ("session_id", CHANGED), ("type", CHANGED), ("payload", None))
MAX_PATH = 64
#: How many items of one container are followed (and the last one too): see _container_paths.
FOLLOWED_ITEMS = 3
#: A shape: ``("event",)``, ``("map", [(key, shape), ...])``, ``("seq", [shape, ...])`` or
#: ``("leaf",)``.
Shape = tuple[Any, ...]


def _operation(name: str, argument: Any) -> tuple[Any, str | None, tuple[Any, ...]]:
    """How change ``name`` is made: ``(function, None, rest)`` for a C function called with
    the target and ``rest``; ``(None, method, rest)`` for the target's method called with
    ``rest``."""
    if name == "setitem":
        return _setitem, None, (argument, CHANGED)
    if name == "delitem":
        return _delitem, None, (argument,)
    if name == "setattr":
        return setattr, None, (argument, _new_field(argument))
    calls: dict[str, tuple[Any, ...]] = {
        "reverse": ("reverse",), "append": ("append", CHANGED), "extend": ("extend", [CHANGED]),
        "insert": ("insert", 0, CHANGED), "pop": ("pop",), "clear": ("clear",),
        "update": ("update", {"added_too": CHANGED}),
        "setdefault": ("setdefault", "set_default", CHANGED), "popkey": ("pop", argument),
        "popitem": ("popitem",),
    }  # fmt: skip
    method, *method_args = calls[name]
    return None, method, tuple(method_args)


def _new_field(name: str) -> Any:
    for field, value in NEW_FIELD_VALUES:
        if field == name:
            return {} if value is None else value
    return CHANGED


def plan_changes(root: Any, path: list[Any], modes: list[str]) -> Reach:
    """The changes to make to the part of ``root`` that ``path`` leads to, not yet made: each
    is made by :func:`make_change`.

    Args:
        modes: what to change: ``deep`` (every mapping and sequence inside the value,
            innermost first), ``shallow`` (the value's own container), ``attributes``
            (assign to the attributes of the event, or of each event in the sequence).

    Returns:
        ``(path, operation, argument)`` triples, in learner values (the path's keys and the
        argument are the container's own), paths relative to the value.
    """
    try:
        value = yield from reach_follow(root, path)
    except Raised:
        return []
    shape = yield from _shape(value, 0, "deep" in modes)
    planned: list[tuple[list[Any], str, Any]] = []
    for inner, kind, part in _targets(shape, modes):
        if kind == "attributes":
            changes = [("setattr", name) for name, _ in NEW_FIELD_VALUES]
        else:
            # Every way to change the value itself; inside it, one change per container is
            # enough to show a copy that stopped short of it.
            changes = _container_changes(part) if not inner else _one_change(part)
        planned += [(inner, operation, argument) for operation, argument in changes]
    return planned


def make_change(root: Any, path: list[Any], change: tuple[list[Any], str, Any]) -> Reach:
    """Make one change to the part of ``root`` that ``path`` leads to, fetched again first,
    exactly as a line of the transcript would; the change as plain data, or None when the
    learner's value refused it (a read-only value may refuse every one)."""
    inner, operation, argument = change
    function, method, rest = _operation(operation, argument)
    try:
        target = yield from reach_follow(root, [*path, *inner])
        if method is not None:
            bound = yield from reach_call(getattr, target, method)
            yield from reach_call(bound, *rest)
        else:
            yield from reach_call(function, target, *rest)
    except Raised:
        return None
    return [_plain(inner), operation, _plain(argument)]


def _plain(value: Any) -> Any:
    return observe(value, _Counter())


def _shape(value: Any, depth: int, deep: bool) -> Reach:
    """What :func:`_targets` plans from: events, mappings with their keys, sequences."""
    if depth > MAX_PATH:
        return ("leaf",)
    if type(value) is not list and type(value) is not tuple and depth <= 1:
        try:  # read the way every event is read: the four fields in one call
            yield from reach_call(READ_FIELDS, value)
            return ("event",)
        except Raised:
            pass
    if isinstance(value, list | tuple):
        items = (
            list(value) if type(value) in (list, tuple) else (yield from reach_call(list, value))
        )
        return ("seq", (yield from _children(list(enumerate(items)), depth, deep)))
    if isinstance(value, str | bytes | bytearray) or not (yield from reach_is_mapping(value)):
        return ("leaf",)
    try:
        items = yield from reach_mapping(value)
    except Exception:
        return ("leaf",)
    return ("map", (yield from _children(list(items.items()), depth, deep)))


def _children(pairs: list[tuple[Any, Any]], depth: int, deep: bool) -> Reach:
    """``(key, shape)`` for each item: every key, but shapes for only the first few items and
    the last (a copy that stops short stops at a depth, a type or a length, never at the
    137th of 150 siblings, and following all of them would cost a read per change)."""
    followed = {*range(min(FOLLOWED_ITEMS, len(pairs))), len(pairs) - 1} if deep else set()
    children: list[tuple[Any, Shape]] = []
    for number, (key, item) in enumerate(pairs):
        if number in followed:
            _list_append(children, (key, (yield from _shape(item, depth + 1, deep))))
        else:
            _list_append(children, (key, ("leaf",)))
    return children


def _targets(shape: Shape, modes: list[str]) -> list[tuple[list[Any], str, Shape]]:
    """What to change, innermost first: events' attributes, then the containers."""
    targets: list[tuple[list[Any], str, Shape]] = []
    if "attributes" in modes:
        if shape[0] == "event":
            _list_append(targets, ([], "attributes", shape))
        elif shape[0] == "seq":
            for index, child in shape[1]:
                if child[0] == "event" or child == ("leaf",):
                    _list_append(targets, ([["i", index]], "attributes", child))
    if "deep" in modes:
        targets += [(path, "items", part) for path, part in _container_paths(shape, [])]
    elif "shallow" in modes and shape[0] in ("map", "seq"):
        _list_append(targets, ([], "items", shape))
    return targets


def _container_paths(shape: Shape, path: list[Any]) -> list[tuple[list[Any], Shape]]:
    """Paths to the mappings and sequences inside a shape, children before parents."""
    if len(path) > MAX_PATH or shape[0] not in ("map", "seq"):
        return []
    found: list[tuple[list[Any], Shape]] = []
    for key, child in shape[1]:
        found += _container_paths(child, [*path, ["i", key]])
    _list_append(found, (path, shape))
    return found


def _one_change(shape: Shape) -> list[tuple[str, Any]]:
    if shape[0] == "seq":
        return [("append", None)]
    return [("setitem", "added")] if shape[0] == "map" else []


def _container_changes(shape: Shape) -> list[tuple[str, Any]]:
    keys = [key for key, _ in shape[1]]
    if shape[0] == "seq":
        changes: list[tuple[str, Any]] = []
        if keys:
            changes += [("setitem", 0), ("delitem", -1)]
        if len(keys) > 1:
            _list_append(changes, ("reverse", None))
        changes += [("append", None), ("extend", None), ("insert", None), ("pop", None)]
        return [*changes, ("clear", None)]
    changes = [*(("setitem", key) for key in keys), ("setitem", "added")]
    changes += [("update", None), ("setdefault", None)]
    if keys:
        changes += [("popkey", keys[0]), ("delitem", keys[-1])]
    return [*changes, ("popitem", None), ("clear", None)]
