"""Values as JSON, both ways: the only form in which data crosses between the two processes.

No pickle anywhere: unpickling runs code chosen by whoever wrote the bytes, and these bytes
come from a process that runs untrusted code. Plain JSON carries None, booleans, integers,
floats, strings, lists and string-keyed dicts. Everything else travels as a *tag*, an object
with exactly one key that starts with ``$``:

====================================  =========================================================
``{"$tuple": [...]}``                 a tuple (arguments only: observations turn tuples into
                                      lists, as the grader's views always did)
``{"$bytes": "6869"}``                bytes, as hex
``{"$float": "nan"}``                 ``nan``, ``inf`` or ``-inf``, which JSON cannot write
``{"$dict": [[key, value], ...]}``    a dict whose keys are not all strings, or that would
                                      look like a tag
``{"$ref": "log3"}``                  a value the child keeps under that name (arguments)
``{"$proxy": {...}}``                 a ``types.MappingProxyType`` over a dict (arguments)
``{"$mapping": {...}}``               a read-only ``Mapping`` that is not a dict (arguments)
``{"$opaque": ["Foo", "Foo(1)"]}``    a learner object JSON cannot hold: its type and repr
====================================  =========================================================
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

#: How deep a learner value is followed before the rest is written as ``...``: deep enough
#: for any payload the grader builds, shallow enough that a self-containing list ends.
MAX_DEPTH = 24


@dataclass(frozen=True)
class Ref:
    """A value that lives in the child, named in the transcript (``log3``, ``e2``)."""

    name: str


@dataclass(frozen=True)
class Opaque:
    """A learner value JSON cannot carry, known by its type name and its repr."""

    type_name: str
    text: str

    def __repr__(self) -> str:
        return self.text


class ReadOnlyMapping(Mapping[str, Any]):
    """A payload that is a ``Mapping`` but not a ``dict``: what the contract's word allows.

    The grader passes one to ``append_event`` to check that an implementation accepts any
    mapping, not just dicts. A learner can build one the same way to reproduce a failure.
    """

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


def encode_float(value: float) -> Any:
    """A float as JSON holds it, or a ``$float`` tag for ``nan`` and the infinities."""
    if math.isfinite(value):
        return value
    return {"$float": "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}


def encode_pairs(pairs: list[tuple[Any, Any]]) -> Any:
    """Encoded (key, value) pairs as a JSON object, or a ``$dict`` tag when it cannot be one."""
    keys = [key for key, _ in pairs]
    if all(type(key) is str for key in keys) and not (len(keys) == 1 and keys[0][:1] == "$"):
        return dict(pairs)
    return {"$dict": [[key, value] for key, value in pairs]}


def encode_argument(value: Any) -> Any:
    """Encode a value the trusted side built (arguments), exactly: tuples stay tuples."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return encode_float(value)
    if isinstance(value, Ref):
        return {"$ref": value.name}
    if isinstance(value, bytes):
        return {"$bytes": value.hex()}
    if isinstance(value, tuple):
        return {"$tuple": [encode_argument(item) for item in value]}
    if isinstance(value, list):
        return [encode_argument(item) for item in value]
    if isinstance(value, ReadOnlyMapping):
        return {"$mapping": encode_argument(dict(value))}
    if isinstance(value, Mapping) and type(value) is not dict:
        return {"$proxy": encode_argument(dict(value))}
    if isinstance(value, dict):
        return encode_pairs([(encode_argument(k), encode_argument(v)) for k, v in value.items()])
    raise TypeError(f"cannot send a {type(value).__name__} to the learner's process")


def decode(data: Any, resolve: Callable[[str], Any] | None = None) -> Any:
    """Turn JSON data back into values; ``resolve`` looks up ``$ref`` names (child side).

    Raises:
        ValueError: an unknown tag, or a ``$ref`` where none is expected.
    """
    if isinstance(data, list):
        return [decode(item, resolve) for item in data]
    if not isinstance(data, dict):
        return data
    if len(data) == 1:
        ((key, inner),) = data.items()
        if isinstance(key, str) and key.startswith("$"):
            return _decode_tag(key, inner, resolve)
    return {key: decode(value, resolve) for key, value in data.items()}


def _decode_tag(tag: str, inner: Any, resolve: Callable[[str], Any] | None) -> Any:
    if tag == "$tuple":
        return tuple(decode(item, resolve) for item in inner)
    if tag == "$bytes":
        return bytes.fromhex(inner)
    if tag == "$float":
        return float(inner)
    if tag == "$dict":
        return {decode(key, resolve): decode(value, resolve) for key, value in inner}
    if tag == "$opaque":
        return Opaque(str(inner[0]), str(inner[1]))
    if tag == "$ref" and resolve is not None:
        return resolve(inner)
    if tag == "$proxy":
        from types import MappingProxyType

        return MappingProxyType(decode(inner, resolve))
    if tag == "$mapping":
        return ReadOnlyMapping(decode(inner, resolve))
    raise ValueError(f"unknown tag {tag!r}")
