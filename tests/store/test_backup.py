"""Backing up a live WAL database: a file copy misses committed events, the backup API does not.

This is the chapter's fifth pitfall. Committed transactions sit in the ``-wal`` file until a
checkpoint copies them into the main file, so copying the main file alone loses them.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from sqlite_demo import SqliteEventStore, StoreError, backup_database

EVENTS = 5


def _event_count(path: Path) -> int:
    with closing(sqlite3.connect(path)) as connection:
        return int(connection.execute("SELECT count(*) FROM events").fetchone()[0])


@pytest.fixture
def live_store(db_path: Path) -> Iterator[SqliteEventStore]:
    """A store left open with EVENTS committed events that are still only in the -wal file."""
    SqliteEventStore(db_path).close()  # the schema is checkpointed into the main file on close
    # No automatic checkpoint, and the store stays open (closing the last connection
    # checkpoints): the events stay in the -wal file, as in a busy server.
    with SqliteEventStore(db_path, wal_autocheckpoint_pages=0) as store:
        store.create_session("chat", session_id="s")
        for number in range(EVENTS):
            store.append_event("s", "user_message", {"content": f"message {number}"})
        yield store


def test_the_committed_events_are_still_only_in_the_wal_file(live_store: SqliteEventStore) -> None:
    wal = live_store.path.with_name(live_store.path.name + "-wal")
    assert wal.stat().st_size > 0
    assert len(live_store.get_events_for_session("s")) == EVENTS


def test_copying_only_the_main_file_loses_the_committed_events(
    live_store: SqliteEventStore, tmp_path: Path
) -> None:
    copy = tmp_path / "copied.db"
    shutil.copy(live_store.path, copy)
    assert _event_count(copy) == 0


def test_the_backup_api_copies_every_committed_event(
    live_store: SqliteEventStore, tmp_path: Path
) -> None:
    backup = tmp_path / "backup.db"
    backup_database(live_store.path, backup)
    assert _event_count(backup) == EVENTS


def test_a_backup_is_one_self_contained_file_that_opens_as_a_store(
    live_store: SqliteEventStore, tmp_path: Path
) -> None:
    backup_database(live_store.path, tmp_path / "backup.db")
    # Copy the backup's main file alone: if anything were left in a -wal, it would be lost.
    shutil.copy(tmp_path / "backup.db", tmp_path / "moved.db")
    with SqliteEventStore(tmp_path / "moved.db") as restored:
        assert restored.replay_session("s") == live_store.replay_session("s")


def test_backing_up_a_missing_file_or_onto_the_source_itself_is_refused(
    live_store: SqliteEventStore, tmp_path: Path
) -> None:
    with pytest.raises(StoreError, match="no database file"):
        backup_database(tmp_path / "missing.db", tmp_path / "backup.db")
    with pytest.raises(StoreError, match="onto itself"):
        backup_database(live_store.path, live_store.path)
    assert not (tmp_path / "missing.db").exists()
