"""Values written as text a learner can paste back into Python; shared by both processes.

Two jobs: write the grader's own inputs as Python literals (so a counterexample is a program
that runs), and show what learner code returned without anything that changes between runs
(memory addresses) or floods the screen (huge reprs).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

_ADDRESS = re.compile(r"\s+at\s+0x[0-9a-fA-F]+|0x[0-9a-fA-F]{6,}")
_MAX_SHOWN = 400
#: How much of a long value :func:`show` writes before cutting: well past what is shown.
_SHOWN_BEFORE_CUT = 2 * _MAX_SHOWN
_LONGEST_STRING_SHOWN = 65_536
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
        pairs = (f"{_show(k, depth + 1)}: {_show(v, depth + 1)}" for k, v in value.items())
        return "{" + _enough(pairs) + "}"
    if isinstance(value, list):
        return "[" + _enough(_show(v, depth + 1) for v in value) + "]"
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        inner = _enough(_show(v, depth + 1) for v in value)
        return "(" + inner + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, str):
        # Its literal starts like the literal of its start, and only the start is shown. (Far
        # more than is shown, so that an address-like run sanitize removes cannot matter.)
        return literal(value[:_LONGEST_STRING_SHOWN])
    if isinstance(value, int | float | bool | bytes) or value is None:
        return literal(value)
    return _safe_repr(value)


def _enough(parts: Iterator[str]) -> str:
    """The parts joined by commas, stopping once there is more than :func:`sanitize` keeps.

    Showing a 100 MB list must not cost the child seconds (time it would lose from its own
    deadline) for text that is cut to a few hundred characters anyway. The count skips memory
    addresses, which sanitize removes before it cuts, so what is shown is what it was.
    """
    taken, length = [], 0
    for part in parts:
        taken.append(part)
        length += len(_ADDRESS.sub("", part)) + 2
        if length > _SHOWN_BEFORE_CUT:
            break
    return ", ".join(taken)


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
