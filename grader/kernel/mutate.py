"""Changing data in place, the way a careless (or curious) caller would.

Used to check that nothing a caller does to a payload mapping, an event, a returned sequence
or a replayed message reaches into the log. Each change is a *descriptor*
``[path, operation, argument]`` that the trusted side writes as a line of Python
(``e1.payload["meta"][0] = "changed"``); the plan reads the log again after the changes (see
``_mutate`` in :mod:`.plans`), so a transcript can end with the line that did the damage.

A *path* leads from a kept value to a part of it, one step at a time: ``["i", key]`` is
``value[key]`` and ``["a", name]`` is ``value.name``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.kernel.capture import _list_append
    from grader.kernel.observe import _Counter, _looks_like_event, is_mapping, observe

CHANGED = "changed"
#: What assigning to each attribute of an event puts there (the payload: a fresh empty dict).
NEW_FIELD_VALUES = (("event_id", 99), ("session_id", CHANGED), ("type", CHANGED), ("payload", None))
MAX_PATH = 64
#: How many items of one container are followed (and the last one too): see _container_paths.
FOLLOWED_ITEMS = 3

#: Each operation: what it does to its target, given its argument.
OPERATIONS: dict[str, Callable[[Any, Any], object]] = {
    "setitem": lambda target, key: target.__setitem__(key, CHANGED),
    "delitem": lambda target, key: target.__delitem__(key),
    "reverse": lambda target, _: target.reverse(),
    "append": lambda target, _: target.append(CHANGED),
    "extend": lambda target, _: target.extend([CHANGED]),
    "insert": lambda target, _: target.insert(0, CHANGED),
    "pop": lambda target, _: target.pop(),
    "clear": lambda target, _: target.clear(),
    "update": lambda target, _: target.update({"added_too": CHANGED}),
    "setdefault": lambda target, _: target.setdefault("set_default", CHANGED),
    "popkey": lambda target, key: target.pop(key),
    "popitem": lambda target, _: target.popitem(),
    "setattr": lambda target, name: setattr(target, name, _new_field(name)),
}


def _new_field(name: str) -> Any:
    for field, value in NEW_FIELD_VALUES:
        if field == name:
            return {} if value is None else value
    return CHANGED


def follow(root: Any, path: list[Any]) -> Any:
    """The part of ``root`` that ``path`` leads to."""
    for kind, key in path:
        root = getattr(root, key) if kind == "a" else root[key]
    return root


def plan_changes(root: Any, path: list[Any], modes: list[str]) -> list[tuple[list[Any], str, Any]]:
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
    value = _quietly(follow, root, path)
    planned: list[tuple[list[Any], str, Any]] = []
    for inner, kind in _targets(value, modes):
        if kind == "attributes":
            changes = [("setattr", name) for name, _ in NEW_FIELD_VALUES]
        else:
            container = _quietly(follow, value, inner)
            # Every way to change the value itself; inside it, one change per container is
            # enough to show a copy that stopped short of it.
            changes = _container_changes(container) if not inner else _one_change(container)
        planned += [(inner, operation, argument) for operation, argument in changes]
    return planned


def make_change(root: Any, path: list[Any], change: tuple[list[Any], str, Any]) -> Any:
    """Make one change to the part of ``root`` that ``path`` leads to, fetched again first,
    exactly as a line of the transcript would; the change as plain data, or None when the
    learner's value refused it (a read-only value may refuse every one)."""
    inner, operation, argument = change
    try:
        OPERATIONS[operation](follow(follow(root, path), inner), argument)
    except Exception:
        return None
    return [_plain(inner), operation, _plain(argument)]


def _plain(value: Any) -> Any:
    return observe(value, _Counter())


def _quietly(fetch: Callable[..., Any], *args: Any) -> Any:
    try:
        return fetch(*args)
    except Exception:
        return None


def _item(container: Any, key: Any) -> Any:
    return container[key]


def _targets(root: Any, modes: list[str]) -> list[tuple[list[Any], str]]:
    """What to change, innermost first: events' attributes, then the containers."""
    targets: list[tuple[list[Any], str]] = []
    if "attributes" in modes:
        if _looks_like_event(root):
            _list_append(targets, ([], "attributes"))
        elif isinstance(root, list | tuple):
            for index, item in enumerate(root):
                if _looks_like_event(item):
                    _list_append(targets, ([["i", index]], "attributes"))
    if "deep" in modes:
        targets += [(path, "items") for path in _container_paths(root, [])]
    elif "shallow" in modes and _keys(root) is not None:
        _list_append(targets, ([], "items"))
    return targets


def _container_paths(value: Any, path: list[Any]) -> list[list[Any]]:
    """Paths to the mappings and sequences inside ``value``, children before parents.

    Every level is reached, but of a container's items only the first few and the last are
    followed: a copy that stops short stops at a depth, a type or a length, never at the
    137th of 150 siblings, and following all of them would cost a read per change."""
    if len(path) > MAX_PATH:
        return []
    keys = _keys(value)
    if keys is None:
        return []
    if len(keys) > FOLLOWED_ITEMS + 1:
        keys = [*keys[:FOLLOWED_ITEMS], keys[-1]]
    found: list[list[Any]] = []
    for key in keys:
        child = _quietly(_item, value, key)
        found += _container_paths(child, [*path, ["i", key]])
    _list_append(found, path)
    return found


def _keys(value: Any) -> list[Any] | None:
    if isinstance(value, str | bytes | bytearray):
        return None
    if isinstance(value, list | tuple):
        return list(range(len(value)))
    if is_mapping(value):
        try:
            return list(value.keys())
        except Exception:
            return None
    return None


def _one_change(container: Any) -> list[tuple[str, Any]]:
    keys = _keys(container)
    if keys is None:
        return []
    if isinstance(container, list | tuple) or not is_mapping(container):
        return [("append", None)]
    return [("setitem", "added")]


def _container_changes(container: Any) -> list[tuple[str, Any]]:
    keys = _keys(container)
    if keys is None:
        return []
    if isinstance(container, list | tuple) or not is_mapping(container):
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
