"""The tails a SQLite store keeps of the sessions it read lately: never a stale answer.

``newest_items_now`` answers from a tail kept in memory (:mod:`sqlite_demo.store.sqlite.tails`)
while that tail is what a walk of the index would return. Here every way the log can move
is played between reads: this store's appends, corrections, retries by idempotency key,
appends that roll back, and the commits of another connection to the same file. After every
step the tail's answer must be the SQL walk's, and both the fold of every event.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventlog import fold_history
from sqlite_demo import SqliteEventStore
from sqlite_demo.store.sqlite import projections
from sqlite_demo.store.sqlite.tails import KEPT, SESSIONS
from tests.store.adapters import plain

_sessions = itertools.count()

#: (who writes: this store or another connection, what it appends).
Step = tuple[str, str]
steps = st.lists(
    st.tuples(
        st.sampled_from(["this", "other"]),
        st.sampled_from(["say", "call", "answer", "keep", "remove", "clear", "retry", "fail"]),
    ),
    max_size=24,
)


def _newest_now(store: SqliteEventStore, session_id: str, newest: int) -> list[Any]:
    read = store.newest_items_now(session_id, newest)
    assert read is not None
    return [(event.event_id, event.type, plain(event.payload)) for event in read]


def _by_sql(store: SqliteEventStore, session_id: str, newest: int) -> list[Any]:
    read = store.get_items_in_force(session_id, newest)
    return [(event.event_id, event.type, plain(event.payload)) for event in read]


def _step(store: SqliteEventStore, session_id: str, action: str, number: int) -> None:
    newest = fold_history(store.get_events_for_session(session_id)).newest_item
    if action == "say":
        store.append_event(session_id, "user_message", {"content": f"m{number}"})
    elif action == "call":
        store.append_event(
            session_id, "tool_call", {"call_id": f"c{number}", "name": "n", "arguments": "{}"}
        )
    elif action == "answer" and newest is not None and newest.type == "tool_call":
        call_id = newest.payload["call_id"]
        store.append_event(session_id, "tool_result", {"call_id": call_id, "content": "4"})
    elif action == "keep":
        store.append_event(session_id, "agent_item", {"item": {"type": "r", "n": [number]}})
    elif action == "remove" and newest is not None:
        store.append_event(session_id, "item_removed", {"supersedes": newest.event_id})
    elif action == "clear" and newest is not None:
        last = store.last_event_id(session_id)
        store.append_event(session_id, "session_cleared", {"supersedes_through": last})
    elif action == "retry":
        # The second append answers with the first's event: nothing new in the session.
        for _ in range(2):
            store.append_event(
                session_id, "user_message", {"content": f"k{number}"}, idempotency_key=f"k{number}"
            )


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(program=steps, newest=st.sampled_from([1, 3, KEPT]))
def test_a_tail_read_is_the_walk_of_the_index_after_every_step(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, program: list[Step], newest: int
) -> None:
    session_id = f"s{next(_sessions)}"
    with SqliteEventStore(db_path) as store, SqliteEventStore(db_path) as other:
        store.create_session("tails", session_id=session_id)
        assert _newest_now(store, session_id, newest) == []
        for number, (who, action) in enumerate(program):
            writer = store if who == "this" else other
            if action == "fail":
                with monkeypatch.context() as patched:
                    patched.setattr(projections, "write_projection", _fail)
                    # A batch: its projection step runs in Python, where it can fail (a
                    # message appended alone is one statement, with no step between).
                    lost = [("user_message", {"content": "lost"})] * 2
                    with pytest.raises(RuntimeError):
                        writer.append_events(session_id, lost)
            else:
                _step(writer, session_id, action, number)
            folded = fold_history(store.get_events_for_session(session_id)).item_events()
            expected = [(e.event_id, e.type, plain(e.payload)) for e in folded][-newest:]
            assert _by_sql(store, session_id, newest) == expected
            assert _newest_now(store, session_id, newest) == expected
            assert _newest_now(other, session_id, newest) == expected


def _fail(*_: object) -> None:
    raise RuntimeError("the projection step failed")


def test_each_tail_read_hands_out_payloads_of_its_own(sqlite_db: SqliteEventStore) -> None:
    sqlite_db.create_session("tails", session_id="s")
    sqlite_db.append_event("s", "user_message", {"content": "hi"})
    sqlite_db.append_event("s", "agent_item", {"item": {"type": "reasoning", "steps": [1]}})
    for _ in range(2):
        first = sqlite_db.newest_items_now("s", 2)
        assert first is not None
        assert [plain(event.payload) for event in first] == [
            {"content": "hi"},
            {"item": {"type": "reasoning", "steps": [1]}},
        ]
        first[0].payload["content"] = "changed"
        first[1].payload["item"]["steps"].append(2)


def test_a_tail_follows_a_long_run_of_appends_and_reads_further_back_when_asked(
    sqlite_db: SqliteEventStore,
) -> None:
    sqlite_db.create_session("tails", session_id="s")
    assert sqlite_db.newest_items_now("s", 5) == []
    for number in range(3 * KEPT):
        sqlite_db.append_event("s", "user_message", {"content": f"m{number}"})
        if number % 7 == 0:
            assert _newest_now(sqlite_db, "s", KEPT) == _by_sql(sqlite_db, "s", KEPT)
    assert _newest_now(sqlite_db, "s", KEPT) == _by_sql(sqlite_db, "s", KEPT)
    assert _newest_now(sqlite_db, "s", 2 * KEPT) == _by_sql(sqlite_db, "s", 2 * KEPT)
    assert len(_newest_now(sqlite_db, "s", 5 * KEPT)) == 3 * KEPT


def test_the_tails_of_many_sessions_are_read_and_written_alike(
    sqlite_db: SqliteEventStore,
) -> None:
    names = [f"s{number}" for number in range(SESSIONS + 5)]
    for name in names:
        sqlite_db.create_session("tails", session_id=name)
    for round_ in range(3):
        for name in names:
            sqlite_db.append_event(name, "user_message", {"content": f"{name} {round_}"})
            assert _newest_now(sqlite_db, name, 2) == _by_sql(sqlite_db, name, 2)
    for name in reversed(names):
        assert _newest_now(sqlite_db, name, 3) == _by_sql(sqlite_db, name, 3)


def test_a_closed_store_refuses_a_tail_read(db_path: Path) -> None:
    store = SqliteEventStore(db_path)
    store.create_session("tails", session_id="s")
    store.append_event("s", "user_message", {"content": "hi"})
    assert store.newest_items_now("s", 1) is not None
    store.close()
    with pytest.raises(ValueError, match="closed"):
        store.newest_items_now("s", 1)
