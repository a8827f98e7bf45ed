"""Trying to change data in place, the way a careless (or curious) caller would.

Used to check that nothing a caller does to a payload dict, an event, a returned sequence or
a replayed message reaches into the log. Every attempt is written as a line of Python; the
server reads the log again after each change that did not raise, so a transcript can end
with the one line that did the damage.

A *path* leads from a root value to a part of it, one step at a time: ``["i", key]`` is
``value[key]`` and ``["a", name]`` is ``value.name``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .text import literal, looks_like_event

Change = tuple[Callable[[str], str], Callable[[Any], object]]
Path = tuple[tuple[str, Any], ...]
CHANGED = "changed"
#: What an attribute assignment puts in each field of an event.
NEW_FIELD_VALUES = {"event_id": 99, "session_id": CHANGED, "type": CHANGED, "payload": {}}
MAX_PATH = 6


def scribble(
    get_root: Callable[[], Any],
    root_code: str,
    thorough: bool,
    modes: Iterable[str],
    announce: Callable[[str], object] = lambda line: None,
) -> Iterator[str]:
    """Change what ``get_root()`` holds in place, yielding each line that worked.

    Args:
        get_root: fetches the root again before every attempt, exactly as the line would.
        root_code: how the root is written in Python (``p1``, ``e1.payload``, ``read``).
        thorough: also try the methods (update, pop, clear, ...) a read-only subclass of dict
            or list might have forgotten to block; plain item assignment otherwise.
        modes: what to change: ``deep`` (every dict and list inside the root, innermost
            first), ``shallow`` (the root container itself), ``attributes`` (assign to the
            attributes of the root event, or of each event in the root sequence).
        announce: told each line before it runs (learner code may never return from it).
    """
    for path, kind in _targets(_quietly(get_root), set(modes)):
        target_code = root_code + render_path(path)
        target = _quietly(lambda path=path: follow(get_root(), path))  # type: ignore[misc]
        changes = _attribute_changes() if kind == "attributes" else _changes(target, thorough)
        for render, action in changes:
            announce(render(target_code))
            try:
                action(follow(get_root(), path))
            except Exception:
                continue
            yield render(target_code)


def _targets(root: Any, modes: set[str]) -> list[tuple[Path, str]]:
    """What to change, innermost first: events' attributes, then the containers."""
    targets: list[tuple[Path, str]] = []
    if "attributes" in modes:
        if looks_like_event(root):
            targets.append(((), "attributes"))
        elif isinstance(root, list | tuple):
            items = [("i", index) for index, item in enumerate(root) if looks_like_event(item)]
            targets += [((step,), "attributes") for step in items]
    if "deep" in modes:
        targets += [(path, "items") for path in _container_paths(root, ())]
    elif "shallow" in modes and _keys(root) is not None:
        targets.append(((), "items"))
    return targets


def follow(root: Any, path: Path | list[list[Any]]) -> Any:
    """The part of ``root`` that ``path`` leads to."""
    for kind, key in path:
        root = getattr(root, key) if kind == "a" else root[key]
    return root


def render_path(path: Path | list[list[Any]]) -> str:
    """``[0].payload["meta"]`` for a path, as Python source."""
    return "".join(f".{key}" if kind == "a" else f"[{literal(key)}]" for kind, key in path)


def _quietly(fetch: Callable[[], Any]) -> Any:
    try:
        return fetch()
    except Exception:
        return None


def _container_paths(value: Any, path: Path) -> list[Path]:
    """Paths to every dict-like or list-like value, children before their parents."""
    if len(path) > MAX_PATH:
        return []
    keys = _keys(value)
    if keys is None:
        return []
    found = []
    for key in keys:
        child = _quietly(lambda key=key: value[key])  # type: ignore[misc]
        found.extend(_container_paths(child, (*path, ("i", key))))
    return [*found, path]


def _keys(value: Any) -> list[Any] | None:
    if isinstance(value, str | bytes):
        return None
    if isinstance(value, list | tuple):
        return list(range(len(value)))
    if hasattr(value, "keys") and hasattr(value, "__getitem__"):
        try:
            return list(value.keys())
        except Exception:
            return None
    return None


def _changes(container: Any, thorough: bool) -> list[Change]:
    keys = _keys(container)
    if keys is None:
        return []
    if isinstance(container, list | tuple):
        return _sequence_changes(keys, thorough)
    return _mapping_changes(keys, thorough)


def _attribute_changes() -> list[Change]:
    return [_set_attribute(name, value) for name, value in NEW_FIELD_VALUES.items()]


def _set_attribute(name: str, value: Any) -> Change:
    # A fresh copy each time: learner code may keep (and later change) what it was given.
    return (
        lambda c: f"{c}.{name} = {literal(value)}",
        lambda e: setattr(e, name, copy.deepcopy(value)),
    )


def _sequence_changes(indexes: list[Any], thorough: bool) -> list[Change]:
    changes: list[Change] = []
    if indexes:
        changes.append(
            (lambda c: f"{c}[0] = {literal(CHANGED)}", lambda s: s.__setitem__(0, CHANGED))
        )
    changes.append((lambda c: f"{c}.append({literal(CHANGED)})", lambda s: s.append(CHANGED)))
    if thorough:
        changes += [
            (lambda c: f"{c}.extend([{literal(CHANGED)}])", lambda s: s.extend([CHANGED])),
            (lambda c: f"{c}.insert(0, {literal(CHANGED)})", lambda s: s.insert(0, CHANGED)),
            (lambda c: f"{c}.pop()", lambda s: s.pop()),
            (lambda c: f"{c}.clear()", lambda s: s.clear()),
        ]
    return changes


def _mapping_changes(keys: list[Any], thorough: bool) -> list[Change]:
    changes: list[Change] = [_assign(key) for key in keys]
    changes.append(_assign("added"))
    if not thorough:
        return changes
    update = {"added_too": CHANGED}
    changes += [
        (lambda c: f"{c}.update({literal(update)})", lambda m: m.update(update)),
        (
            lambda c: f'{c}.setdefault("set_default", {literal(CHANGED)})',
            lambda m: m.setdefault("set_default", CHANGED),
        ),
    ]
    if keys:
        first, last = keys[0], keys[-1]
        changes += [
            (lambda c: f"{c}.pop({literal(first)})", lambda m: m.pop(first)),
            (lambda c: f"del {c}[{literal(last)}]", lambda m: m.__delitem__(last)),
        ]
    changes += [
        (lambda c: f"{c}.popitem()", lambda m: m.popitem()),
        (lambda c: f"{c}.clear()", lambda m: m.clear()),
    ]
    return changes


def _assign(key: Any) -> Change:
    return (
        lambda c: f"{c}[{literal(key)}] = {literal(CHANGED)}",
        lambda m: m.__setitem__(key, CHANGED),
    )
