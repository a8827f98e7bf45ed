"""The items in force, read by SQL: the same as folding every event, whole or from the tail.

``get_items_in_force``, ``get_facts_in_force`` and ``replay_session`` leave the corrections
to SQL (``reads.IN_FORCE``) and fold only what is in force. Here random histories of items,
removals and clears are read both ways, on SQLite and PostgreSQL: the SQL read must give what
the shared fold over every event gives (:func:`eventlog.fold_history`,
:func:`eventlog.replay_events`), and the newest ``k`` must be the last ``k`` of all.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventlog import fold_history, replay_events
from sqlite_demo import EventStore
from tests.store.adapters import plain

#: Each example gets a session of its own, in the one store of the test.
_sessions = itertools.count()

Step = tuple[str, Any]
steps = st.lists(
    st.one_of(
        st.tuples(st.just("say"), st.sampled_from(["user_message", "assistant_message"])),
        st.tuples(st.just("call"), st.booleans()),  # answered or not
        st.tuples(st.just("keep"), st.just(None)),
        st.tuples(st.just("remove"), st.integers(min_value=1, max_value=3)),
        st.tuples(st.just("clear"), st.just(None)),
    ),
    max_size=14,
)


def _play(store: EventStore, session_id: str, program: list[Step]) -> None:
    calls = itertools.count()
    for action, argument in program:
        if action == "say":
            store.append_event(session_id, argument, {"content": f"{action} {argument}"})
        elif action == "call":
            call_id = f"c{next(calls)}"
            store.append_event(
                session_id, "tool_call", {"call_id": call_id, "name": "n", "arguments": "{}"}
            )
            if argument:
                store.append_event(session_id, "tool_result", {"call_id": call_id, "content": "4"})
        elif action == "keep":
            store.append_event(session_id, "agent_item", {"item": {"type": "reasoning"}})
        elif action == "remove":
            for _ in range(argument):
                newest = fold_history(store.get_events_for_session(session_id)).newest_item
                if newest is not None:
                    store.append_event(session_id, "item_removed", {"supersedes": newest.event_id})
        elif fold_history(store.get_events_for_session(session_id)).newest_item is not None:
            last = store.get_events_for_session(session_id)[-1].event_id
            store.append_event(session_id, "session_cleared", {"supersedes_through": last})


def _as_compared(events: list[Any]) -> list[tuple[int, str, Any]]:
    return [(event.event_id, event.type, plain(event.payload)) for event in events]


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(program=steps, newest=st.integers(min_value=1, max_value=5))
def test_the_items_in_force_read_by_sql_are_the_fold_of_every_event(
    fresh_db: EventStore, program: list[Step], newest: int
) -> None:
    session_id = f"s{next(_sessions)}"
    fresh_db.create_session("items", session_id=session_id)
    _play(fresh_db, session_id, program)

    everything = fresh_db.get_events_for_session(session_id)
    folded = _as_compared(fold_history(everything).item_events())
    assert _as_compared(fresh_db.get_items_in_force(session_id)) == folded
    assert _as_compared(fresh_db.get_items_in_force(session_id, newest)) == folded[-newest:]
    facts = fresh_db.get_facts_in_force(session_id)
    assert [(fact.type, plain(fact.payload)) for fact in facts] == [f[1:] for f in folded]
    assert fresh_db.replay_session(session_id) == replay_events(everything)
    assert fresh_db.last_event_id(session_id) == (everything[-1].event_id if everything else 0)


def test_each_read_hands_out_payloads_of_its_own(fresh_db: EventStore) -> None:
    fresh_db.create_session("items", session_id="s")
    fresh_db.append_event("s", "agent_item", {"item": {"type": "reasoning", "steps": [1]}})
    first = fresh_db.get_items_in_force("s")[0].payload
    first["item"]["steps"].append(2)
    assert fresh_db.get_items_in_force("s")[0].payload == {"item": {"type": "reasoning",
                                                                    "steps": [1]}}  # fmt: skip


@pytest.mark.parametrize("newest", [None, 3])
def test_an_unknown_session_has_no_items_in_force_and_no_last_event(
    fresh_db: EventStore, newest: int | None
) -> None:
    assert fresh_db.get_items_in_force("nobody", newest) == []
    assert fresh_db.get_facts_in_force("nobody") == []
    assert fresh_db.last_event_id("nobody") == 0
