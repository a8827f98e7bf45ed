"""The agent without HTTP: versioned steps, conflicts and retries, and a cost per turn that
does not grow with the session.

Two agents on two stores opened on one file behave exactly like two server processes: they
share nothing but the file. Threads and events make the interleavings happen on purpose, in
the same order on every run; every wait has a timeout, so a bug fails the test instead of
hanging it.
"""

# ruff: noqa: RUF001  (Chinese replies use full-width punctuation on purpose)

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from sqlite_demo import (
    EventStore,
    SqliteEventStore,
    StoredEvent,
    VersionConflictError,
    open_store,
)
from sqlite_demo.service.agent import Agent, SessionBusyError, SessionView, TurnResult
from sqlite_demo.service.model import ModelStep, scripted_model
from tests.databases import Database
from tests.service.helpers import conversation_problems

GREETING = "你好！我是订单客服助手，可以帮你查询订单数量。"
WAIT_SECONDS = 10


class PausingModel:
    """The scripted model, made to stop after deciding its first step until released."""

    def __init__(self) -> None:
        self.decided = threading.Event()
        self.release = threading.Event()
        self._paused = False

    def __call__(self, messages: Sequence[Mapping[str, Any]]) -> ModelStep:
        step = scripted_model(messages)
        if not self._paused:
            self._paused = True
            self.decided.set()
            assert self.release.wait(WAIT_SECONDS), "the test never released the model"
        return step


@pytest.fixture
def two_stores(db: Database) -> Iterator[tuple[EventStore, EventStore]]:
    """Two stores on one database: as far as the database knows, two server processes."""
    with open_store(db) as first, open_store(db) as second:
        first.create_session("订单客服", session_id="s")
        yield first, second


def _in_background(call: Callable[[], TurnResult]) -> Future[TurnResult]:
    return ThreadPoolExecutor(max_workers=1).submit(call)


def _shape(events: Sequence[StoredEvent]) -> list[tuple[str, str]]:
    return [(event.type, str(event.payload.get("content", ""))) for event in events]


def test_two_writers_one_conflict_the_loser_reads_again_and_decides_again(
    two_stores: tuple[EventStore, EventStore],
) -> None:
    store_a, store_b = two_stores
    store_a.append_event("s", "user_message", {"content": "你好"})  # a turn cut short
    pausing = PausingModel()
    agent_a, agent_b = Agent(store_a, pausing), Agent(store_b)

    turn_a = _in_background(lambda: agent_a.handle_message("s", "帮我总结这份文档"))
    assert pausing.decided.wait(WAIT_SECONDS)  # A decided its answer to "你好" on version 1...
    turn_b = agent_b.handle_message("s", "hello")  # ...B answers it first, then takes a turn
    pausing.release.set()
    result_a = turn_a.result(WAIT_SECONDS)  # A's append at version 1 conflicted; A retried

    events = store_a.get_events_for_session("s")
    assert [event.type for event in events].count("assistant_message") == 3  # not 4
    assert _shape(turn_b.recovered) == [("assistant_message", GREETING)]
    assert result_a.recovered == ()  # A's own answer to "你好" was refused, so A wrote none
    assert result_a.events[0].event_id > turn_b.events[-1].event_id
    assert conversation_problems(store_a.replay_session("s")) == []


def test_the_same_key_at_two_writers_stores_the_message_once_and_both_answer_with_the_reply(
    two_stores: tuple[EventStore, EventStore],
) -> None:
    store_a, store_b = two_stores
    pausing = PausingModel()
    agent_a, agent_b = Agent(store_a, pausing), Agent(store_b)

    first = _in_background(lambda: agent_a.handle_message("s", "你好", idempotency_key="k"))
    assert pausing.decided.wait(WAIT_SECONDS)  # A stored the message and decided the reply
    second = agent_b.handle_message("s", "你好", idempotency_key="k")
    pausing.release.set()
    result_a = first.result(WAIT_SECONDS)

    assert result_a.reply == second.reply == GREETING
    assert [event.event_id for event in result_a.events] == [e.event_id for e in second.events]
    assert (result_a.repeated, second.repeated) == (False, True)
    assert _shape(store_a.get_events_for_session("s")) == [
        ("user_message", "你好"),
        ("assistant_message", GREETING),
    ]


def test_no_lock_is_held_while_the_model_thinks(db_path: Path) -> None:
    with SqliteEventStore(db_path) as store:
        for session_id in ("slow", "quick"):
            store.create_session(session_id, session_id=session_id)
        pausing = PausingModel()
        agent = Agent(store, pausing)
        slow = _in_background(lambda: agent.handle_message("slow", "你好"))
        assert pausing.decided.wait(WAIT_SECONDS)

        quick = agent.handle_message("quick", "帮我查一下订单数量")  # while "slow" waits

        assert not slow.done()
        pausing.release.set()
        assert slow.result(WAIT_SECONDS).reply == GREETING
        assert quick.reply == "你当前有 42 个订单。"


class CountingStore(SqliteEventStore):
    """A store that counts the events it hands the agent."""

    events_read = 0

    def get_events_for_session(
        self, session_id: str, after_event_id: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        events = super().get_events_for_session(session_id, after_event_id, limit)
        self.events_read += len(events)
        return events


def _events_read_by_one_turn(store: CountingStore, agent: Agent, session_id: str) -> int:
    before = store.events_read
    agent.handle_message(session_id, "帮我查一下订单数量")
    return store.events_read - before


def test_a_turn_reads_as_many_events_at_3000_events_as_at_30(db_path: Path) -> None:
    with CountingStore(db_path) as store:
        agent = Agent(store)
        for session_id, turns in (("short", 7), ("long", 750)):
            store.create_session(session_id, session_id=session_id)
            for _ in range(turns):  # 4 events a turn: question, call, result, answer
                agent.handle_message(session_id, "帮我查一下订单数量")

        short, long = (_events_read_by_one_turn(store, agent, s) for s in ("short", "long"))
        assert len(store.get_events_for_session("long")) == 3004

    assert short == long  # only what is new: the turn's own events, each read back once


def test_a_new_agent_folds_a_long_session_once_then_only_what_is_new(db_path: Path) -> None:
    with CountingStore(db_path) as store:
        store.create_session("long", session_id="long")
        Agent(store).handle_message("long", "你好")
        for _ in range(100):
            Agent(store).handle_message("long", "你好")  # each a fresh agent: a cold start
        agent = Agent(store)
        cold = _events_read_by_one_turn(store, agent, "long")
        warm = _events_read_by_one_turn(store, agent, "long")
    assert cold > 200 > warm


class AlwaysMovedOn(SqliteEventStore):
    """A store where some other writer always got there first."""

    def append_event(self, *args: Any, **options: Any) -> StoredEvent:
        if options.get("expected_version") is not None:
            raise VersionConflictError(args[0], options["expected_version"], -1)
        return super().append_event(*args, **options)


def test_a_session_that_keeps_moving_makes_the_turn_give_up_with_a_busy_error(
    db_path: Path,
) -> None:
    with AlwaysMovedOn(db_path) as store:
        store.create_session("busy", session_id="busy")
        with pytest.raises(SessionBusyError, match="kept changing"):
            Agent(store).handle_message("busy", "你好")
        assert store.get_events_for_session("busy") == []


def test_a_view_folds_open_calls_and_knows_when_the_model_must_speak(db_path: Path) -> None:
    with SqliteEventStore(db_path) as store:
        store.create_session("s", session_id="s")
        call = {"call_id": "c1", "name": "lookup", "arguments": "{}"}
        steps = [
            store.append_event("s", "user_message", {"content": "q"}),
            store.append_event("s", "tool_call", call),
            store.append_event("s", "tool_result", {"call_id": "c1", "content": "42"}),
            store.append_event("s", "assistant_message", {"content": "a"}),
        ]
    views = [SessionView().folding(steps[:n]) for n in range(5)]
    assert [view.version for view in views] == [0, 1, 2, 3, 4]
    assert [len(view.open_calls) for view in views] == [0, 0, 1, 0, 0]
    assert [view.awaits_model for view in views] == [False, True, False, True, False]
    assert views[4].messages[-1] == {"role": "assistant", "content": "a"}
