"""Programs of valid appends: what every example is built on.

A program is a list of *segments*: single appends, drawn one by one, and *blocks*, runs of
appends a transcript writes as one loop (150 messages in a session, a run of 40 tool calls
and their results). Blocks are how examples reach the sizes where bugs live (ids past 9, 99,
255 and 999, windows and caches of N entries) and still read as a few lines when they fail.

A program is drawn as independent *intents* (which session, which kind, which texts) and
only then made concrete by walking the model log, so that every append is valid: a result
answers an open call, a call uses an id its session has not used. Lists of independent
intents shrink well: hypothesis deletes them and simplifies each towards its first option,
so a failure shrinks to a program of one or two appends, or to one block as short as the bug
allows.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from grader.engine import alphabets
from grader.engine.alphabets import ints
from grader.engine.oracle import OPEN, REQUIRED_KEYS, TOOL_TYPES, UNUSED, ModelLog
from grader.values import Text

KINDS = ("user_message", "assistant_message", "tool_call", "tool_result")
#: How a payload is passed: a dict, a ``types.MappingProxyType`` over one, a read-only
#: ``Mapping`` that is not a dict (the contract says "any mapping"), or a
#: ``defaultdict(str)``, where a missing key reads as "" instead of raising KeyError.
WRAPPERS = ("dict", "proxy", "mapping", "defaultdict")
#: Block patterns: a loop of messages in one session, a loop alternating between sessions,
#: a run of tool calls (answered in order, in reverse, or not at all), call-and-result pairs.
PATTERNS = ("filler", "alternate", "calls", "calls_answered", "calls_reversed", "pairs")
#: A loop that opens a new session each round (``f"{session}{i}"``): for lists of sessions.
SPREAD = "spread"


@dataclass(frozen=True)
class Append:
    """One valid append; ``features`` names its valid-but-unusual traits (see
    :func:`features_of`), ``wrapper`` how its payload is passed."""

    session_id: str
    event_type: str
    payload: dict[str, Any]
    wrapper: str = "dict"
    features: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Block:
    """``count`` rounds of a pattern; :meth:`appends` spells out every append."""

    pattern: str
    count: int
    sessions: tuple[str, ...]
    label: str  # call ids are f"{label}_{i}": unique to the block

    def call_id(self, number: int) -> str:
        return f"{self.label}_{number}"

    def appends(self) -> list[Append]:
        session = self.sessions[0]
        if self.pattern == "filler":
            return [_message(session, "x") for _ in range(self.count)]
        if self.pattern == "alternate":
            return [_message(self.sessions[i % len(self.sessions)], "x") for i in range(self.count)]
        if self.pattern == SPREAD:
            return [_message(f"{session}{i}", "x") for i in range(self.count)]
        if self.pattern == "pairs":
            return [
                append
                for i in range(self.count)
                for append in (_call(session, self.call_id(i)), _result(session, self.call_id(i)))
            ]
        calls = [_call(session, self.call_id(i)) for i in range(self.count)]
        order = (
            range(self.count) if self.pattern != "calls_reversed" else range(self.count - 1, -1, -1)
        )
        answers = [_result(session, self.call_id(i)) for i in order]
        return calls if self.pattern == "calls" else calls + answers


def _message(session: str, content: str) -> Append:
    return Append(session, "user_message", {"content": content})


def _call(session: str, call_id: str) -> Append:
    return Append(session, "tool_call", {"call_id": call_id, "name": "search", "arguments": "{}"})


def _result(session: str, call_id: str) -> Append:
    return Append(session, "tool_result", {"call_id": call_id, "content": "ok"})


Segment = Append | Block


def flatten(program: list[Segment]) -> list[Append]:
    """Every append of a program, in order."""
    appends: list[Append] = []
    for segment in program:
        appends += segment.appends() if isinstance(segment, Block) else [segment]
    return appends


# --- drawing programs ----------------------------------------------------------------------
@dataclass(frozen=True)
class Style:
    """What a task's programs may hold.

    Attributes:
        kinds: the menu of event kinds (repeat one to draw it more often).
        singles: the most single appends.
        blocks: the most blocks; 0 for none.
        patterns: the block patterns allowed.
        longest: the largest block count.
        sessions: the most sessions in a family.
        wrappers: how payloads may be passed.
        odd: draw unusual texts, ids, extras and arguments (else plain ones only).
        deep: extras may nest 60 deep.
        light: cut texts and extra values short after drawing them (see
            :func:`grader.engine.alphabets.lightened`), for a task that never reads payloads
            back: the same examples, without kilobytes of text observed for nothing.
        narrow: cut extra values to a few items per level (texts stay whole), for a task
            that reads payloads back but never copies them: a value 300 wide at every level
            costs its copy and its reading and checks nothing a narrow one does not.
    """

    kinds: tuple[str, ...] = KINDS
    singles: int = 8
    blocks: int = 1
    patterns: tuple[str, ...] = PATTERNS
    longest: int = 300
    sessions: int = 4
    wrappers: tuple[str, ...] = WRAPPERS
    odd: bool = True
    deep: bool = False
    light: bool = False
    narrow: bool = False


@dataclass(frozen=True)
class Intent:
    """The choices behind one future single append, independent of every other one."""

    session: int
    kind: str
    text: str
    other: int
    extras: dict[str, Any]
    pick: int
    wrapper: str
    text_session: bool = False
    #: Cut the arguments short too (see :attr:`Style.light`).
    light: bool = False


@dataclass(frozen=True)
class BlockIntent:
    """The choices behind one future block."""

    pattern: str
    count: int
    session: int


@st.composite
def intents(draw: st.DrawFn, style: Style) -> Intent:
    """One single append's choices, in few draws (each costs hypothesis the same): one for
    the kind and the session (the kind the lowest digit), one for the small details (which
    call, which name and arguments, how the payload is passed), then the text and extras."""
    where = draw(ints(0, len(style.kinds) * style.sessions - 1))
    session, kind = divmod(where, len(style.kinds))
    details = draw(ints(0, 8 * 64 * len(style.wrappers) * 16 - 1))
    details, pick = divmod(details, 8)
    details, other = divmod(details, 64)
    subclass, wrapper = divmod(details, len(style.wrappers))
    odd = style.odd
    text = alphabets.draw_text(draw) if odd else "hi"
    extras = draw(alphabets.extras_of(style.deep)) if odd else {}
    if style.light:
        text = alphabets.lightened(text)
    if style.light or style.narrow:
        extras = alphabets.lightened(extras, cut_texts=style.light)
    return Intent(
        session=session,
        kind=style.kinds[kind],
        text=text,
        other=other if odd else 0,
        extras=extras,
        pick=pick,
        wrapper=style.wrappers[wrapper],
        text_session=odd and subclass == 15,
        light=style.light,
    )


@st.composite
def block_intents(draw: st.DrawFn, style: Style) -> BlockIntent:
    """One block's choices: its count mostly small, sometimes in the hundreds."""
    bucket = draw(ints(0, 9))
    if bucket < 5:
        count = draw(ints(1, 12))
    elif bucket < 8:
        count = draw(ints(12, max(12, style.longest // 4)))
    else:
        count = draw(ints(max(12, style.longest // 4), style.longest))
    return BlockIntent(
        pattern=style.patterns[draw(alphabets.index(style.patterns))],
        count=count,
        session=draw(ints(0, style.sessions - 1)),
    )


@dataclass(frozen=True)
class Program:
    """The sessions an example uses, and its segments (valid, in order)."""

    family: tuple[str, ...]
    segments: tuple[Segment, ...]

    def appends(self) -> list[Append]:
        return flatten(list(self.segments))


@functools.cache
@functools.cache
def _parts(style: Style, least: int) -> tuple[st.SearchStrategy[Any], ...]:
    # Strategies are built once per style: hypothesis validates every new strategy object,
    # which costs more than the draws themselves.
    family = (
        alphabets.session_family(style.sessions)
        if style.odd
        else st.just(["a", "b", "c"][: style.sessions])
    )
    singles = st.lists(intents(style), min_size=least, max_size=style.singles)
    parts = (family, singles, st.integers(0, style.blocks), block_intents(style))
    return tuple(alphabets.unwrapped(part) for part in parts)


@functools.cache
def intents_of(style: Style) -> st.SearchStrategy[Intent]:
    """:func:`intents`, built once for each style."""
    return alphabets.unwrapped(intents(style))


@functools.cache
def programs_of(style: Style, least: int = 0) -> st.SearchStrategy[Program]:
    """:func:`programs`, built once for each style."""
    return alphabets.unwrapped(programs(style, least))


@st.composite
def programs(draw: st.DrawFn, style: Style = Style(), least: int = 0) -> Program:
    """A program: a session family, then singles and blocks in any order."""
    family_strategy, singles, block_count, blocks = _parts(style, least)
    family = draw(family_strategy)
    items: list[Intent | BlockIntent] = draw(singles)
    for _ in range(draw(block_count)):
        at = draw(ints(0, len(items)))
        items.insert(at, draw(blocks))
    return materialise(family, items)


def session_of(segment: Segment) -> str:
    """The session a segment writes to (a block's first, when it writes to several)."""
    return segment.sessions[0] if isinstance(segment, Block) else segment.session_id


def materialise(family: list[str], items: list[Intent | BlockIntent]) -> Program:
    """Turn intents into valid segments, walking the model log to keep call ids paired."""
    model = ModelLog()
    segments: list[Segment] = []
    for item in items:
        if isinstance(item, BlockIntent):
            block = _block(family, item, len(segments))
            model = model.extend(block.appends())
            segment: Segment = block
        else:
            segment = single_on(family, item, model)
            assert model.refusal(segment.session_id, segment.event_type, segment.payload) is None
            model, _ = model.append(segment.session_id, segment.event_type, segment.payload)
        segments.append(segment)
    return Program(tuple(family), tuple(segments))


def _block(family: list[str], item: BlockIntent, number: int) -> Block:
    session = family[item.session % len(family)]
    sessions = tuple(family) if item.pattern == "alternate" else (session,)
    return Block(item.pattern, item.count, sessions, f"loop{number}")


def single_on(family: list[str], intent: Intent, model: ModelLog) -> Append:
    """The valid append ``intent`` makes on ``model``."""
    session = family[intent.session % len(family)]
    if intent.text_session:
        session = Text(session)
    kind = intent.kind
    open_calls = model.calls_in(session, OPEN)
    if kind == "tool_result" and not open_calls:
        kind = "tool_call"  # nothing to answer yet: call something instead
    if kind == "tool_call":
        arguments = alphabets.ARGUMENTS[intent.other % len(alphabets.ARGUMENTS)]
        required = {
            "call_id": _new_call_id(model, session, intent.pick),
            "name": alphabets.NAMES[intent.other % len(alphabets.NAMES)],
            "arguments": alphabets.lightened(arguments) if intent.light else arguments,
        }
    elif kind == "tool_result":
        required = {"call_id": open_calls[intent.pick % len(open_calls)], "content": intent.text}
    else:
        required = {"content": intent.text}
    payload = {**intent.extras, **required}
    append = Append(session, kind, payload, intent.wrapper)
    return Append(session, kind, payload, intent.wrapper, features_of(model, append))


def _new_call_id(model: ModelLog, session: str, pick: int) -> str:
    """A call id the session has not used: often one another session used, or a twin (by
    case, space or Unicode form) of one this session did use."""
    used_here = {call for (owner, call) in model.calls if owner == session}
    elsewhere = [
        call for (owner, call) in model.calls if owner != session and call not in used_here
    ]
    candidates = [
        *(elsewhere[:1] if pick in (1, 2) else []),
        *([alphabets.CALL_IDS[pick + 3]] if pick >= 3 else []),
        *(alphabets.TWINS[pick % len(alphabets.TWINS)](call) for call in sorted(used_here)[:1]),
    ]
    for candidate in candidates:
        if candidate and candidate not in used_here:
            return candidate
    number = 1
    while f"call_{number}" in used_here:
        number += 1
    return f"call_{number}"


def _any_text_subclass(values: Iterable[Any]) -> bool:
    return any(isinstance(value, str) and type(value) is not str for value in values)


def features_of(model: ModelLog, append: Append) -> tuple[str, ...]:
    """The valid-but-unusual traits of one append on ``model`` (promise sub-ids)."""
    payload, kind, session = append.payload, append.event_type, append.session_id
    checks = (
        ("mapping_payload", append.wrapper != "dict"),
        ("text_subclass", _any_text_subclass((session, kind, *payload.values()))),
        (
            "unusual_session_id",
            not session.isascii() or not session.isprintable() or session != session.strip(),
        ),
        ("empty_content", payload.get("content") == ""),
        ("unusual_text", _unusual(payload.get("content", ""))),
        ("long_text", len(str(payload.get("content", ""))) > 4096),
        ("arguments_not_json", kind == "tool_call" and not _is_json(payload["arguments"])),
        ("unusual_call_id", kind in TOOL_TYPES and _unusual(payload["call_id"], spaces=True)),
        ("unusual_name", kind == "tool_call" and _unusual(payload["name"], spaces=True)),
        (
            "shared_call_id",
            kind == "tool_call" and _called_elsewhere(model, session, payload["call_id"]),
        ),
        (
            "result_after_gap",
            kind == "tool_result" and _gap_before(model, session, payload["call_id"]),
        ),
        ("extra_keys", bool(set(payload) - set(REQUIRED_KEYS[kind]))),
    )
    return tuple(name for name, present in checks if present)


def _unusual(text: Any, spaces: bool = False) -> bool:
    text = str(text)
    return not text.isascii() or not text.isprintable() or (spaces and " " in text)


def _is_json(text: str) -> bool:
    import json

    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _called_elsewhere(model: ModelLog, session: str, call_id: str) -> bool:
    return any(owner != session and call == call_id for (owner, call) in model.calls)


def _gap_before(model: ModelLog, session: str, call_id: str) -> bool:
    """Whether anything came between the call ``call_id`` and its result: the session's last
    event is not that call (another call counts: a result may follow a run of calls)."""
    own = model.events_for(session)
    last = own[-1] if own else None
    return last is not None and not (
        last.type == "tool_call" and last.payload["call_id"] == call_id
    )


def fresh_call_id(model: ModelLog, session: str) -> str:
    """The first ``call_N`` the session has not used."""
    number = 1
    while model.call_state(session, f"call_{number}") != UNUSED:
        number += 1
    return f"call_{number}"


def tagged(program: Program) -> Program:
    """``program`` with every single append's unusual traits named (for hand-written ones)."""
    model, segments = ModelLog(), []
    for segment in program.segments:
        if isinstance(segment, Append):
            segment = Append(
                segment.session_id,
                segment.event_type,
                segment.payload,
                segment.wrapper,
                features_of(model, segment),
            )
            model, _ = model.append(segment.session_id, segment.event_type, segment.payload)
        else:
            model = model.extend(segment.appends())
        segments.append(segment)
    return Program(program.family, tuple(segments))


def sweep(light: bool = False) -> Program:
    """One program that holds every entry of every alphabet at least once: each session id
    base (and a subclass of str), each text as a message's content and a result's, each call
    id, tool name and arguments, each extra key with a value nested 150 deep, each way to pass
    a payload. The boundary programs of several tasks start from it: hypothesis draws small
    indices far more often than large ones, so a rare entry is not left to chance.

    Each append holds one unusual thing only, so that an append refused for it names it.

    ``light``: texts and arguments cut short (:func:`alphabets.lightened`), for the readers'
    tasks and the caller's changes: what they return is what append_event stored (a text is
    immutable: its length changes nothing a caller can do), and the task about storing it
    sees the long ones; observing 150 kB of text at every read would check nothing more."""

    def cut(value: Any) -> Any:
        return alphabets.lightened(value) if light else value

    wrappers = WRAPPERS
    appends: list[Append] = []
    for session in alphabets.SESSION_BASES:
        appends.append(Append(session, "user_message", {"content": "hi"}))
    appends.append(Append(Text("a"), "assistant_message", {"content": "hi"}))
    appends.append(Append("a", "assistant_message", {"content": Text("subclass")}))
    for number, text in enumerate(alphabets.TEXTS):
        kind = "user_message" if number % 2 else "assistant_message"
        appends.append(Append("a", kind, {"content": cut(text)}))
    for number, key in enumerate(alphabets.EXTRA_KEYS):
        extra = {key: alphabets.nested(number % 7, number, "v", 2)}
        appends.append(Append("a", "user_message", {**extra, "content": "hi"}))
    for number, wrapper in enumerate(wrappers[1:]):
        appends.append(Append("a", "user_message", {"content": f"wrapped {number}"}, wrapper))
    for call_id in alphabets.CALL_IDS:
        appends.append(_call("a", call_id))
    for number, name in enumerate(alphabets.NAMES):
        appends.append(
            Append("a", "tool_call", {"call_id": f"n{number}", "name": name, "arguments": "{}"})
        )
    for number, arguments in enumerate(alphabets.ARGUMENTS):
        appends.append(
            Append(
                "b",
                "tool_call",
                {"call_id": f"b{number}", "name": "search", "arguments": cut(arguments)},
            )
        )
    for call_id in alphabets.CALL_IDS[::2]:
        appends.append(_result("a", call_id))
    for number, text in enumerate(alphabets.TEXTS):
        appends.append(_call("c", f"t{number}"))
        appends.append(Append("c", "tool_result", {"call_id": f"t{number}", "content": cut(text)}))
    deep = {
        "deep": alphabets.nested(150, 0b011011, "leaf", 2),
        "wide": alphabets.nested(2, 0, 1, 300),
        "long": list(range(1100)),
    }
    appends.append(Append("b", "user_message", {**deep, "content": "deep"}))
    family = tuple(dict.fromkeys([*alphabets.SESSION_BASES, "a", "b", "c"]))
    return tagged(Program(family, tuple(appends)))
