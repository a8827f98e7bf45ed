"""Breaking add_items, pop_item and clear_session half-way: the outcome is all or nothing, and a
cancellation reaches the caller only once the outcome is known (so nobody writes twice)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

from eventlog import StoredEvent
from sqlite_demo import EventLogSession, SqliteEventStore
from sqlite_demo.store.sqlite import projections
from tests.agents_sdk.conftest import call, output, said

BATCH = [said("user", "how many orders?"), call("c1"), output("c1"), said("assistant", "42")]


@pytest.fixture
def paused_in_transaction(
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[threading.Event, threading.Event]]:
    """Make the next write stop inside its transaction, after its first event's row, until
    released: ``(reached, release)``."""
    reached, release = threading.Event(), threading.Event()
    write = projections.write_projection

    def pausing(connection: Any, event: StoredEvent) -> None:
        write(connection, event)
        if not reached.is_set():
            reached.set()
            assert release.wait(timeout=30)

    monkeypatch.setattr(projections, "write_projection", pausing)
    yield reached, release
    release.set()


async def cancel_while_paused(
    operation: Awaitable[Any], reached: threading.Event, release: threading.Event
) -> asyncio.Task[Any]:
    task = asyncio.ensure_future(operation)
    assert await asyncio.to_thread(reached.wait, 30)
    task.cancel()
    await asyncio.sleep(0.01)
    task.cancel()  # twice, as an impatient caller would
    assert not task.done()  # held until the transaction is over
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    return task


def test_add_items_cancelled_mid_transaction_commits_all_then_lets_the_cancellation_through(
    session: EventLogSession, paused_in_transaction: tuple[threading.Event, threading.Event]
) -> None:
    asyncio.run(cancel_while_paused(session.add_items(BATCH), *paused_in_transaction))
    assert asyncio.run(session.get_items()) == BATCH  # all four, once


@pytest.mark.parametrize(
    ("operation", "left"),
    [(EventLogSession.pop_item, BATCH[:3]), (EventLogSession.clear_session, [])],
)
def test_a_removal_cancelled_mid_transaction_stands_once_the_cancellation_arrives(
    session: EventLogSession,
    monkeypatch: pytest.MonkeyPatch,
    operation: Callable[[EventLogSession], Awaitable[Any]],
    left: list[dict[str, Any]],
) -> None:
    asyncio.run(session.add_items(BATCH))
    reached, release = threading.Event(), threading.Event()
    write = projections.write_projection

    def pausing(connection: Any, event: StoredEvent) -> None:
        write(connection, event)
        reached.set()
        assert release.wait(timeout=30)

    monkeypatch.setattr(projections, "write_projection", pausing)
    asyncio.run(cancel_while_paused(operation(session), reached, release))
    monkeypatch.undo()
    assert asyncio.run(session.get_items()) == left


def test_a_failure_at_the_last_item_of_a_batch_leaves_none_of_it(
    store: SqliteEventStore, session: EventLogSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    write = projections.write_projection

    def failing_at_the_reply(connection: Any, event: StoredEvent) -> None:
        if event.type == "assistant_message":
            raise OSError("the disk went away")
        write(connection, event)

    monkeypatch.setattr(projections, "write_projection", failing_at_the_reply)
    with pytest.raises(OSError, match="the disk went away"):
        asyncio.run(session.add_items(BATCH))
    assert store.get_events_for_session("chat") == []
    assert store.get_tool_calls("chat") == [] and store.get_messages("chat") == []
    monkeypatch.undo()
    asyncio.run(session.add_items(BATCH))  # the session is usable after the failure
    assert [event.event_id for event in store.get_events_for_session("chat")] == [1, 2, 3, 4]
