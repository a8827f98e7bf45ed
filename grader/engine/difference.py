"""Where two answers first differ: the path into the value, and what each side holds there.

A wrong answer is shown whole (``returned [...]``, ``expected [...]``), which for a replay of
a long session is two walls of JSON. The first difference says where to look:
``[3].payload["content"][12:]: returned "b", expected "c"`` (the fourth event's content,
from its 13th character). Paths are Python: pasted after the call, they reach the place.

It is computed here, in the trusted process, from the values the judge already has (events
as :class:`~grader.engine.answers.EventView`, plain data as observed), and kept as a
:class:`~grader.engine.outcomes.Said`: the words come from the catalogs at the edge.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from grader.engine.answers import EventView
from grader.engine.data import literal, same
from grader.engine.outcomes import Said

#: How many characters of each side a difference shows.
SHOWN = 80
#: The words for each kind of difference: a wrong answer, and a read that changed.
MESSAGES = {
    ("differs", "answer"): "outcome.differs_at",
    ("missing", "answer"): "outcome.missing_at",
    ("extra", "answer"): "outcome.extra_at",
    ("differs", "change"): "outcome.changed_at",
    ("missing", "change"): "outcome.added_at",
    ("extra", "change"): "outcome.removed_at",
}
_FIELDS = ("event_id", "session_id", "type", "payload")


@dataclass(frozen=True)
class Difference:
    """The first place two values differ: the path to it, what kind of difference it is
    (``differs``; ``missing``: only the second value has something there; ``extra``: only
    the first), and each side's value there (None where a side has nothing)."""

    path: str
    kind: str
    first: Any = None
    second: Any = None


def first_difference(got: Any, expected: Any) -> Said | None:
    """Where a wrong answer first differs from the expected one, as an outcome line; None
    when they are equal or differ as a whole (the two values shown already say it)."""
    return _said(find(got, expected), "answer")


def first_change(before: Any, after: Any) -> Said | None:
    """Where a read that should have answered the same first changed, as an outcome line."""
    return _said(find(before, after), "change")


def find(first: Any, second: Any, path: str = "") -> Difference | None:
    """The first place ``first`` and ``second`` differ, equality as the contract means it
    (:func:`~grader.engine.data.same`); events are compared field by field."""
    if isinstance(first, EventView) and isinstance(second, EventView):
        for name in _FIELDS:
            found = find(getattr(first, name), getattr(second, name), f"{path}.{name}")
            if found is not None:
                return found
        return None
    if _sequence(first) and _sequence(second):
        return _in_sequences(first, second, path)
    if isinstance(first, Mapping) and isinstance(second, Mapping):
        return _in_mappings(first, second, path)
    if same(first, second):
        return None
    if type(first) is str and type(second) is str:
        return _in_texts(first, second, path)
    return Difference(path, "differs", first, second)


def _sequence(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def _in_texts(first: str, second: str, path: str) -> Difference:
    """Texts differ from their first different character on: the path ends in ``[n:]``."""
    index = next(
        (n for n, (a, b) in enumerate(zip(first, second, strict=False)) if a != b),
        min(len(first), len(second)),
    )
    if index == 0:
        return Difference(path, "differs", first, second)
    return Difference(f"{path}[{index}:]", "differs", first[index:], second[index:])


def _in_sequences(first: Sequence[Any], second: Sequence[Any], path: str) -> Difference | None:
    for index, (mine, theirs) in enumerate(zip(first, second, strict=False)):
        found = find(mine, theirs, f"{path}[{index}]")
        if found is not None:
            return found
    index = min(len(first), len(second))
    if len(first) < len(second):
        return Difference(f"{path}[{index}]", "missing", None, second[index])
    if len(first) > len(second):
        return Difference(f"{path}[{index}]", "extra", first[index], None)
    return None


def _in_mappings(
    first: Mapping[Any, Any], second: Mapping[Any, Any], path: str
) -> Difference | None:
    for key, theirs in second.items():
        where = f"{path}[{literal(key, limit=SHOWN)}]"
        if key not in first:
            return Difference(where, "missing", None, theirs)
        found = find(first[key], theirs, where)
        if found is not None:
            return found
    for key, mine in first.items():
        if key not in second:
            return Difference(f"{path}[{literal(key, limit=SHOWN)}]", "extra", mine, None)
    return None


def _said(found: Difference | None, context: str) -> Said | None:
    if found is None or not found.path:
        return None
    return Said(
        MESSAGES[(found.kind, context)],
        {"path": found.path, "first": _shown(found.first), "second": _shown(found.second)},
    )


def _shown(value: Any) -> str:
    if isinstance(value, EventView):
        return value.code()[:SHOWN] + ("..." if len(value.code()) > SHOWN else "")
    return literal(value, limit=SHOWN)
