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

from sqlite_demo import SqliteEventStore, StorageError, StoreError, backup_database
from sqlite_demo.store.sqlite import backup

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


def test_the_copy_is_in_rollback_journal_mode_and_opening_it_creates_no_wal(
    live_store: SqliteEventStore, tmp_path: Path
) -> None:
    backup = tmp_path / "backup.db"
    backup_database(live_store.path, backup)
    header = backup.read_bytes()[:100]
    assert (header[18], header[19]) == (1, 1)  # 1 = rollback journal, 2 = WAL
    with closing(sqlite3.connect(backup)) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert _event_count(backup) == EVENTS
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "backup.db",
        "events.db",
        "events.db-shm",
        "events.db-wal",
    ]


def test_a_failed_backup_leaves_neither_the_destination_nor_a_partial_file(tmp_path: Path) -> None:
    not_a_database = tmp_path / "notes.txt"
    not_a_database.write_text("not a database, but long enough to have a header" * 10)
    with pytest.raises(StorageError, match="not a database"):
        backup_database(not_a_database, tmp_path / "backup.db")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["notes.txt"]


def test_a_destination_that_appears_during_the_copy_is_not_overwritten(
    live_store: SqliteEventStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    destination = tmp_path / "backup.db"
    copy_pages = backup._backup

    def another_process_takes_the_name(source: Path, partial: Path, timeout: int) -> None:
        destination.write_text("written by someone else meanwhile")
        copy_pages(source, partial, timeout)

    monkeypatch.setattr(backup, "_backup", another_process_takes_the_name)
    with pytest.raises(StoreError, match="already exists"):
        backup_database(live_store.path, destination)
    assert destination.read_text() == "written by someone else meanwhile"
    assert not list(tmp_path.glob("*.partial"))


@pytest.mark.parametrize(
    ("source", "destination", "complaint"),
    [
        ("missing.db", "backup.db", "no database file at"),
        ("events.db", "events.db", "already exists"),
        ("events.db", "no/such/folder/backup.db", "no folder"),
    ],
)
def test_a_bad_source_or_destination_is_refused_in_one_line_and_nothing_is_written(
    live_store: SqliteEventStore, tmp_path: Path, source: str, destination: str, complaint: str
) -> None:
    before = sorted(tmp_path.iterdir())
    with pytest.raises(StoreError, match=complaint) as refusal:
        backup_database(tmp_path / source, tmp_path / destination)
    assert "\n" not in str(refusal.value)
    assert sorted(tmp_path.iterdir()) == before
