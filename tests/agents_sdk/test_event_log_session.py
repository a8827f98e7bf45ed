"""EventLogSession over the store: what add_items took, get_items gives back, and every reader
honours what pop_item and clear_session appended."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from typing import Any, get_args

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventlog import STORE_EVENT_TYPES, InvalidPayloadError
from sqlite_demo import EventLogSession, SqliteEventStore
from sqlite_demo.service.api_schema import EventType
from tests.agents_sdk.conftest import call, output, said

ANSWER = {
    "type": "message",
    "role": "assistant",
    "id": "msg_1",
    "status": "completed",
    "content": [{"type": "output_text", "text": "You have 42 orders.", "annotations": []}],
}
REASONING = {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "…"}]}
TURN = [said("user", "how many orders?"), REASONING, call("c1"), output("c1"), ANSWER]

json_numbers = st.integers() | st.floats(allow_nan=False, allow_infinity=False)
json_values = st.recursive(
    st.none() | st.booleans() | json_numbers | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=12,
)
items = st.dictionaries(st.sampled_from(["type", "role", "content", "call_id", "output",
                                         "name", "arguments", "id"]) | st.text(),
                        json_values, max_size=6)  # fmt: skip


def types_in(store: SqliteEventStore) -> list[str]:
    return [event.type for event in store.get_events_for_session("chat")]


# No deadline and no too_slow check: each example is a real SQLite transaction, and on a
# shared machine under load its time says nothing about the adapter.
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(batch=st.lists(items, min_size=1, max_size=4))
def test_what_add_items_took_get_items_gives_back_key_for_key(
    session: EventLogSession, batch: list[dict[str, Any]]
) -> None:
    before = asyncio.run(session.get_items())
    asyncio.run(session.add_items(batch))
    got = asyncio.run(session.get_items())
    assert got == before + batch
    # Equal is not enough: 1 == 1.0 == True. The JSON texts must match too.
    assert json.dumps(got[len(before) :]) == json.dumps(batch)


def test_the_chapters_four_kinds_fill_the_projections_and_other_kinds_are_kept_whole(
    store: SqliteEventStore, session: EventLogSession
) -> None:
    asyncio.run(session.add_items(TURN))
    assert types_in(store) == ["user_message", "agent_item", "tool_call", "tool_result",
                               "assistant_message"]  # fmt: skip
    assert [(row.role, row.content) for row in store.get_messages("chat")] == [
        ("user", "how many orders?"),
        ("assistant", "You have 42 orders."),
    ]
    assert [(row.call_id, row.result) for row in store.get_tool_calls("chat")] == [("c1", "42")]
    assert [message["role"] for message in store.replay_session("chat")] == [
        "user", "assistant", "tool", "assistant"]  # fmt: skip


def test_pop_item_appends_a_removal_that_every_reader_honours(
    store: SqliteEventStore, session: EventLogSession
) -> None:
    asyncio.run(session.add_items(TURN))
    assert asyncio.run(session.pop_item()) == ANSWER
    assert asyncio.run(session.pop_item()) == output("c1")
    assert asyncio.run(session.get_items()) == TURN[:3]
    assert [message["role"] for message in store.replay_session("chat")] == ["user", "assistant"]
    assert [row.role for row in store.get_messages("chat")] == ["user"]
    assert [row.result for row in store.get_tool_calls("chat")] == [None]
    store.rebuild_projections()
    assert [row.result for row in store.get_tool_calls("chat")] == [None]
    removals = [event.payload["supersedes"] for event in store.get_events_for_session("chat")[5:]]
    assert removals == [5, 4]  # the log still holds all five items, then the two removals


def test_clear_session_appends_one_event_and_the_log_keeps_what_it_cleared(
    store: SqliteEventStore, session: EventLogSession
) -> None:
    asyncio.run(session.add_items(TURN))
    asyncio.run(session.clear_session())
    asyncio.run(session.clear_session())  # nothing in force: nothing to say
    assert asyncio.run(session.get_items()) == []
    assert asyncio.run(session.pop_item()) is None
    assert store.replay_session("chat") == store.get_messages("chat") == []
    assert types_in(store)[-2:] == ["assistant_message", "session_cleared"]
    asyncio.run(session.add_items([call("c1"), output("c1", "43")]))  # the id is free again
    assert [row.result for row in store.get_tool_calls("chat")] == ["43"]


@pytest.mark.parametrize(
    ("limit", "expected"),
    [
        (0, []),
        (1, [ANSWER]),
        (2, [ANSWER]),  # the output's call is outside the window: left out, never widened
        (3, [call("c1"), output("c1"), ANSWER]),
        (10, TURN),
    ],
)
def test_a_limit_never_splits_a_call_from_its_output(
    session: EventLogSession, limit: int, expected: list[dict[str, Any]]
) -> None:
    asyncio.run(session.add_items(TURN))
    assert asyncio.run(session.get_items(limit=limit)) == expected


@pytest.mark.parametrize("limit", [-1, True, 2.0, "3"])
def test_a_limit_that_is_not_a_count_is_refused_with_what_it_was(
    session: EventLogSession, limit: Any
) -> None:
    with pytest.raises(ValueError, match="limit must be None or an int of 0 or more"):
        asyncio.run(session.get_items(limit=limit))


@pytest.mark.parametrize(
    "batch",
    [
        [said("user", "kept?"), {"role": "user", "content": object()}],
        [said("user", "kept?"), ["not", "a", "dict"]],
        [said("user", "kept?"), {"role": "user", "content": float("nan")}],
        [said("user", "kept?"), {1: "an int key"}],
    ],
)
def test_a_batch_with_one_bad_item_writes_nothing_and_says_what_was_wrong(
    store: SqliteEventStore, session: EventLogSession, batch: list[Any]
) -> None:
    with pytest.raises(InvalidPayloadError):
        asyncio.run(session.add_items(batch))
    assert store.get_events_for_session("chat") == []


def test_calls_that_reuse_an_id_or_outputs_without_a_call_are_kept_whole(
    store: SqliteEventStore, session: EventLogSession
) -> None:
    # The SDK's scripted model gives every call the id "2" unless told otherwise.
    batches = [[call("2"), output("2")], [call("2"), output("2", "again")], [output("nope")]]
    for batch in batches:
        asyncio.run(session.add_items(batch))
    assert asyncio.run(session.get_items()) == [item for batch in batches for item in batch]
    assert types_in(store) == ["tool_call", "tool_result", *["agent_item"] * 3]
    assert [(row.call_id, row.result) for row in store.get_tool_calls("chat")] == [("2", "42")]


def test_a_session_of_the_http_service_reads_back_as_sdk_items(store: SqliteEventStore) -> None:
    store.create_session("served", session_id="served")
    store.append_event("served", "user_message", {"content": "hi"})
    store.append_event("served", "tool_call", {"call_id": "c", "name": "f", "arguments": "{}"})
    store.append_event("served", "tool_result", {"call_id": "c", "content": "1"})
    got = asyncio.run(EventLogSession("served", store).get_items())
    assert got == [said("user", "hi"), {**call("c", "f")}, output("c", "1")]


def test_a_closed_session_refuses_even_an_empty_add_and_leaves_a_shared_store_open(
    store: SqliteEventStore, session: EventLogSession
) -> None:
    session.close()
    session.close()
    with pytest.raises(RuntimeError, match="'chat' is closed"):
        asyncio.run(session.add_items([]))
    assert store.get_events_for_session("chat") == []  # the store it did not open still works


def test_session_settings_are_the_sdks_and_an_unknown_field_is_refused(
    store: SqliteEventStore,
) -> None:
    asyncio.run(EventLogSession("chat", store).add_items(TURN))
    limited = EventLogSession("chat", store, session_settings={"limit": 1})
    assert asyncio.run(limited.get_items()) == [ANSWER]
    assert asyncio.run(limited.get_items(limit=3)) == TURN[2:]
    with pytest.raises(TypeError, match="limitt"):
        EventLogSession("chat", store, session_settings={"limitt": 1})


@pytest.mark.parametrize("session_id", ["", "\ud800", 7])
def test_a_bad_session_id_is_refused_before_anything_is_opened(
    tmp_path: Any, session_id: Any
) -> None:
    with pytest.raises(ValueError, match="session_id"):
        EventLogSession(session_id, tmp_path / "never.db")
    assert not (tmp_path / "never.db").exists()


def test_the_apis_event_types_are_the_stores() -> None:
    assert get_args(EventType) == STORE_EVENT_TYPES


def test_sqlite_demo_imports_without_the_sdk_and_says_what_to_install_when_asked_for_it() -> None:
    script = (
        "import sys\n"
        "class NoSdk:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'agents' or name.startswith('agents.'):\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, NoSdk())\n"
        "import sqlite_demo\n"
        "try:\n"
        "    sqlite_demo.EventLogSession('s', 'x.db')\n"
        "except ModuleNotFoundError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=True)  # fmt: skip
    assert "agents" in done.stdout and "pip install" in done.stdout
