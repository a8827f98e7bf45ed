"""Hypothesis strategies for the stateful test: valid appends, invalid ones, and keyed retries."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

EVENT_TYPES = ("user_message", "assistant_message", "tool_call", "tool_result")

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=5,
)
# Small pools make sessions and call ids meet again, so reused call ids, results, second
# results and duplicate sessions all happen. A NUL character is legal in both, and a classic
# place for SQL (length(), json_extract) to disagree with Python.
SESSION_NAMES = ("s1", "s2", "s3", "s\x00é")
session_names = st.sampled_from(SESSION_NAMES)
call_ids = st.sampled_from(["c1", "c2", "c\x00", "c\x00x"])
texts = st.text(max_size=8)


@st.composite
def valid_appends(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """An event type and a payload that passes the payload rules (call ids may still clash)."""
    event_type = draw(st.sampled_from(EVENT_TYPES))
    required: dict[str, Any] = {
        "user_message": {"content": draw(texts)},
        "assistant_message": {"content": draw(texts)},
        "tool_call": {
            "call_id": draw(call_ids),
            "name": draw(st.text(min_size=1, max_size=8)),
            "arguments": draw(texts),
        },
        "tool_result": {"call_id": draw(call_ids), "content": draw(texts)},
    }[event_type]
    extras = draw(st.dictionaries(st.text(max_size=4), json_values, max_size=2))
    return event_type, {**extras, **required}


any_event_types = st.sampled_from([*EVENT_TYPES, "system_message", "", "USER_MESSAGE"])
# Payloads the exercise's rules may accept but a durable store cannot keep as they are: it
# refuses them (see durable_only_refusal), whatever the pure reference says.
not_storable_as_json = st.sampled_from(
    [
        {"content": "x", "bad": float("nan")},
        {"content": "x", "bad": {1, 2}},
        {"content": "x", "bad": (1, 2)},
        {"content": "x", "deep": {1: "an int key inside"}},
        {"content": "lone \ud800 surrogate"},
        {1: "a key that is not a string", "content": "x"},
    ]
)
any_payloads = st.one_of(
    st.none(),
    st.integers(),
    st.lists(texts, max_size=2),
    st.dictionaries(st.sampled_from(["content", "call_id", "name", "arguments"]), json_values),
    not_storable_as_json,
)
# Keyed appends draw from a tiny pool, so retries of the same request are common.
keyed_requests = st.sampled_from(
    [
        ("user_message", {"content": "a"}),
        ("user_message", {"content": "b"}),
        ("tool_call", {"call_id": "k", "name": "n", "arguments": "{}"}),
    ]
)


def durable_only_refusal(payload: object) -> bool:
    """Whether a durable store (SQLite or PostgreSQL) must refuse ``payload`` for a reason of
    its own.

    A payload is stored as JSON text, so it must read back exactly as it went in: no value
    JSON lacks (NaN, a set, a tuple), no key that is not a string, at any depth, and only
    text that is valid UTF-8. The exercise does not ask the pure core to refuse these.
    """
    if not isinstance(payload, dict):
        return False
    try:
        text = json.dumps(payload, allow_nan=False, ensure_ascii=False)
        text.encode("utf-8")
    except (TypeError, ValueError):
        return True
    # An int key comes back as a string, a tuple as a list: not equal to what went in.
    return bool(json.loads(text) != payload)
