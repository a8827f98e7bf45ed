"""Hypothesis strategies: short programs of valid appends, and single bad appends.

A program is drawn as a list of *intents* (which session, which kind of event, which text)
that do not depend on each other, and only then turned into concrete appends by walking the
oracle log. Lists of independent intents shrink well (hypothesis deletes and simplifies
items), so a failure shrinks to a program of one or two appends.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from grader.oracle import EVENT_TYPES, ModelLog

NAMES = ("get_weather", "query_order_count", "search")
# Arguments are stored as given: compact, unsorted, padded or escaped JSON must come back to
# the letter, so an implementation that re-serialises it (json.dumps(json.loads(...))) is caught.
ARGUMENTS = ("{}", '{"city": "Paris"}', '{"n":1}', '{"b": 2, "a": 1}', ' {"q": "\\u4e2d"}\n')
ODD_ARGUMENTS = ("", "not json", "{", "[1,")
# Fixed menus instead of free text: one draw per field keeps generation fast (the whole grade
# has a budget of a few seconds) and counterexamples readable, while still covering the cases
# that matter: empty text, quotes, newlines, non-ASCII, nested extra values.
TEXTS = ("hi", "", "hello", "a b", "é中🙂", 'say "hi"\n', "42", "ok")
EXTRAS_MENU: tuple[dict[str, Any], ...] = (
    {},
    {"lang": "en"},
    {"meta": {"k": [1, 2]}},
    {"tags": ["x", "y"], "n": 3},
    {"meta": {"nested": {"deep": [True, None]}}},
)


@dataclass(frozen=True)
class Style:
    """What a program may contain."""

    sessions: tuple[str, ...] = ("a", "b", "c")
    kinds: tuple[str, ...] = EVENT_TYPES
    max_appends: int = 8
    extras: bool = True
    odd_arguments: bool = True
    shared_call_ids: bool = True
    #: How payloads are passed: a plain ``dict``, a ``proxy`` (types.MappingProxyType) or a
    #: ``mapping`` (a read-only Mapping that is no dict): the contract says "a mapping".
    wrappers: tuple[str, ...] = ("dict",)


@dataclass(frozen=True)
class Append:
    """One valid append; ``unusual`` names the valid-but-unusual features it has."""

    session_id: str
    event_type: str
    payload: dict[str, Any]
    unusual: tuple[str, ...] = field(default=(), compare=False)
    wrapper: str = field(default="dict", compare=False)


@dataclass(frozen=True)
class Intent:
    """The choices behind one future append, independent of every other append."""

    session_id: str
    kind: str
    text: str
    other_text: str
    extras: dict[str, Any]
    pick: int
    wrapper: str = "dict"


def intents(style: Style) -> st.SearchStrategy[Intent]:
    """One independent choice per future append, drawn as two integers.

    Each draw costs hypothesis a fixed overhead, and a whole grade has a budget of seconds, so
    choices share integers as mixed-radix digits: one integer for the kind and the session
    (the kind the lowest digit), one for the details (text, arguments, extras, which call to
    answer). Shrinking can then simplify the details without touching the kind or session,
    and every choice shrinks towards its first, simplest option.
    """
    menus = _menus(style)
    return st.builds(
        _intent,
        st.integers(0, _size(menus[:2]) - 1),
        st.integers(0, _size(menus[2:]) - 1),
        st.just(style),
    )


def _size(menus: tuple[tuple[Any, ...], ...]) -> int:
    size = 1
    for menu in menus:
        size *= len(menu)
    return size


def _digits(number: int, menus: tuple[tuple[Any, ...], ...]) -> list[Any]:
    chosen = []
    for menu in menus:
        number, index = divmod(number, len(menu))
        chosen.append(menu[index])
    return chosen


def _menus(style: Style) -> tuple[tuple[Any, ...], ...]:
    arguments = ARGUMENTS + (ODD_ARGUMENTS if style.odd_arguments else ())
    extras = EXTRAS_MENU if style.extras else ({},)
    return (style.kinds, style.sessions, TEXTS, arguments, extras, tuple(range(4)), style.wrappers)


def _intent(where: int, details: int, style: Style) -> Intent:
    menus = _menus(style)
    kind, session = _digits(where, menus[:2])
    text, other_text, extras, pick, wrapper = _digits(details, menus[2:])
    return Intent(session, kind, text, other_text, extras, pick, wrapper)


def programs(style: Style = Style(), min_appends: int = 0) -> st.SearchStrategy[list[Append]]:
    """Programs of valid appends, as the oracle checks them."""
    intent_lists = st.lists(intents(style), min_size=min_appends, max_size=style.max_appends)
    return intent_lists.map(lambda items: materialise(items, style))


def materialise(items: list[Intent], style: Style) -> list[Append]:
    """Turn intents into valid appends, walking the oracle log to keep call ids paired."""
    model, appends = ModelLog(), []
    for intent in items:
        append = _append_for(intent, model, style)
        assert model.refusal(append.session_id, append.event_type, append.payload) is None
        model, _ = model.append(append.session_id, append.event_type, append.payload)
        appends.append(append)
    return appends


def _append_for(intent: Intent, model: ModelLog, style: Style) -> Append:
    session = intent.session_id
    kind = intent.kind
    open_calls = model.open_calls(session)
    if kind == "tool_result" and not open_calls:
        kind = "tool_call"  # nothing to answer yet: call something instead
    if kind == "tool_call":
        payload = {
            "call_id": _new_call_id(model, session, intent.pick, style),
            "name": NAMES[intent.pick % len(NAMES)],
            "arguments": intent.other_text,
        }
    elif kind == "tool_result":
        call_id = open_calls[intent.pick % len(open_calls)]
        payload = {"call_id": call_id, "content": intent.text}
    else:
        payload = {"content": intent.text}
    payload = {**copy.deepcopy(intent.extras), **payload}
    unusual = unusual_features(model, session, kind, payload, intent.wrapper)
    return Append(session, kind, payload, unusual, intent.wrapper)


def _new_call_id(model: ModelLog, session: str, pick: int, style: Style) -> str:
    used_here = set(model.used_call_ids(session))
    if style.shared_call_ids:
        # A small pool, so the same id often shows up in two sessions.
        pool = [f"call_{n}" for n in range(1, 4)]
        free = [call_id for call_id in pool if call_id not in used_here]
        if free:
            return free[pick % len(free)]
    used_anywhere = {e.payload["call_id"] for e in model.events if e.type == "tool_call"}
    number = 1
    while f"call_{number}" in used_anywhere | used_here:
        number += 1
    return f"call_{number}"


def unusual_features(
    model: ModelLog, session: str, kind: str, payload: dict[str, Any], wrapper: str = "dict"
) -> tuple[str, ...]:
    """Names of the valid-but-unusual features of one append (keys of ``messages.ACCEPT``)."""
    checks: list[tuple[str, Callable[[], bool]]] = [
        ("mapping_payload", lambda: wrapper != "dict"),
        ("unusual_session_id", lambda: session != session.strip() or not session.isascii()),
        ("empty_content", lambda: payload.get("content") == ""),
        ("arguments_not_json", lambda: kind == "tool_call" and not _is_json(payload["arguments"])),
        (
            "shared_call_id",
            lambda: kind == "tool_call" and _called_elsewhere(model, session, payload),
        ),
        (
            "result_after_gap",
            lambda: kind == "tool_result" and _gap_before(model, session),
        ),
        ("extra_keys", lambda: bool(set(payload) - {"content", "call_id", "name", "arguments"})),
        ("unusual_text", lambda: not str(payload.get("content", "")).isascii()),
    ]
    return tuple(name for name, check in checks if check())


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _called_elsewhere(model: ModelLog, session: str, payload: dict[str, Any]) -> bool:
    return any(
        e.type == "tool_call"
        and e.session_id != session
        and e.payload["call_id"] == payload["call_id"]
        for e in model.events
    )


def _gap_before(model: ModelLog, session: str) -> bool:
    previous = model.events_for(session)[-1]
    return previous.type not in ("tool_call", "tool_result")


def tagged(appends: list[tuple[Any, ...]]) -> list[Append]:
    """Appends from (session, type, payload[, wrapper]) tuples, each tagged with its unusual
    features; the wrapper says how the payload is passed (see :class:`Style`)."""
    model, tagged_appends = ModelLog(), []
    for session, event_type, payload, *wrapper in appends:
        assert model.refusal(session, event_type, payload) is None
        how = wrapper[0] if wrapper else "dict"
        tags = unusual_features(model, session, event_type, payload, how)
        tagged_appends.append(Append(session, event_type, payload, tags, how))
        model, _ = model.append(session, event_type, payload)
    return tagged_appends
