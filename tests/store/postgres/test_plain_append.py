"""The usual append on PostgreSQL, one message or item with no key and no expected version, is
one plain statement (``writes.APPEND_PLAIN``), not a call of ``kit_append``: the same rows, the
same refusals, nothing written when refused.

The SQLite twin is ``tests/store/test_one_statement_append.py``; ordering under concurrent
writers is ``test_reader_never_skips.py`` (its appends take this path).
"""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from eventlog import StorageError, UnknownSessionError
from sqlite_demo.store.postgres import PostgresEventStore

#: Texts a projection row must keep exactly: NUL and the escape character among them.
TEXTS = ["plain", "", "nul \x00 inside", "escape \uffff and \uffff0", "é 中文 🙂", "x" * 5000]
#: ``kit_append`` replaced by one that only says it was called (its signature, from append.sql).
TRIPWIRE = """
CREATE OR REPLACE FUNCTION kit_append(
    p_session_id TEXT, p_idempotency_key TEXT, p_expected_version BIGINT, p_created_at BIGINT,
    p_channel TEXT, p_notify_key TEXT, p_types TEXT[], p_payloads TEXT[], p_call_ids TEXT[],
    p_supersedes BIGINT[], p_contents TEXT[], p_names TEXT[], p_arguments TEXT[]
) RETURNS TABLE (r_event_id BIGINT, r_type TEXT, r_payload TEXT, r_created_at BIGINT)
LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'kit_append was called'; END $$;
"""


@pytest.fixture
def store(postgres_url: str) -> Iterator[PostgresEventStore]:
    opened = PostgresEventStore(postgres_url, max_connections=1)
    opened.create_session("chat", session_id="s")
    yield opened
    opened.close()


def _rows(url: str, sql: str) -> list[tuple[object, ...]]:
    with psycopg.connect(url, autocommit=True) as connection:
        return [tuple(row) for row in connection.execute(sql.encode()).fetchall()]


def test_a_plain_append_never_calls_kit_append_and_any_other_does(
    store: PostgresEventStore, postgres_url: str
) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute(TRIPWIRE.encode())
    store.append_event("s", "user_message", {"content": "hi"})
    store.append_event("s", "assistant_message", {"content": "hello"})
    store.append_event("s", "agent_item", {"item": {"type": "reasoning"}})
    # A key, an expected version, a rule that reads the log, or a batch of more than one:
    # the function. (A batch of one plain event is that event alone.)
    call = {"call_id": "c", "name": "f", "arguments": "{}"}
    others = [
        lambda: store.append_event("s", "user_message", {"content": "k"}, idempotency_key="k"),
        lambda: store.append_event("s", "user_message", {"content": "v"}, expected_version=3),
        lambda: store.append_event("s", "tool_call", call),
        lambda: store.append_events("s", [("user_message", {"content": "b"})] * 2),
    ]  # fmt: skip
    for append in others:
        with pytest.raises(StorageError, match="kit_append was called"):
            append()
    store.append_events("s", [("user_message", {"content": "one"})])
    assert [event.event_id for event in store.get_events_for_session("s")] == [1, 2, 3, 4]


def test_its_rows_are_those_a_rebuild_folds_exact_to_the_character(
    store: PostgresEventStore,
) -> None:
    for number, text in enumerate(TEXTS):
        kind = "user_message" if number % 2 == 0 else "assistant_message"
        event = store.append_event("s", kind, {"content": text, "extra": [1]})
        assert event.payload["content"] == text
    kept = store.append_event("s", "agent_item", {"item": {"type": "reasoning", "text": "\x00"}})
    maintained = store.get_messages("s")
    assert [row.content for row in maintained] == TEXTS
    assert [row.role for row in maintained] == ["user", "assistant"] * 3
    assert [event.payload for event in store.get_events_for_session("s")][-1] == kept.payload
    store.rebuild_projections()
    assert store.get_messages("s") == maintained


def test_an_unknown_session_is_refused_and_nothing_is_written(
    store: PostgresEventStore, postgres_url: str
) -> None:
    store.append_event("s", "user_message", {"content": "first"})
    before = _rows(postgres_url, "SELECT last_event_id FROM log_head")
    for kind in ("user_message", "agent_item"):
        with pytest.raises(UnknownSessionError):
            store.append_event("nobody", kind, {"content": "x", "item": {}})
    assert _rows(postgres_url, "SELECT last_event_id FROM log_head") == before
    assert _rows(postgres_url, "SELECT count(*) FROM events") == [(1,)]
    assert _rows(postgres_url, "SELECT count(*) FROM messages") == [(1,)]
    # The next append takes the next id: the refusals left no gap.
    assert store.append_event("s", "user_message", {"content": "next"}).event_id == 2


def test_a_log_head_without_its_row_is_refused_with_its_reason_and_nothing_written(
    store: PostgresEventStore, postgres_url: str
) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute(b"DELETE FROM log_head")
    with pytest.raises(StorageError, match="log_head holds no row"):
        store.append_event("s", "user_message", {"content": "x"})
    assert _rows(postgres_url, "SELECT count(*) FROM events") == [(0,)]
    assert _rows(postgres_url, "SELECT count(*) FROM messages") == [(0,)]
