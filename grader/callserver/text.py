"""Values written as text a learner can paste back into Python; shared by both processes.

Two jobs: write the grader's own inputs as Python literals (so a counterexample is a program
that runs), and show what learner code returned without anything that changes between runs
(memory addresses) or floods the screen (huge reprs).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

_ADDRESS = re.compile(r"\s+at\s+0x[0-9a-fA-F]+|0x[0-9a-fA-F]{6,}")
_MAX_SHOWN = 400
EVENT_FIELDS = ("event_id", "session_id", "type", "payload")

#: What :func:`show` writes when reading a value fails; the trusted side sends the sentences
#: in the learner's language when it starts the child (see :mod:`.startup`).
FALLBACKS = {
    "reading_raised": "<reading it raised {kind}>",
    "repr_raised": "<{kind} whose repr raised {error}>",
}


def literal(value: Any) -> str:
    """Python source for a value the grader built itself (JSON-like data, bytes, None)."""
    if isinstance(value, str):
        # JSON string escapes are valid Python escapes; double quotes read like the contract.
        return json.dumps(value, ensure_ascii=False)
    if type(value) is dict:
        items = ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items())
        return "{" + items + "}"
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(literal(v) for v in value)
        return "(" + inner + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, Mapping):
        # MappingProxyType({...}) and ReadOnlyMapping({...}) read back as written.
        name = (
            "MappingProxyType" if type(value).__name__ == "mappingproxy" else type(value).__name__
        )
        return f"{name}({literal(dict(value))})"
    return sanitize(repr(value))


def listing(items: list[str], width: int = 80) -> str:
    """A list written on one line when short, else one item per line (easier to compare)."""
    one_line = "[" + ", ".join(items) + "]"
    if len(one_line) <= width or len(items) < 2:
        return one_line
    return multiline(items)


def multiline(items: list[str]) -> str:
    """A list written one item per line, whatever its length."""
    return "[\n" + "".join(f"    {item},\n" for item in items) + "]"


def sanitize(text: str) -> str:
    """Drop memory addresses and cut very long text, so messages are the same on every run."""
    text = _ADDRESS.sub("", text)
    if len(text) > _MAX_SHOWN:
        return text[:_MAX_SHOWN] + " ..."
    return text


def show(value: Any) -> str:
    """Show a value that learner code returned: events by their attributes, the rest as data."""
    return sanitize(_show(value, depth=0))


def _show(value: Any, depth: int) -> str:
    if depth > 6:
        return "..."
    if looks_like_event(value):
        return _show_event(value)
    if isinstance(value, Mapping):
        items = ", ".join(f"{_show(k, depth + 1)}: {_show(v, depth + 1)}" for k, v in value.items())
        return "{" + items + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v, depth + 1) for v in value) + "]"
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        inner = ", ".join(_show(v, depth + 1) for v in value)
        return "(" + inner + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, str | int | float | bool | bytes) or value is None:
        return literal(value)
    return _safe_repr(value)


def looks_like_event(value: Any) -> bool:
    """Has the four attributes of an event (a value that raises when asked has not)."""
    try:
        return all(hasattr(value, name) for name in EVENT_FIELDS)
    except Exception:
        return False


def _show_event(value: Any) -> str:
    parts = []
    for name in EVENT_FIELDS:
        try:
            shown = _show(getattr(value, name), depth=1)
        except Exception as error:
            shown = FALLBACKS["reading_raised"].format(kind=type(error).__name__)
        parts.append(f"{name}={shown}")
    return "Event(" + ", ".join(parts) + ")"


def _safe_repr(value: Any) -> str:
    try:
        return repr(value)
    except Exception as error:
        kind, failed = type(value).__name__, type(error).__name__
        return FALLBACKS["repr_raised"].format(kind=kind, error=failed)
