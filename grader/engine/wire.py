"""Grader-built values as the kernel reads them (see :mod:`grader.kernel.wire`)."""

from __future__ import annotations

import pickle
from collections import defaultdict
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from grader.values import Text


class Ref:
    """A value the kernel keeps under ``name`` (a log, an event, a payload to change)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


def encode(value: Any) -> Any:
    """``value`` for a request: plain data as it is, the rest tagged."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or kind is float or value is None:
        return value
    if kind is dict:
        if all(type(key) is str for key in value):
            return {key: encode(item) for key, item in value.items()}
        # A key that is a subclass of str: marshal sends exact strs only.
        return ("$keyed", [[encode(key), encode(item)] for key, item in value.items()])
    if kind is list:
        return [encode(item) for item in value]
    if kind is tuple:
        return ("$tuple", [encode(item) for item in value])
    if kind is bytes:
        return value
    if isinstance(value, Ref):
        return ("$ref", value.name)
    if isinstance(value, Text):
        return ("$text", str.__str__(value))
    if isinstance(value, defaultdict):
        return ("$defaultdict", encode(dict(value)))
    if isinstance(value, MappingProxyType):
        return ("$proxy", encode(dict(value)))
    if isinstance(value, Mapping):
        return ("$mapping", encode(dict(value)))
    raise TypeError(f"cannot send a {type(value).__name__} to the learner's process")


def blob(value: Any) -> Any:
    """``value`` for a request, plain data pickled whole (``("$p", bytes)``): the kernel makes
    its fresh copy in C, which matters for the large payloads the examples pass (and unlike
    unmarshalling, unpickling plain data raises no audit event for the guard to check)."""
    if _plain(value):
        return ("$p", pickle.dumps(value, protocol=5))
    return encode(value)


def _plain(value: Any) -> bool:
    """Only exact ``dict`` (with text keys), ``list``, ``tuple``, ``str``, ``int``, ``float``,
    ``bool`` and ``None``: what pickle writes and reads back as it was, running no code."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or kind is float or value is None:
        return True
    if kind is dict:
        return all(type(key) is str and _plain(item) for key, item in value.items())
    if kind is list or kind is tuple:
        return all(_plain(item) for item in value)
    return False


def wrapped(payload: dict[str, Any], wrapper: str) -> Any:
    """The payload as ``wrapper`` says to pass it (see :data:`grader.engine.programs.WRAPPERS`)."""
    if wrapper == "proxy":
        return ("$proxy", blob(payload))
    if wrapper == "mapping":
        return ("$mapping", blob(payload))
    if wrapper == "defaultdict":
        return ("$defaultdict", blob(payload))
    return blob(payload)
