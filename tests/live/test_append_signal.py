"""The append signal: a subscription hears its own session's appends, from any thread."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from sqlite_demo.store.append_signal import LocalAppendSignal
from sqlite_demo.store.sqlite.store import SqliteEventStore

NEVER = 3600.0  # a wait that only an announcement can end within the test's time


def test_an_append_announced_from_another_thread_wakes_the_waiting_subscriber() -> None:
    signal = LocalAppendSignal()

    async def wait_for_one() -> int:
        subscription = signal.subscribe("a")
        threading.Timer(0.01, signal.appended, args=("a",)).start()
        await subscription.wait_past(0, NEVER)
        return subscription.count

    assert asyncio.run(asyncio.wait_for(wait_for_one(), 30)) == 1


def test_an_append_before_the_wait_is_not_missed() -> None:
    signal = LocalAppendSignal()

    async def append_then_wait() -> int:
        subscription = signal.subscribe("a")
        heard = subscription.count
        signal.appended("a")  # between taking the count and waiting: the race to lose
        await subscription.wait_past(heard, NEVER)
        return subscription.count

    assert asyncio.run(asyncio.wait_for(append_then_wait(), 30)) == 1


def test_another_sessions_append_wakes_nobody_and_a_closed_subscription_is_forgotten() -> None:
    signal = LocalAppendSignal()

    async def scenario() -> tuple[int, int]:
        subscription = signal.subscribe("a")
        signal.appended("b")
        await subscription.wait_past(0, 0.01)  # times out: nothing for "a"
        heard = subscription.count
        subscription.close()
        subscription.close()
        signal.appended("a")
        return heard, subscription.count

    assert asyncio.run(scenario()) == (0, 0)
    assert signal._listeners == {}


def test_the_store_announces_each_committed_append_and_no_refused_one(tmp_path: Path) -> None:
    with SqliteEventStore(tmp_path / "signal.db") as store:
        store.create_session("t", session_id="a")

        async def scenario() -> int:
            subscription = store.append_signal.subscribe("a")
            store.append_event("a", "user_message", {"content": "hi"})
            with pytest.raises(ValueError):  # a result for a call never made: refused
                store.append_event("a", "tool_result", {"call_id": "nope", "content": "x"})
            await subscription.wait_past(0, NEVER)
            return subscription.count

        assert asyncio.run(scenario()) == 1
