"""Observing for a digest: learner values as canonical JSON, in C, and what a judge looks at.

In digest mode (see :mod:`.plans`) an answer is not sent: the trusted side already knows
what a correct implementation answers, and only needs to know whether this one answered the
same. So each value is written once, by the C JSON encoder, in a form where two values are
written alike exactly when the contract calls them equal:

* lists and tuples alike (JSON arrays); any mapping as an object with its keys sorted (a
  mapping's order is not part of its value); a ``str`` subclass as its characters, an
  ``int`` or ``float`` subclass as its number;
* ``True`` is not ``1`` and ``1.0`` is not ``1`` (JSON writes ``true``, ``1`` and ``1.0``),
  ``-0.0`` is not ``0.0``;
* a pair of surrogates is written as the character it encodes (``ensure_ascii`` writes both
  as the same ``\\ud83d\\ude42``), a lone surrogate as itself: what the contract says.

What JSON cannot say (NaN, bytes, a set, an object, a cycle, a key that is not a string in
a mapping that is not a dict) makes the value unobservable here, which no correct answer
is: the trusted side then asks for the full answer, observed by :mod:`.observe`, and judges
that. A dict with keys that are numbers would be written like one whose keys are their
text; the trusted side never expects a key that reads as a JSON number or literal in a
digest (those steps are observed in full: see :mod:`grader.engine.bank`).

A step's digest covers what the judge looks at: a value, or that a call raised ValueError
(or something else), or which read a change reached; never an exception's message or a
value's ``repr``, which only a report shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.kernel.capture import (
        _blake2b,
        _encode_string,
        _list_append,
        _make_encoder,
        _MappingProxy,
        _str_encode,
        _str_exact,
        _str_join,
    )
    from grader.kernel.observe import EVENT_FIELDS, Unreadable, is_mapping, items_of

#: Bytes of each step's digest (16 hex characters on the wire).
DIGEST_BYTES = 8


class Unobservable(Exception):
    """A value JSON cannot write: it is not what any correct implementation returns."""


def _mapping_items(value: Any) -> dict[str, Any]:
    """A mapping that is not a dict, as a dict of its items (keys must be text)."""
    if type(value) is _MappingProxy:  # how a frozen payload is usually kept: copied in C
        return dict(value)
    if not is_mapping(value):
        raise Unobservable()
    items = {}
    for key in list(value.keys()):
        if not isinstance(key, str):
            raise Unobservable()
        items[_str_exact(key)] = value[key]
    return items


def _canonical(value: Any) -> str:
    """``value`` as canonical JSON (see the module docstring)."""
    # A fresh encoder for each value: the C encoder keeps no state between calls then, and
    # a cycle ends in a RecursionError rather than in markers left behind by a failed call.
    encoder = _make_encoder(None, _mapping_items, _encode_string, None, ":", ",", True, False,
                            False)  # fmt: skip
    return _str_join("", encoder(value, 0))


def _event(event: Any) -> list[Any]:
    fields: list[Any] = []
    for name in EVENT_FIELDS:
        try:
            _list_append(fields, getattr(event, name))
        except AttributeError:
            raise Unreadable("attribute:" + name, event) from None
    kind = type(fields[3])
    if kind is not dict and kind is not _MappingProxy and not is_mapping(fields[3]):
        raise Unreadable("mapping", event)
    return fields


def seen(value: Any, kind: str) -> str:
    """``value`` observed as ``kind`` (``event``, ``events``, ``list``, ``plain``), as
    canonical JSON; ``"?"`` when it is unobservable here.

    Raises:
        Unreadable: it is not what ``kind`` promises.
    """
    if kind == "event":
        plain: Any = _event(value)
    elif kind == "events":
        items = items_of(value)
        try:
            plain = [_event(item) for item in items]
        except Unreadable as problem:
            raise Unreadable(problem.what, value) from None
    elif kind == "list":
        plain = items_of(value)
    else:
        plain = value
    try:
        return _canonical(plain)
    except (Unobservable, ValueError, TypeError, OverflowError):
        return "?"


def judged_digest(answer: dict[str, Any]) -> str:
    """The digest of what a judge looks at in ``answer``, as hex."""
    digest = _blake2b(digest_size=DIGEST_BYTES)
    if "value" in answer:  # the commonest: canonical JSON is ASCII, hashed as it is
        digest.update(b"v")
        digest.update(_str_encode(answer["value"], "ascii"))
    else:
        digest.update(_str_encode(_judged(answer), "utf-8", "surrogatepass"))
    return digest.hexdigest()


def _judged(answer: dict[str, Any]) -> str:
    if "value" in answer:
        return "v" + str(answer["value"])
    if "events" in answer:
        stop = "" if "stop" not in answer else "!" + str(answer["stop"]) + _judged(answer["answer"])
        return "b[" + ",".join(str(event) for event in answer["events"]) + "]" + stop
    if "raised" in answer:
        return "r1" if answer["raised"].get("value_error") else "r0"
    if "changes" in answer:
        if "stopped" in answer:
            return "m!" + _judged(answer["stopped"])
        return "m" + (str(answer["read"]) if "read" in answer else "")
    if not answer:
        return "o"
    return "x" + ",".join(sorted(str(key) for key in answer))
