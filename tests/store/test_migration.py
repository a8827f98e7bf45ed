"""A database of schema 1 (the chapter's four event types only) is migrated in place on open."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from sqlite_demo import SqliteEventStore

SCHEMA_V1 = Path(__file__).with_name("schema_v1.sql").read_text(encoding="utf-8")


@pytest.fixture
def v1_file(db_path: Path) -> Path:
    """A schema-1 file holding one session: a call, its result, and a reply."""
    with closing(sqlite3.connect(db_path, isolation_level=None)) as raw:
        raw.execute("PRAGMA journal_mode = WAL")
        raw.executescript(f"BEGIN; {SCHEMA_V1}; PRAGMA user_version = 1; COMMIT;")
        raw.execute("INSERT INTO sessions VALUES ('s', 'old', 0)")
        rows = [
            (1, "tool_call", '{"call_id":"c1","name":"n","arguments":"{}"}', "c1"),
            (2, "tool_result", '{"call_id":"c1","content":"42"}', "c1"),
            (3, "assistant_message", '{"content":"42 orders"}', None),
        ]
        for event_id, kind, payload, call_id in rows:
            raw.execute(
                "INSERT INTO events (event_id, session_id, type, payload, created_at, call_id)"
                " VALUES (?, 's', ?, ?, 0, ?)",
                (event_id, kind, payload, call_id),
            )
        raw.execute("INSERT INTO tool_calls VALUES (1, 's', 'c1', 'n', '{}', '42', 0)")
        raw.execute("INSERT INTO messages VALUES (3, 's', 'assistant', '42 orders', 0)")
    return db_path


def test_a_schema_1_file_keeps_its_events_ids_and_projections_and_takes_corrections(
    v1_file: Path,
) -> None:
    with SqliteEventStore(v1_file) as store:
        assert [e.event_id for e in store.get_events_for_session("s")] == [1, 2, 3]
        assert store.get_tool_calls("s")[0].result == "42"
        assert store.append_event("s", "item_removed", {"supersedes": 3}).event_id == 4
        assert [row.event_id for row in store.get_messages("s")] == []
    with closing(sqlite3.connect(v1_file)) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 2
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
        names = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
        assert {"events_refuse_update", "idx_events_session", "idx_events_removed"} <= names
        assert "events_v1" not in names


def test_the_migrated_log_is_still_append_only_and_its_foreign_keys_hold(v1_file: Path) -> None:
    with SqliteEventStore(v1_file) as store:
        store.get_session("s")
    with closing(sqlite3.connect(v1_file, isolation_level=None)) as raw:
        raw.execute("PRAGMA foreign_keys = ON")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("DELETE FROM events WHERE event_id = 1")
        with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
            raw.execute("INSERT INTO messages VALUES (99, 's', 'user', 'orphan', 0)")


def test_opening_a_migrated_file_again_leaves_its_schema_and_events_as_they_were(
    v1_file: Path,
) -> None:
    def snapshot() -> tuple[list[tuple[str, ...]], list[tuple[object, ...]]]:
        with closing(sqlite3.connect(v1_file)) as raw:
            schema = raw.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name")
            events = raw.execute("SELECT * FROM events ORDER BY event_id")
            return schema.fetchall(), events.fetchall()

    SqliteEventStore(v1_file).close()
    migrated = snapshot()
    SqliteEventStore(v1_file).close()
    assert snapshot() == migrated
    assert ("table", "events_v1") not in {row[:2] for row in migrated[0]}
