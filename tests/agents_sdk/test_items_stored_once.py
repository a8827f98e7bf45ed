"""Each item's text is stored once, and every way an item was ever stored reads back as it was."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from sqlite_demo import EventLogSession, SqliteEventStore
from tests.agents_sdk.conftest import call, output

TEXT = "You have 42 orders, and 5 of them have shipped."
ANSWER = {
    "id": "msg_1",
    "content": [{"annotations": [], "text": TEXT, "type": "output_text"}],
    "role": "assistant",
    "status": "completed",
    "type": "message",
}
KINDS = {
    "a user's input, as the SDK's runner makes it": {"content": TEXT, "role": "user"},
    "a model's answer of one text part": ANSWER,
    "a call whose arguments are long": call("c1", name="lookup") | {"arguments": TEXT},
    "a call's output": output("c1", TEXT),
    "an output of one text part": {"type": "function_call_output", "call_id": "c1",
                                   "output": [{"type": "input_text", "text": TEXT}]},
}  # fmt: skip


def _stored_payloads(store: SqliteEventStore) -> list[str]:
    rows = store._fetch_all("SELECT payload FROM events WHERE session_id = 'chat'")
    return [payload for (payload,) in rows]


@pytest.mark.parametrize("item", KINDS.values(), ids=KINDS.keys())
def test_the_text_of_each_kind_of_item_is_stored_once_and_read_back_whole(
    store: SqliteEventStore, session: EventLogSession, item: dict[str, Any]
) -> None:
    items = (
        [call("c1", name="lookup"), item] if item.get("type") == "function_call_output" else [item]
    )
    asyncio.run(session.add_items(items))

    assert sum(payload.count(TEXT) for payload in _stored_payloads(store)) == 1
    got = asyncio.run(session.get_items())
    assert got == items and json.dumps(got) == json.dumps(items)  # in order, key for key


@pytest.mark.parametrize(
    "part",
    [
        {"type": "output_text", "text": None},  # no text: its mark is the content
        {"type": "output_text", "text": "[output_text]"},  # a text that is its own mark
        {"type": "refusal", "refusal": "no"},
        {"type": "output_text"},
    ],
)
def test_a_one_part_answer_reads_back_as_it_was_whatever_its_text(
    session: EventLogSession, part: dict[str, Any]
) -> None:
    answer = {"role": "assistant", "type": "message", "content": [part]}
    asyncio.run(session.add_items([answer]))
    assert asyncio.run(session.get_items()) == [answer]


def test_items_stored_whole_by_an_earlier_kit_read_back_as_they_were(
    store: SqliteEventStore, session: EventLogSession
) -> None:
    store.create_session("chat", session_id="chat")
    whole = [
        ("user_message", {"content": "hi", "item": {"role": "user", "content": "hi"}}),
        ("assistant_message", {"content": TEXT, "item": ANSWER}),
        ("tool_call", {"call_id": "c1", "name": "n", "arguments": "{}", "item": call("c1", "n")}),
    ]
    store.append_events("chat", whole)
    assert asyncio.run(session.get_items()) == [payload["item"] for _, payload in whole]


def test_events_the_agent_service_wrote_read_as_the_items_their_fields_make(
    store: SqliteEventStore, session: EventLogSession
) -> None:
    store.create_session("chat", session_id="chat")
    store.append_events(
        "chat",
        [
            ("user_message", {"content": "how many?"}),
            ("tool_call", {"call_id": "c1", "name": "count", "arguments": "{}"}),
            ("tool_result", {"call_id": "c1", "content": "42"}),
            ("assistant_message", {"content": "42."}),
        ],
    )
    assert asyncio.run(session.get_items()) == [
        {"role": "user", "content": "how many?"},
        {"type": "function_call", "call_id": "c1", "name": "count", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "42"},
        {"role": "assistant", "content": "42."},
    ]
