"""Task 1's examples at the edges (issue 28): every size of a payload at every power of two and
its neighbours, extra keys named like the event's own fields, JSON arguments with several
keys, lone surrogates in every string an append takes (and at the end of a long result),
long texts alike but for one character, one mapping passed to two appends and changed in
between, and payloads changed after the append where a copy that stops short would leave
the caller's own: 200 levels down, inside tuples of tuples.

Each program is appended once, strictly, and its log probed at the end: a size is met where
append_event copies and stores it, and observed once (a 131,073-character text costs what it
holds every time it is looked at).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from grader.engine import alphabets
from grader.engine.boundaries import boundaries
from grader.engine.checks import add_probes
from grader.engine.oracle import MAX_DEPTH, MAX_INT_DIGITS
from grader.engine.plan import Plan
from grader.engine.programs import WRAPPERS, Append, Block, Program, tagged
from grader.engine.properties import Property

#: The largest of each size (see tests/grader/test_dimensions.py): texts past 2**17, where
#: real buffers and "safety limits" sit (each character costs a grade a few nanoseconds);
#: lists, mappings and ids where copying them still costs little.
LONGEST_TEXT = 131_073
MOST_ITEMS = 4097
LONGEST_ID = 4097
#: The largest int the contract allows: 4,300 digits.
LARGEST_INT = 10**MAX_INT_DIGITS - 1


def ending(length: int, char: str) -> str:
    """A text of ``length`` characters whose last one differs: a text cut short shows."""
    return char * (length - 1) + "!" if length else ""


def _program(*appends: Append) -> Program:
    return tagged(Program(tuple(dict.fromkeys(str(a.session_id) for a in appends)), appends))


def _items() -> Program:
    """A list (or tuple) of each length, its last item telling it apart."""
    return _program(*(
        Append("a", "user_message", {"content": "items", "items": kind([1] * (n - 1) + [n])})
        for number, n in enumerate(boundaries(MOST_ITEMS))
        for kind in [(list, tuple)[number % 2]]
    ))  # fmt: skip


def _keys() -> Program:
    """A payload of each number of keys, passed every way a mapping can be."""
    return _program(*(
        Append("a", "user_message", {"content": "keys", **{str(k): 0 for k in range(1, n)}},
               WRAPPERS[number % len(WRAPPERS)])
        for number, n in enumerate(boundaries(MOST_ITEMS))
    ))  # fmt: skip


def _depths() -> Program:
    """A payload of each depth up to the contract's 200 (itself the first level), through
    lists, tuples and dicts in turn."""
    depths = sorted({*boundaries(MAX_DEPTH), MAX_DEPTH - 1})
    return _program(*(
        Append("a", "user_message", {"content": "deep", "deep": alphabets.nested(
            depth - 1, 0b100100100100, "leaf", 1)} if depth > 1 else {"content": "flat"})
        for depth in depths
    ))  # fmt: skip


def _texts() -> Program:
    """A content of each length, each ending in a character of its own."""
    return _program(*(
        Append("a", "user_message", {"content": ending(n, "x")})
        for n in boundaries(LONGEST_TEXT)
    ))  # fmt: skip


def _session_ids() -> Program:
    """A session of each id length: the ids share a prefix and end differently."""
    return _program(
        *(Append(ending(n, "s"), "user_message", {"content": "hi"}) for n in boundaries(LONGEST_ID))
    )


def _call_ids() -> Program:
    """A call of each id length, the ids one the prefix of the next, answered newest first."""
    ids = ["c" * n for n in boundaries(LONGEST_ID)]
    calls = [
        Append("a", "tool_call", {"call_id": i, "name": "search", "arguments": "{}"}) for i in ids
    ]
    results = [Append("a", "tool_result", {"call_id": i, "content": "ok"}) for i in ids[::-1]]
    return _program(*calls, *results)


def _ints() -> Program:
    """An int of each bit length, positive and negative in turn, up to 4,300 digits."""
    numbers = [
        (1 << (bits - 1)) | 1 if bits < LARGEST_INT.bit_length() else LARGEST_INT
        for bits in boundaries(LARGEST_INT.bit_length())
    ]
    signed = [n if number % 2 else -n for number, n in enumerate(numbers)]
    return _program(
        Append("a", "user_message", {"content": "ints", "ints": signed}),
        Append("a", "user_message", {"content": "ints", "largest": -LARGEST_INT}),
    )


#: Payload keys named like an event's own attributes and a chat message's keys, with values
#: of every kind: stored as extra keys like any other, never taken for the event's fields.
FIELD_NAMES: dict[str, Any] = {
    "event_id": 7, "session_id": "other", "type": "tool_call", "payload": {"content": "inner"},
    "role": "system", "tool_calls": [{"id": "x"}], "tool_call_id": "y", "id": 3,
    "function": {"name": "f", "arguments": "{}"}, "name": ["n"], "arguments": None,
}  # fmt: skip


def _field_named_keys() -> Program:
    call = {"call_id": "c1", "name": "search", "arguments": "{}"}
    message = {k: v for k, v in FIELD_NAMES.items() if k != "arguments"}
    return _program(
        Append("a", "user_message", {**FIELD_NAMES, "content": "hi"}),
        Append("a", "assistant_message", {**FIELD_NAMES, "content": "hi", "call_id": "c9"}),
        Append("a", "tool_call", {**message, "content": "leak", **call}, "proxy"),
        Append("a", "tool_result", {**FIELD_NAMES, "call_id": "c1", "content": "ok"}, "mapping"),
    )


#: Tool arguments with several keys, in spellings json.dumps(json.loads(...)) would change.
JSON_ARGUMENTS = (
    '{"a":1,"b":2}', '{"b": 1, "a": 2}', '{"a": 1, "a": 2}', '{ "x" : 1 , "y" : [ 1 , 2 ] }',
    '{"z": {"b": 1, "a": 2}, "y": null}', '{"é": "\\u00e9", "k": 1.0, "n": 1e3}',
    '{"q": "x", "r": "y"}\n', '{"t": true, "f": false, "n": 10000000000000000000000}',
    # Compact and out of order: what json.dumps(..., separators=(",", ":")) gives back as it
    # came, so that only an order of keys that changed can tell it.
    '{"b":1,"a":2}', '{"z":{"d":1,"c":2},"y":[2,1]}',
)  # fmt: skip


def _json_arguments() -> Program:
    return _program(*(
        Append("a", "tool_call", {"call_id": f"j{n}", "name": "search", "arguments": text})
        for n, text in enumerate(JSON_ARGUMENTS)
    ))  # fmt: skip


def _lone_surrogates() -> Program:
    """A lone surrogate, high and low, in every string an append takes: a payload key, a
    tool's name, its arguments, a result's content; and call ids beside what an encoder
    would turn a lone surrogate into (its backslash escape, "?", U+FFFD, nothing at all),
    each a call of its own. Code that sends a string through UTF-8 (to store it, to key an
    index with it, to make a message "API-safe") refuses it, changes it or takes two ids for
    one; the contract keeps every string as it was given."""

    def call(call_id: str, name: str = "search", arguments: str = "{}") -> Append:
        return Append("a", "tool_call", {"call_id": call_id, "name": name, "arguments": arguments})

    def result(call_id: str, content: str = "ok") -> Append:
        return Append("a", "tool_result", {"call_id": call_id, "content": content})

    return _program(
        Append("a", "user_message",
               {"content": "\udfff", "\udc80": 1, "a\ud800b": ["\ud800"]}),
        call("\ud800", "\ud800", '{"q": "\ud800"}'),
        call("\\ud800"),
        call("?", "\udc80", "\udfff"),
        call("\\udc80", "a\udfffb"),
        call("\ufffd"),
        call("c"),
        call("c\udfff"),
        result("c\udfff", "\ud800"),
        result("\ud800"),
        result("c"),
    )  # fmt: skip


def _texts_alike() -> Program:
    """Long texts of one length that differ in one character only (the last, or one in the
    middle), each in a payload of its own, as a content, a result and an extra value. Code
    that keeps one copy of each long text, keyed by less than the whole text (its length and
    its first 1,024 characters, a hash of a prefix), stores the first for the others."""
    base = "x" * 4097
    alike = (base + "a", base + "b", base[:2048] + "y" + base[2049:] + "a")
    return _program(
        *(Append("a", "user_message", {"content": text}) for text in alike),
        Append("a", "tool_call", {"call_id": "c1", "name": "search", "arguments": "{}"}),
        Append("a", "tool_result", {"call_id": "c1", "content": alike[1], "extra": alike[2]}),
    )


#: A tool's result past 2**15, 2**16 and 2**17 characters, as long as the longest text of TEXTS.
LONG_RESULT_LENGTH = 131_073


def _long_result() -> Program:
    """A tool's result of 131,073 characters ending in a lone surrogate: appended, and (task 4)
    replayed. Code that clips a long output "to fit a model's context", or keeps long texts
    compressed as UTF-8 (a lone surrogate then comes back as "?"), changes it; the contract
    keeps it as given."""
    content = "r" * (LONG_RESULT_LENGTH - 1) + "\ud800"
    return _program(
        Append("a", "tool_call", {"call_id": "c1", "name": "search", "arguments": "{}"}),
        Append("a", "tool_result", {"call_id": "c1", "content": content}),
    )


#: One payload long and wide at once, changed by its caller after the append: a list of 1,025
#: items and a mapping of 1,025 keys, each ending in a list. Code that copies a long list in
#: one step once its first items look flat (past 64, 512 items), or wraps a wide mapping in a
#: view instead of copying it, lets the change reach the log. (ITEMS and KEYS reach those
#: sizes, never changed.)
WIDE_PAYLOAD = _program(
    Append(
        "a",
        "user_message",
        {
            "content": "wide",
            "rows": [0] * 1024 + [[1]],
            "table": {**{str(k): 0 for k in range(1024)}, "last": [1]},
        },
    )
)


def _deep_to_change() -> Program:
    """A payload nested as deep as the contract allows, 200 levels (itself the first), lists
    and dicts in turn, its innermost container a list: changed there by its caller after the
    append, and by a reader of the event. A copy that stops at some depth (past 64, 128 or
    192 levels: "nobody nests a chat payload that deep") keeps the caller's innermost list,
    and the change reaches the log. (DEPTHS reaches every depth, never changed.)"""
    deep: Any = ["leaf"]
    for level in range(MAX_DEPTH - 2):
        deep = [deep] if level % 2 else {"d": deep}
    return _program(Append("a", "user_message", {"content": "deep", "deep": deep}))


#: Tuples holding tuples, the lists and dicts inside them two and three levels down: changed
#: by their caller after the append, and by a reader of the event. Code that keeps a tuple as
#: it is when none of its own items is a list or a dict ("it is immutable already") keeps the
#: caller's list inside the inner tuple.
TUPLES_IN_TUPLES: dict[str, Any] = {
    "content": "tuples",
    "t": ((["x"],), 2),
    "u": (((("k", {"k": ["v"]}),),),),
}


ITEMS, KEYS, DEPTHS, TEXTS = _items(), _keys(), _depths(), _texts()
DEEP_TO_CHANGE = _deep_to_change()
TUPLES_TO_CHANGE = _program(Append("a", "user_message", TUPLES_IN_TUPLES))
SESSION_IDS, CALL_IDS, INTS = _session_ids(), _call_ids(), _ints()
FIELD_NAMED_KEYS, ARGUMENTS_WITH_SEVERAL_KEYS = _field_named_keys(), _json_arguments()
LONE_SURROGATES, TEXTS_ALIKE = _lone_surrogates(), _texts_alike()
LONG_RESULT = _long_result()


def appended_once(plan: Plan, program: Program) -> None:
    """Every append of the program judged against the oracle, then the log probed."""
    log = plan.create()
    for segment in program.segments:
        log = (
            plan.block(log, segment) if isinstance(segment, Block) else plan.append(log, segment)[0]
        )
    add_probes(plan, log)


def same_mapping_twice(plan: Plan, _: object) -> None:
    """One dict passed to two appends, a list inside it emptied in between: the second event
    holds the list as it is then, the first as it was."""
    given = {"content": "same dict", "meta": ["a", "b"]}
    name = plan.make("p", given)
    log, first = plan.append(plan.create(), Append("a", "user_message", given), payload_ref=name)
    own = plan.reads_of(Plan.view, first, "append.caller_payload_copied")
    plan.mutate(name, [["i", "meta"]], ["shallow"], own, "append.caller_payload_copied")
    emptied = Append("a", "user_message", {"content": "same dict", "meta": []})
    log, second = plan.append(log, emptied, payload_ref=name)
    plan.view(first, "append.caller_payload_copied")
    plan.view(second, "append.event_fields")
    add_probes(plan, log)


PAST_THE_MAXIMUM = (ITEMS, KEYS, DEPTHS, TEXTS, SESSION_IDS, CALL_IDS, INTS)
MECHANISMS = (
    FIELD_NAMED_KEYS, ARGUMENTS_WITH_SEVERAL_KEYS, LONE_SURROGATES, TEXTS_ALIKE, LONG_RESULT
)  # fmt: skip
SAME_MAPPING = None  # the example needs no data: its build holds it
PROPERTIES = (
    Property(
        "edges",
        st.nothing(),
        appended_once,
        0,
        (*PAST_THE_MAXIMUM, *MECHANISMS),
        ("append.event_ids", "append.event_fields", "append.accepts_valid"),
    ),
    Property(
        "same_mapping_twice",
        st.nothing(),
        same_mapping_twice,
        0,
        (SAME_MAPPING,),
        ("append.caller_payload_copied", "append.event_fields"),
    ),
)
