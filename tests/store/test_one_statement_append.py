"""A message or kept item appended alone is one statement (writes.append_alone): the same rows
as the transaction's steps, all or nothing, waiting its turn, and nothing of it in the file."""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest

from eventlog import StorageError, UnknownSessionError
from sqlite_demo import SqliteEventStore
from sqlite_demo.store.sqlite.connection import open_connection

TEXTS = ["plain", "", "nul \x00 inside", 'quotes " and \\ and \n', "é 中文 🙂", "x" * 5000]


def _statements(store: SqliteEventStore) -> list[str]:
    sent: list[str] = []
    connection = store._live()  # the statements the store sends, traced
    connection.set_trace_callback(sent.append)
    return sent


def test_a_message_alone_is_one_statement_and_a_batch_is_the_transaction(
    sqlite_db: SqliteEventStore,
) -> None:
    sqlite_db.create_session("chat", session_id="s")
    sent = _statements(sqlite_db)
    sqlite_db.append_event("s", "user_message", {"content": "hi"})
    sqlite_db.append_event("s", "agent_item", {"item": {"type": "reasoning"}})
    # The trace repeats a statement for each step of its trigger: one statement each, and
    # neither BEGIN nor COMMIT.
    assert {sql.split(" (")[0] for sql in sent} == {
        "INSERT INTO message_appends",
        "INSERT INTO events",
    }
    sent.clear()
    sqlite_db.append_events("s", [("user_message", {"content": "a"})] * 2)
    assert sent[0] == "BEGIN IMMEDIATE" and sent[-1] == "COMMIT"


def test_its_projection_row_is_the_rows_a_rebuild_folds_exact_to_the_byte(
    sqlite_db: SqliteEventStore,
) -> None:
    sqlite_db.create_session("chat", session_id="s")
    for number, text in enumerate(TEXTS):
        kind = "user_message" if number % 2 == 0 else "assistant_message"
        event = sqlite_db.append_event("s", kind, {"content": text, "extra": [1]})
        assert event.payload["content"] == text
    maintained = sqlite_db.get_messages("s")
    assert [row.content for row in maintained] == TEXTS
    assert [row.role for row in maintained] == ["user", "assistant"] * 3
    sqlite_db.rebuild_projections()
    assert sqlite_db.get_messages("s") == maintained


def test_an_unknown_session_writes_nothing_and_the_next_append_gets_the_next_id(
    sqlite_db: SqliteEventStore,
) -> None:
    sqlite_db.create_session("chat", session_id="s")
    assert sqlite_db.append_event("s", "user_message", {"content": "one"}).event_id == 1
    for kind, payload in (("user_message", {"content": "x"}), ("agent_item", {"item": {}})):
        with pytest.raises(UnknownSessionError):
            sqlite_db.append_event("ghost", kind, payload)
    assert sqlite_db.append_event("s", "assistant_message", {"content": "two"}).event_id == 2
    assert [row.event_id for row in sqlite_db.get_messages("s")] == [1, 2]
    assert sqlite_db.list_active_session_ids() == ["s"]


def test_the_view_lives_on_the_store_connection_only_so_the_file_is_as_it_was(
    sqlite_db: SqliteEventStore, db_path: Path
) -> None:
    sqlite_db.create_session("chat", session_id="s")
    with closing(sqlite3.connect(db_path, isolation_level=None)) as plain:
        names = {row[0] for row in plain.execute("SELECT name FROM sqlite_master")}
        assert "message_appends" not in names and "message_appends_insert" not in names
        # A writer that inserts the event alone still writes no projection row: the store's
        # view is not the file's, and the pitfall of notebook 6 is still there to be shown.
        plain.execute(
            "INSERT INTO events (session_id, type, payload, created_at)"
            " VALUES ('s', 'user_message', '{\"content\":\"raw\"}', 0)"
        )
    assert sqlite_db.get_messages("s") == []


def test_a_message_alone_waits_for_another_writer_and_is_then_written(db_path: Path) -> None:
    with SqliteEventStore(db_path) as store, closing(open_connection(db_path)) as holder:
        store.create_session("chat", session_id="s")
        holder.execute("BEGIN IMMEDIATE")
        timer = threading.Timer(0.3, holder.execute, ("COMMIT",))
        timer.start()
        began = time.monotonic()
        event = store.append_event("s", "user_message", {"content": "after you"})
        timer.join()
        assert time.monotonic() - began >= 0.25
        assert [row.event_id for row in store.get_messages("s")] == [event.event_id]


def test_a_message_alone_held_up_too_long_is_busy_and_writes_nothing(db_path: Path) -> None:
    with (
        SqliteEventStore(db_path, busy_timeout_ms=50) as store,
        closing(open_connection(db_path)) as holder,
    ):
        store.create_session("chat", session_id="s")
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(StorageError) as caught:
            store.append_event("s", "user_message", {"content": "lost"})
        holder.execute("ROLLBACK")
        assert caught.value.reason == "busy"
        assert store.get_events_for_session("s") == [] and store.get_messages("s") == []
        assert store.append_event("s", "user_message", {"content": "kept"}).event_id == 1
