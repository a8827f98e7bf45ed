"""``items_from``, the whole-session read's conversion, gives exactly what ``item_from`` of each
event gives: its shortcut for plain messages must never take an event that is not one."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sqlite_demo.agent_items import event_for_item, item_from, items_from
from tests.agents_sdk.conftest import call, output

TEXT = st.text(max_size=8)
#: Payloads as the store holds them, each made by the way items are stored...
STORED = st.one_of(
    st.builds(lambda role, text: {"role": role, "content": text},
              st.sampled_from(["user", "assistant"]), TEXT),
    st.builds(lambda role, text: {"type": "message", "role": role, "id": "m",
                                  "content": [{"type": "output_text", "text": text}]},
              st.sampled_from(["user", "assistant"]), TEXT),
    st.builds(lambda call_id: call(call_id), TEXT),
    st.builds(lambda call_id, text: output(call_id, text), TEXT, TEXT),
    st.builds(lambda kind: {"type": kind, "id": "r"}, st.sampled_from(["reasoning", "message"])),
).map(event_for_item)  # fmt: skip
#: ...and ones only a hand or an older kit writes: a role that is not the type's, a kept item
#: (null, or beside the role), a role on an event that is no message (the shortcut must leave
#: each to item_from).
WRITTEN = st.sampled_from([
    ("user_message", {"role": "assistant", "content": "said by whom?"}),
    ("assistant_message", {"content": "no role at all"}),
    ("user_message", {"role": "user", "content": "x", "item": None}),
    ("user_message", {"role": "user", "content": "x", "item": {"role": "user", "content": None}}),
    ("tool_call", {"role": None, "call_id": "c", "name": "f", "arguments": "{}"}),
    ("tool_result", {"role": None, "call_id": "c", "content": "42"}),
    ("agent_item", {"role": None, "item": {"type": "reasoning"}}),
])  # fmt: skip


@settings(derandomize=True, max_examples=300)
@given(st.lists(st.one_of(STORED, WRITTEN), max_size=40))
def test_items_from_is_item_from_of_each(facts: list[tuple[str, dict[str, Any]]]) -> None:
    expected = [item_from(kind, copy.deepcopy(payload)) for kind, payload in facts]
    assert items_from(copy.deepcopy(facts)) == expected


def test_a_plain_message_is_its_own_payload_and_anything_else_is_not_taken_as_one() -> None:
    said = {"role": "user", "content": "hi"}
    misread = {"role": None, "call_id": "c", "name": "f", "arguments": "{}"}
    items = items_from([("user_message", said), ("tool_call", misread)])
    assert items[0] is said  # no copy: the caller's own payload, as item_from hands it back
    assert items[1] == {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}
