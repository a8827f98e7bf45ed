"""Corrections: taking items out by appending, never by deleting (the chapter's pitfall 2).

Every reader honours them: replay, the projections, the call-id rule, a rebuild; and the
store refuses a correction that points at anything but what it may supersede. Each test runs
on SQLite and on PostgreSQL (``fresh_db``), with the same assertions: the rule is one.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from eventlog import CorrectionError, InvalidPayloadError, VersionConflictError
from sqlite_demo import EventStore, open_store
from tests.databases import Database
from tests.store.raw import RawDatabase

CALL = {"call_id": "c1", "name": "query_order_count", "arguments": "{}"}


@pytest.fixture
def store(fresh_db: EventStore) -> EventStore:
    """A store holding session ``s``: a user message, a call and its result, a reply."""
    fresh_db.create_session("s", session_id="s")
    for event_type, payload in [
        ("user_message", {"content": "how many orders?"}),
        ("tool_call", CALL),
        ("tool_result", {"call_id": "c1", "content": "42"}),
        ("assistant_message", {"content": "You have 42 orders."}),
    ]:
        fresh_db.append_event("s", event_type, payload)
    return fresh_db


def remove_newest(store: EventStore) -> int:
    newest = store.get_events_for_session("s")[-1].event_id
    store.append_event("s", "item_removed", {"supersedes": newest})
    return newest


def test_removing_the_reply_takes_it_out_of_replay_and_projection_but_not_the_log(
    store: EventStore,
) -> None:
    store.append_event("s", "item_removed", {"supersedes": 4})
    assert [m["role"] for m in store.replay_session("s")] == ["user", "assistant", "tool"]
    assert [row.event_id for row in store.get_messages("s")] == [1]
    types = [event.type for event in store.get_events_for_session("s")]
    assert types == [
        "user_message",
        "tool_call",
        "tool_result",
        "assistant_message",
        "item_removed",
    ]


def test_removing_a_result_reopens_its_call_so_a_new_result_is_accepted(
    store: EventStore,
) -> None:
    store.append_event("s", "item_removed", {"supersedes": 4})
    store.append_event("s", "item_removed", {"supersedes": 3})
    assert store.get_tool_calls("s")[0].result is None
    store.append_event("s", "tool_result", {"call_id": "c1", "content": "43"})
    assert store.get_tool_calls("s")[0].result == "43"
    assert store.replay_session("s")[-1] == {"role": "tool", "tool_call_id": "c1", "content": "43"}


def test_removing_a_call_frees_its_id_and_its_projection_row(store: EventStore) -> None:
    for newest in (4, 3, 2):
        store.append_event("s", "item_removed", {"supersedes": newest})
    assert store.get_tool_calls("s") == []
    store.append_event("s", "tool_call", {**CALL, "name": "again"})
    assert [row.name for row in store.get_tool_calls("s")] == ["again"]


def test_only_the_newest_item_in_force_can_be_removed(store: EventStore) -> None:
    with pytest.raises(CorrectionError, match="event 4, not event 2"):
        store.append_event("s", "item_removed", {"supersedes": 2})
    store.append_event("s", "item_removed", {"supersedes": 4})
    with pytest.raises(CorrectionError, match="event 3, not event 4"):
        store.append_event("s", "item_removed", {"supersedes": 4})  # twice: refused
    assert len(store.get_events_for_session("s")) == 5


def test_a_correction_cannot_be_removed_nor_point_into_another_session(
    store: EventStore,
) -> None:
    store.create_session("t", session_id="t")
    store.append_event("t", "user_message", {"content": "other"})  # event 5
    with pytest.raises(CorrectionError):
        store.append_event("s", "item_removed", {"supersedes": 5})
    removal = store.append_event("t", "item_removed", {"supersedes": 5})
    with pytest.raises(CorrectionError, match="it has none"):
        store.append_event("t", "item_removed", {"supersedes": removal.event_id})


def test_clearing_takes_every_item_out_and_later_items_count_again(
    store: EventStore,
) -> None:
    store.append_event("s", "session_cleared", {"supersedes_through": 4})
    assert store.replay_session("s") == []
    assert store.get_messages("s") == [] and store.get_tool_calls("s") == []
    store.append_event("s", "tool_call", CALL)  # the cleared call's id is free again
    store.append_event("s", "user_message", {"content": "again"})
    assert [m["role"] for m in store.replay_session("s")] == ["assistant", "user"]
    assert len(store.get_events_for_session("s")) == 7


def test_a_clear_that_did_not_see_the_last_event_is_refused(store: EventStore) -> None:
    with pytest.raises(VersionConflictError, match="at event 4, not 3"):
        store.append_event("s", "session_cleared", {"supersedes_through": 3})
    assert len(store.get_events_for_session("s")) == 4


@pytest.mark.parametrize(
    ("event_type", "payload"),
    [
        ("item_removed", {}),
        ("item_removed", {"supersedes": True}),
        ("item_removed", {"supersedes": -1}),
        ("item_removed", {"supersedes": 2**63}),
        ("item_removed", {"supersedes": "4"}),
        ("session_cleared", {"supersedes_through": 4.0}),
        ("agent_item", {"item": [1]}),
        ("agent_item", {}),
    ],
)
def test_a_correction_or_kept_item_of_the_wrong_shape_writes_nothing(
    store: EventStore, event_type: str, payload: dict[str, object]
) -> None:
    with pytest.raises(InvalidPayloadError):
        store.append_event("s", event_type, payload)
    assert len(store.get_events_for_session("s")) == 4


def test_a_rebuild_gives_the_projections_that_the_corrections_left(
    store: EventStore,
) -> None:
    remove_newest(store)
    remove_newest_item = store.append_event("s", "item_removed", {"supersedes": 3})
    assert remove_newest_item.event_id == 6
    before = (store.get_messages("s"), store.get_tool_calls("s"))
    store.rebuild_projections()
    assert (store.get_messages("s"), store.get_tool_calls("s")) == before


def test_an_agent_item_is_kept_whole_and_adds_nothing_to_the_chat(
    store: EventStore,
) -> None:
    item = {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "x"}]}
    event = store.append_event("s", "agent_item", {"item": item})
    assert event.payload["item"] == item
    assert len(store.replay_session("s")) == 4
    store.append_event("s", "item_removed", {"supersedes": event.event_id})
    assert len(store.replay_session("s")) == 4


def test_append_events_writes_all_of_a_batch_or_none_of_it(store: EventStore) -> None:
    batch = [
        ("tool_call", {**CALL, "call_id": "c2"}),
        ("tool_result", {"call_id": "c2", "content": "7"}),  # sees the call of its batch
    ]
    assert [e.event_id for e in store.append_events("s", batch)] == [5, 6]
    refused = [*batch[:1], ("tool_call", {**CALL, "call_id": "c3"}), ("tool_result", CALL)]
    with pytest.raises(InvalidPayloadError):  # the last one lacks "content": checked first
        store.append_events("s", refused)
    with pytest.raises(CorrectionError):  # the last one is refused by the log: rolled back
        store.append_events("s", [("tool_call", {**CALL, "call_id": "c3"}),
                                  ("item_removed", {"supersedes": 1})])  # fmt: skip
    assert len(store.get_events_for_session("s")) == 6
    assert [row.call_id for row in store.get_tool_calls("s")] == ["c1", "c2"]


def test_the_schema_refuses_a_correction_row_without_its_pointer(
    store: EventStore, raw_db: RawDatabase
) -> None:
    # Behind the store's back: the database's own CHECK, on either backend.
    with pytest.raises(raw_db.Refused, match=r"(?i)check"):
        raw_db.execute(
            "INSERT INTO events (event_id, session_id, type, payload, created_at)"
            " VALUES (99, 's', 'item_removed', '{\"supersedes\":4}', 0)"
        )
    assert len(store.get_events_for_session("s")) == 4


def test_two_writers_removing_the_newest_item_at_once_remove_it_once(
    store: EventStore, db: Database
) -> None:
    # Two stores (two connections, as two servers would hold), released together: each
    # writer's rule reads the log inside its own append, while appends take turns, so the
    # second sees the first's removal and is refused; never is one item removed twice.
    start = threading.Barrier(2)

    def remove_event_4() -> str:
        with open_store(db) as writer:
            start.wait()
            try:
                writer.append_event("s", "item_removed", {"supersedes": 4})
            except CorrectionError:
                return "refused"
            return "removed"

    with ThreadPoolExecutor(2) as pool:
        outcomes = sorted(pool.map(lambda _: remove_event_4(), range(2)))
    assert outcomes == ["refused", "removed"]
    removals = [e for e in store.get_events_for_session("s") if e.type == "item_removed"]
    assert [e.payload["supersedes"] for e in removals] == [4]
