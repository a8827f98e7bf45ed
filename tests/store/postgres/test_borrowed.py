"""Every call of the PostgreSQL store borrows a connection through ``connection.Borrowed``: the
connection always goes back to the pool, whatever the body did, and psycopg's errors come out
as the store's own.

A leak here would not show in one call: it shows as the pool running dry, so these tests run
with a pool of one connection, where the second call after a leak waits and fails.
"""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from eventlog import ConstraintViolationError, StorageError, UnknownSessionError
from sqlite_demo.store.postgres import PostgresEventStore
from sqlite_demo.store.postgres.connection import Borrowed, Pool, open_pool


@pytest.fixture
def pool(postgres_url: str) -> Iterator[Pool]:
    opened = open_pool(postgres_url, max_connections=1, wait_seconds=0.5)
    yield opened
    opened.close()


def test_a_body_that_raises_gives_the_connection_back_and_its_error_passes_unchanged(
    pool: Pool,
) -> None:
    for _ in range(3):
        with pytest.raises(KeyError, match="not a database error"), Borrowed(pool):
            raise KeyError("not a database error")
    with Borrowed(pool) as connection:
        assert connection.execute("SELECT 41 + 1").fetchone() == (42,)


def test_a_database_error_comes_out_as_the_stores_own_with_psycopgs_as_its_cause(
    pool: Pool,
) -> None:
    with pytest.raises(StorageError) as raised, Borrowed(pool) as connection:
        connection.execute("SELECT * FROM no_such_table")
    assert isinstance(raised.value.__cause__, psycopg.errors.UndefinedTable)
    assert not raised.value.retryable
    with pytest.raises(ConstraintViolationError), Borrowed(pool) as connection:
        connection.execute("SELECT 'x'::int")  # the text is refused, as a payload would be
    with Borrowed(pool) as connection:
        assert connection.execute("SELECT 1").fetchone() == (1,)


def test_a_transaction_left_open_is_rolled_back_before_anyone_borrows_the_connection(
    pool: Pool,
) -> None:
    with Borrowed(pool) as connection:
        connection.execute("CREATE TABLE kept (n INT)")
    with Borrowed(pool) as connection:
        connection.execute("BEGIN")
        connection.execute("INSERT INTO kept VALUES (1)")
    with Borrowed(pool) as connection:
        assert connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        assert connection.execute("SELECT count(*) FROM kept").fetchone() == (0,)


def test_a_pool_with_no_connection_to_lend_is_a_retryable_unavailable(pool: Pool) -> None:
    with Borrowed(pool), pytest.raises(StorageError) as raised, Borrowed(pool):
        pass  # never reached: the only connection is lent out
    assert raised.value.reason == "unavailable"
    assert raised.value.retryable
    with Borrowed(pool) as connection:  # and the first one came back
        assert connection.execute("SELECT 1").fetchone() == (1,)


def test_a_store_of_one_connection_keeps_serving_after_many_refusals(postgres_url: str) -> None:
    store = PostgresEventStore(postgres_url, max_connections=1, wait_seconds=0.5)
    try:
        store.create_session("chat", session_id="s")
        for number in range(20):
            with pytest.raises(UnknownSessionError):
                store.append_event("nobody", "user_message", {"content": f"lost {number}"})
            with pytest.raises(ValueError):
                store.append_event("s", "tool_result", {"call_id": "never made", "content": ""})
        appended = store.append_event("s", "user_message", {"content": "still here"})
        assert appended.event_id == 1  # the refusals took no id: no gap
        assert [event.payload["content"] for event in store.get_events_for_session("s")] == [
            "still here"
        ]
    finally:
        store.close()
