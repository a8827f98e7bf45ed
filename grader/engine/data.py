"""Data as the contract sees it: equality type for type, and values written as Python.

:func:`same` is what "equal" means in the exercises' docstring: a ``str`` is a ``str`` with
the same characters, an ``int`` an ``int`` (``True`` is not ``1``, ``1.0`` is not ``1``), a
``float`` a ``float`` with the same value and sign (``-0.0`` is not ``0.0``); lists and tuples
are alike, item by item; mappings are alike whatever their type, key by key. Observations
(what the kernel saw learner code return) never hold tuples or mappings other than ``dict``,
so the expected side is the one that may.

:func:`literal` writes a value as Python source a learner can paste: every string escaped so
that what is printed is what was sent (control characters, lone surrogates and the Unicode
direction controls appear as escapes, never raw), and long runs written as ``"ab" * 5000``.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping
from typing import Any

#: A literal longer than this is cut (with `...`) when shown.
MAX_SHOWN = 600


class Opaque:
    """A learner value the kernel could only describe: its type name and its text."""

    def __init__(self, type_name: str, text: str) -> None:
        self.type_name, self.text = type_name, text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Opaque) and (other.type_name, other.text) == (
            self.type_name,
            self.text,
        )

    def __hash__(self) -> int:
        return hash((self.type_name, self.text))

    def __repr__(self) -> str:
        return self.text


class Tagged:
    """Something JSON could not say, as the kernel tagged it (``$bytes``, ``$deep``, ...)."""

    def __init__(self, tag: str, value: Any) -> None:
        self.tag, self.value = tag, value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tagged) and (other.tag, other.value) == (self.tag, self.value)

    def __hash__(self) -> int:
        return hash((self.tag, repr(self.value)))

    def __repr__(self) -> str:
        if self.tag == "$bytes":
            return repr(bytes.fromhex(self.value))
        if self.tag == "$float":
            return f"float({self.value!r})"
        return "..."


class Malformed(Exception):
    """An answer that is not what the kernel sends: the protocol was broken."""


def from_observation(data: Any) -> Any:
    """An observation (decoded JSON) with its ``$`` tags turned into values.

    Raises:
        Malformed: an unknown tag.
    """
    kind = type(data)  # decoded JSON: exact lists and dicts only
    if kind is list:
        return [item if type(item) in _SCALARS else from_observation(item) for item in data]
    if kind is not dict:
        return data
    if len(data) == 1:
        ((key, inner),) = data.items()
        if key.startswith("$"):
            return _tagged(key, inner)
    return {
        key: value if type(value) in _SCALARS else from_observation(value)
        for key, value in data.items()
    }


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _tagged(tag: str, inner: Any) -> Any:
    if tag == "$dict" and isinstance(inner, list):
        pairs = []
        for pair in inner:
            if not (isinstance(pair, list) and len(pair) == 2):
                raise Malformed()
            key, value = (from_observation(part) for part in pair)
            pairs.append((key if _hashable(key) else Opaque("unhashable", repr(key)), value))
        return dict(pairs)
    if tag == "$str" and isinstance(inner, str):
        try:
            return bytes.fromhex(inner).decode("utf-8", "surrogatepass")
        except ValueError:
            raise Malformed() from None
    if tag == "$opaque" and isinstance(inner, list) and len(inner) == 2:
        return Opaque(str(inner[0]), str(inner[1]))
    if tag in ("$bytes", "$float", "$deep"):
        return Tagged(tag, inner)
    raise Malformed()


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _as_json_text(text: str) -> str:
    """``text`` with each pair of surrogates joined into the character it encodes: JSON
    cannot tell ``"\\ud83d\\ude42"`` from ``"🙂"``, so a payload parsed back from JSON text
    (which the contract allows) may hold either. Lone surrogates stay as they are."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def same(observed: Any, expected: Any) -> bool:
    """Whether ``observed`` equals ``expected`` the way the contract says (type for type)."""
    kind = type(expected)
    if kind is str:
        return type(observed) is str and (
            observed == expected or _as_json_text(observed) == _as_json_text(expected)
        )
    if kind is bool or expected is None:
        return type(observed) is kind and observed == expected
    if kind is int:
        return type(observed) is int and observed == expected
    if kind is float:
        return type(observed) is float and _same_float(observed, expected)
    if isinstance(expected, list | tuple):
        return (
            isinstance(observed, list | tuple)
            and len(observed) == len(expected)
            and all(same(o, e) for o, e in zip(observed, expected, strict=True))
        )
    if isinstance(expected, Mapping):
        return (
            isinstance(observed, Mapping)
            and len(observed) == len(expected)
            and all(
                key in observed and same(observed[key], value) for key, value in expected.items()
            )
        )
    return bool(observed == expected)


def _same_float(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


# --- values as Python source ---------------------------------------------------------------
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def literal(value: Any, limit: int | None = MAX_SHOWN) -> str:
    """Python source for ``value``: grader-built data, observations, or their parts.

    Args:
        limit: cut the text at about this many characters (None: never).
    """
    return shortened(_literal(value), limit)


def shortened(text: str, limit: int | None = MAX_SHOWN) -> str:
    """``text`` cut at ``limit`` characters with `` ...`` after it, as every value is shown
    (None: never cut)."""
    if limit is not None and len(text) > limit:
        return text[:limit] + " ..."
    return text


def _literal(value: Any) -> str:
    if isinstance(value, str):
        return string_literal(value)
    if value is None or isinstance(value, bool | int):
        return repr(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else f"float({str(value)!r})"
    if isinstance(value, list):
        return "[" + ", ".join(_literal(item) for item in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(_literal(item) for item in value)
        return "(" + inner + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, Mapping):
        items = "{" + ", ".join(f"{_literal(k)}: {_literal(v)}" for k, v in value.items()) + "}"
        wrapper = type(value).__name__
        if wrapper == "dict":
            return items
        if wrapper == "defaultdict":
            return f"defaultdict(str, {items})"
        return f"{'MappingProxyType' if wrapper == 'mappingproxy' else wrapper}({items})"
    return repr(value)


def string_literal(text: str) -> str:
    """``text`` as a double-quoted Python string; each long run of a short unit written as a
    repetition: ``"{\"text\": \"" + "y" * 70000 + "\"}"``."""
    parts = []
    for piece, count in _runs(text):
        parts.append(f"{_quoted(piece)} * {count}" if count > 1 else _quoted(piece))
    return " + ".join(parts) if parts else '""'


#: A run is written as a repetition once it covers this many characters.
_LONGEST_PLAIN_RUN = 64


def _runs(text: str) -> list[tuple[str, int]]:
    """``text`` as ``(piece, count)`` pairs: plain stretches (count 1) and long runs of a unit
    of up to 8 characters. Each position is tried once per unit size, and a run is skipped
    whole, so this is linear in ``len(text)``."""
    if len(text) < 2 * _LONGEST_PLAIN_RUN:
        return [(text, 1)] if text else []
    runs: list[tuple[str, int]] = []
    plain_from = index = 0
    while index < len(text):
        for size in range(1, 9):
            unit = text[index : index + size]
            end = index + size
            while text.startswith(unit, end):
                end += size
            if end - index >= _LONGEST_PLAIN_RUN and len(unit) == size:
                if plain_from < index:
                    runs.append((text[plain_from:index], 1))
                runs.append((unit, (end - index) // size))
                plain_from = index = end
                break
        else:
            index += 1
    if plain_from < len(text):
        runs.append((text[plain_from:], 1))
    return runs


def _quoted(text: str) -> str:
    return '"' + "".join(_escaped(char) for char in text) + '"'


def _escaped(char: str) -> str:
    if char in _ESCAPES:
        return _ESCAPES[char]
    category = unicodedata.category(char)
    # Control and format characters (the direction overrides among them), lone surrogates,
    # and unassigned or private characters are written as escapes: shown, never obeyed.
    if category in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") or (category == "Zs" and char != " "):
        code = ord(char)
        if code <= 0xFF:
            return f"\\x{code:02x}"
        return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
    return char
