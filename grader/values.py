"""Values the grader passes to your functions that you may want to build yourself, to rerun a
failing example exactly as the report shows it.

``ReadOnlyMapping({...})`` is a payload that is a ``Mapping`` but not a ``dict``;
``Text("a")`` is a session id that is a subclass of ``str``. Both are valid input: the contract
says "any mapping" and "any non-empty str".
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


class ReadOnlyMapping(Mapping[str, Any]):
    """A payload that is a ``Mapping`` but not a ``dict``."""

    def __init__(self, items: Mapping[str, Any]) -> None:
        self._items = dict(items)

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"ReadOnlyMapping({self._items!r})"


class Text(str):
    """A subclass of ``str``: a valid session id, like any other string."""

    __slots__ = ()
