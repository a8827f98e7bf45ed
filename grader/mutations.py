"""Trying to change data in place, the way a careless (or curious) caller would.

Used to check that nothing a caller does to a payload dict, an event's payload or a replayed
message can reach into the log. Every attempt is written as a line of Python; the caller
checks the log after each change that did not raise, so a transcript ends with the one line
that did the damage.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from grader.rendering import literal

Change = tuple[Callable[[str], str], Callable[[Any], object]]
CHANGED = "changed"


def scribble(root_code: str, get_root: Callable[[], Any], thorough: bool) -> Iterator[str]:
    """Change everything reachable from ``get_root()`` in place, yielding each line that worked.

    Args:
        root_code: how the root is written in Python (``p1``, ``e1.payload``, ``messages``).
        get_root: fetches the root again before every attempt, exactly as the line would.
        thorough: also try the methods (update, pop, clear, ...) a read-only subclass of dict
            or list might have forgotten to block; plain item assignment otherwise.
    """
    for path in _container_paths(_quietly(get_root), ()):
        target_code = root_code + "".join(f"[{literal(key)}]" for key in path)
        container = _quietly(lambda path=path: _at(get_root(), path))  # type: ignore[misc]
        for render, action in _changes(container, thorough):
            try:
                action(_at(get_root(), path))
            except Exception:
                continue
            yield render(target_code)


def _quietly(fetch: Callable[[], Any]) -> Any:
    try:
        return fetch()
    except Exception:
        return None


def _at(root: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        root = root[key]
    return root


def _container_paths(value: Any, path: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """Paths to every dict-like or list-like value, children before their parents."""
    if len(path) > 6:
        return []
    keys = _keys(value)
    if keys is None:
        return []
    found = []
    for key in keys:
        child = _quietly(lambda key=key: value[key])  # type: ignore[misc]
        found.extend(_container_paths(child, (*path, key)))
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
