"""What SQLite cannot do, in the store's words: which fault it is and whether a retry helps.

Each fault is a real one from SQLite, not a mock: a read-only connection, a page limit that
fills the database, a lock held by another connection, a folder where the file should be,
a file that is not a database. (What happens to root on a read-only mount or a full disk is
tested against the running service, in ``tests/service/test_storage_faults.py``.)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from sqlite_demo import SqliteEventStore, StorageError, StoreError
from sqlite_demo.store.sqlite.connection import open_connection
from sqlite_demo.store.sqlite.faults import translate_sqlite_errors

INSERT = "INSERT INTO sessions (id, title, created_at) VALUES ('x', 'y', 0)"


@pytest.fixture
def existing_db(db_path: Path) -> Path:
    SqliteEventStore(db_path).close()
    return db_path


@pytest.fixture
def read_only(existing_db: Path) -> Iterator[sqlite3.Connection]:
    uri = f"{existing_db.resolve().as_uri()}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True)) as connection:
        yield connection


def _storage_error_of(connection: sqlite3.Connection, sql: str) -> StorageError:
    with pytest.raises(StorageError) as caught, translate_sqlite_errors():
        connection.execute(sql)
    return caught.value


def test_a_write_to_a_read_only_database_is_a_read_only_fault_that_a_retry_cannot_fix(
    read_only: sqlite3.Connection,
) -> None:
    error = _storage_error_of(read_only, INSERT)
    assert (error.reason, error.retryable) == ("read_only", False)
    assert "read-only" in str(error)


def test_a_full_database_is_a_disk_full_fault_that_a_retry_can_fix(existing_db: Path) -> None:
    with closing(open_connection(existing_db)) as connection:
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        connection.execute(f"PRAGMA max_page_count = {pages}")
        big = "x" * 100_000
        error = _storage_error_of(connection, f"INSERT INTO sessions VALUES ('x', '{big}', 0)")
    assert (error.reason, error.retryable) == ("disk_full", True)


def test_a_lock_held_too_long_is_a_busy_fault_that_a_retry_can_fix(existing_db: Path) -> None:
    with (
        closing(open_connection(existing_db)) as holder,
        closing(open_connection(existing_db, busy_timeout_ms=0)) as waiter,
    ):
        holder.execute("BEGIN IMMEDIATE")
        error = _storage_error_of(waiter, "BEGIN IMMEDIATE")
        holder.execute("ROLLBACK")
    assert (error.reason, error.retryable) == ("busy", True)


def test_a_folder_where_the_file_should_be_cannot_be_opened(tmp_path: Path) -> None:
    with pytest.raises(StorageError) as caught:
        SqliteEventStore(tmp_path)
    assert (caught.value.reason, caught.value.retryable) == ("cannot_open", False)


def test_a_file_that_is_not_a_database_is_reported_as_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are notes, not a database" * 100)
    with pytest.raises(StorageError) as caught:
        SqliteEventStore(path)
    assert (caught.value.reason, caught.value.retryable) == ("corrupt", False)
    assert path.read_bytes() == b"these are notes, not a database" * 100


def test_check_writable_passes_on_a_healthy_store_and_writes_nothing(existing_db: Path) -> None:
    with SqliteEventStore(existing_db) as store:
        store.create_session("chat", session_id="s")
        store.check_writable()
        assert store.list_all_sessions()[0].title == "chat"
        assert store.pragmas()["busy_timeout"] == 5000  # the probe's short wait is undone


def test_check_writable_reports_a_lock_held_elsewhere_as_busy(existing_db: Path) -> None:
    with SqliteEventStore(existing_db) as store, closing(open_connection(existing_db)) as holder:
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(StorageError) as caught:
            store.check_writable(busy_timeout_ms=0)
        holder.execute("ROLLBACK")
    assert caught.value.reason == "busy"


def test_a_file_of_the_older_schema_is_refused_with_what_to_do(db_path: Path) -> None:
    with closing(sqlite3.connect(db_path)) as old:
        old.execute("CREATE TABLE events (event_id INTEGER PRIMARY KEY, session_id TEXT)")
    with pytest.raises(StoreError, match=r"schema version 0.*start a new file"):
        SqliteEventStore(db_path)


def test_a_closed_store_is_a_closed_fault(existing_db: Path) -> None:
    store = SqliteEventStore(existing_db)
    store.close()
    with pytest.raises(StorageError) as caught:
        store.append_event("s", "user_message", {"content": "x"})
    assert caught.value.reason == "closed"
