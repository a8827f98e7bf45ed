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

The encoder runs as a call through the trampoline (learner code can run inside it: a dict
subclass's ``items``), and writes the plain containers at C speed. What it cannot write
itself (a ``MappingProxyType``, a ``Mapping`` of the learner's own) it leaves as a
placeholder; each is then read by a call of its own (:mod:`.reach`) and written in its place.
What JSON cannot say (NaN, bytes, a set, an object, a cycle, a key that is not text) makes the
value unobservable here, which no correct answer is: the trusted side then asks for the full
answer, observed by :mod:`.observe`, and judges that. A dict with keys that are numbers would
be written like one whose keys are their text; the trusted side never expects a key that reads
as a JSON number or literal in a digest.

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
        _str_encode,
        _str_join,
        _token_nonce,
    )
    from grader.kernel.reach import (
        Reach,
        Unreadable,
        collecting,
        reach_all_fields,
        reach_call,
        reach_fields,
        reach_is_mapping,
        reach_items,
        reach_mapping,
    )

#: Bytes of each step's digest (16 hex characters on the wire).
DIGEST_BYTES = 8
#: The text an unobservable value is written as (no JSON value reads so).
UNOBSERVABLE = "?"
#: How deep placeholders may nest (mappings inside mappings): past any payload's depth.
MAX_NESTED = 250


#: One encoder per nesting depth, each with the list it leaves placeholders in, made when a
#: depth is first reached. Making an encoder costs about as much as writing a small value, and
#: a grade writes tens of thousands; the C encoder keeps no state between calls (no markers:
#: a cycle ends in a RecursionError), so one serves every value at its depth. A mapping left
#: as a placeholder is written one depth down, so the list an outer value's placeholders are
#: still being read from is never the one a nested write fills.
_ENCODERS: list[tuple[list[Any], Any]] = []


def _encoder_at(depth: int) -> tuple[list[Any], Any]:
    while len(_ENCODERS) <= depth:
        found: list[Any] = []
        encoder = _make_encoder(None, collecting(found), _encode_string, None, ":", ",", True,
                                False, False)  # fmt: skip
        _list_append(_ENCODERS, (found, encoder))
    return _ENCODERS[depth]


def _encoded(value: Any, encoder: Any) -> str:
    """``value`` as canonical JSON, what the encoder cannot write left as placeholders in
    its list (made a call of, through the trampoline)."""
    return _str_join("", encoder(value, 0))


def digest_text(value: Any, depth: int = 0) -> Reach:
    """``value`` (plain containers, learner values inside) as canonical JSON."""
    found, encoder = _encoder_at(depth)
    found.clear()  # what an abandoned write left (a step stopped mid-way)
    try:
        text = yield from reach_call(_encoded, value, encoder)
    except Exception:  # NaN, a key that is not text, a cycle: nothing a correct answer holds
        found.clear()
        return UNOBSERVABLE
    if not found:
        return text
    parts = text.split(_quoted_mark())
    written = [parts[0]]
    for part in parts[1:]:
        number, _, rest = part.partition(_quoted_end())
        inner = yield from _written(found[int(number)], depth)
        _list_append(written, inner)
        _list_append(written, rest)
    found.clear()  # the learner's values are held no longer than a fresh list would hold them
    return _str_join("", written)


def _written(value: Any, depth: int) -> Reach:
    """One value the encoder left: a mapping read by a call and written in turn, or
    unobservable."""
    if depth > MAX_NESTED or not (yield from reach_is_mapping(value)):
        return UNOBSERVABLE
    items = yield from reach_mapping(value)
    if not all(isinstance(key, str) for key in items):
        return UNOBSERVABLE
    return (yield from digest_text(items, depth + 1))


def _quoted_mark() -> str:
    """How the encoder writes a placeholder's start (``ensure_ascii`` escapes the mark)."""
    return '"\\ue000' + _token_nonce


def _quoted_end() -> str:
    return '\\ue000"'


def seen(value: Any, kind: str) -> Reach:
    """``value`` observed as ``kind`` (``event``, ``events``, ``list``, ``plain``), as
    canonical JSON.

    Raises:
        Unreadable: it is not what ``kind`` promises.
    """
    if kind == "event":
        return (yield from digest_text((yield from reach_fields(value))))
    if kind == "events":
        try:
            events = yield from reach_all_fields((yield from reach_items(value)))
        except Unreadable as problem:
            raise Unreadable(problem.what, value) from None
        return (yield from digest_text(events))
    if kind == "list":
        return (yield from digest_text((yield from reach_items(value))))
    return (yield from digest_text(value))


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
