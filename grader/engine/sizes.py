"""How big an example is, and which examples are the same: what the shrinker compares.

:func:`measure` orders examples by what a reader pays for: calls first, then loops, then
structure, then characters; every reduction the shrinker takes makes it smaller, so
shrinking always ends. :func:`key` tells examples apart exactly, types included, so that
the shrinker never runs the same example twice.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from grader.engine.checks import Branching
from grader.engine.programs import Append, Block, Program

#: Appends per round of each loop pattern.
ROUND = {"pairs": 2, "calls_answered": 2, "calls_reversed": 2}


def measure(value: Any) -> tuple[int, int, int, int]:
    """How big an example is, compared first by its calls, then its loops, then how much
    structure it has (containers, keys, items, wrappers, subclasses, sessions), then its
    characters (and the bits of its numbers). Every reduction makes it smaller: so
    shrinking always ends."""
    tally = [0, 0, 0, 0]
    _tally(value, tally)
    return tally[0], tally[1], tally[2], tally[3]


def _tally(value: Any, tally: list[int]) -> None:
    if isinstance(value, Program):
        _tally(value.family, tally)
        _tally(value.segments, tally)
    elif isinstance(value, Block):
        tally[0] += value.count * ROUND.get(value.pattern, 1)
        tally[1] += 1
        _tally((value.sessions, value.label), tally)
    elif isinstance(value, Append):
        tally[0] += 1
        tally[2] += value.wrapper != "dict"
        _tally((value.session_id, value.payload), tally)
    elif isinstance(value, Branching):
        _tally(value.program, tally)
        for base, append in value.branches:
            tally[3] += base
            _tally(append, tally)
    else:
        _tally_data(value, tally)


def _tally_data(value: Any, tally: list[int]) -> None:
    tally[2] += 1
    if isinstance(value, str):
        tally[2] += type(value) is not str
        tally[3] += len(value)
    elif isinstance(value, int) and not isinstance(value, bool):
        tally[2] += bin(value).count("1")
        tally[3] += value.bit_length()
    elif isinstance(value, float):
        tally[3] += value != 0.0 or str(value).startswith("-")
    elif isinstance(value, Mapping):
        tally[2] += type(value) is not dict
        for item_key, item in value.items():
            _tally((item_key, item), tally)
    elif isinstance(value, list | tuple):
        for item in value:
            _tally(item, tally)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            _tally(getattr(value, field.name), tally)


def key(value: Any) -> Any:
    """A hashable stand-in for an example, equal exactly when the examples are the same
    (types included: ``Text("a")`` is not ``"a"``, ``-0.0`` is not ``0.0``, ``True`` not 1)."""
    kind = type(value).__name__
    if isinstance(value, str | int | float | bool | bytes) or value is None:
        return (kind, repr(value))
    if isinstance(value, Mapping):
        return (kind, tuple((key(k), key(item)) for k, item in value.items()))
    if isinstance(value, list | tuple):
        return (kind, tuple(key(item) for item in value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        return (kind, tuple(key(getattr(value, f.name)) for f in fields if f.compare))
    return (kind, repr(value))
