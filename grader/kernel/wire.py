"""Values on the wire, both ways.

Requests arrive as ``marshal`` data from the trusted process (it wrote them, the kernel only
reads them). Plain data stays as it is; what JSON-like data cannot say travels as a tagged
tuple ``(TAG, ...)``:

=================================  ===================================================
``("$ref", name)``                 a value the kernel keeps under ``name``
``("$p", bytes)``                  plain data (tuples included), pickled
``("$tuple", [items])``            a tuple
``("$proxy", {mapping})``          a ``types.MappingProxyType`` over a dict
``("$mapping", {mapping})``        a read-only ``Mapping`` that is not a dict
``("$text", "s")``                 a subclass of ``str``
``("$keyed", [[k, v], ...])``      a dict whose keys are not all exact ``str``s
``("$defaultdict", {mapping})``    a ``collections.defaultdict(str)``: a missing key reads as ""
=================================  ===================================================

Answers leave as JSON text, written by the C encoder from plain data only (see
:mod:`.observe`), so encoding runs no Python code a learner could have changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.kernel.capture import (
        _DefaultDict,
        _encode_string,
        _make_encoder,
        _MappingProxy,
        _pickle_loads,
        _str,
        _str_join,
    )
    from grader.kernel.isolated import ReadOnlyMapping, Text


def decode(data: Any, values: dict[str, Any]) -> Any:
    """The Python value a request's ``data`` stands for (``values`` holds the kept ones).

    Raises:
        KeyError: a ``$ref`` to a name nothing is kept under.
    """
    kind = type(data)
    if kind is list:
        return [decode(item, values) for item in data]
    if kind is dict:
        return {key: decode(item, values) for key, item in data.items()}
    if kind is not tuple:
        return data
    tag = data[0]
    if tag == "$ref":
        return values[data[1]]
    if tag == "$p":  # plain data, pickled by the trusted side: a fresh copy, made in C
        return _pickle_loads(data[1])
    if tag == "$tuple":
        return tuple(decode(item, values) for item in data[1])
    if tag == "$proxy":
        return _MappingProxy(decode(data[1], values))
    if tag == "$mapping":
        return ReadOnlyMapping(decode(data[1], values))
    if tag == "$text":
        return Text(data[1])
    if tag == "$keyed":
        return {decode(key, values): decode(item, values) for key, item in data[1]}
    if tag == "$defaultdict":
        return _DefaultDict(_str, decode(data[1], values))
    raise ValueError(f"unknown tag {tag!r}")


def _no_default(value: Any) -> Any:
    raise TypeError(f"not plain data: {type(value).__name__}")


#: ``json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False)``, in C.
_encoder = _make_encoder(None, _no_default, _encode_string, None, ":", ",", False, False, False)


def encode(answer: Any) -> bytes:
    """An answer of plain data as compact ASCII JSON."""
    return _str_join("", _encoder(answer, 0)).encode("ascii")
