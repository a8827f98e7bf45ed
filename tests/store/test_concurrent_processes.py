"""Several processes appending to one file at once: every append lands, with unique gap-free ids.

Each process has its own connection. BEGIN IMMEDIATE makes them take turns for the write
lock, and busy_timeout makes a process wait for its turn instead of failing with
"database is locked".
"""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from sqlite_demo import SqliteEventStore
from sqlite_demo.store.sqlite.connection import create_schema, open_connection, schema_script
from tests.store.workers import WorkerReport, append_many

PROCESSES = 4
APPENDS_EACH = 200
# A bound on a hang, not a speed requirement: the whole run takes a few seconds.
HANG_GUARD_SECONDS = 120


def _run_writers(db_path: Path) -> list[WorkerReport]:
    context = multiprocessing.get_context("spawn")  # children start clean: no inherited sqlite
    start = context.Barrier(PROCESSES)
    reports = context.Queue()
    workers = [
        context.Process(
            target=append_many, args=(str(db_path), f"p{n}", APPENDS_EACH, start, reports)
        )
        for n in range(PROCESSES)
    ]
    for worker in workers:
        worker.start()
    collected = [reports.get(timeout=HANG_GUARD_SECONDS) for _ in workers]
    for worker in workers:
        worker.join(timeout=HANG_GUARD_SECONDS)
    return collected


@pytest.fixture(scope="module")
def written_by_processes(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, list[WorkerReport]]:
    """A database that PROCESSES processes have just appended to at the same time."""
    db_path = tmp_path_factory.mktemp("concurrent") / "events.db"
    with SqliteEventStore(db_path) as store:
        for n in range(PROCESSES):
            store.create_session(f"writer {n}", session_id=f"p{n}")
    return db_path, _run_writers(db_path)


def test_concurrent_appends_from_several_processes_all_land_with_unique_gap_free_ids(
    written_by_processes: tuple[Path, list[WorkerReport]],
) -> None:
    _, reports = written_by_processes
    assert [error for _, _, error in reports if error] == []  # no "database is locked"
    all_ids = sorted(event_id for _, ids, _ in reports for event_id in ids)
    assert all_ids == list(range(1, PROCESSES * APPENDS_EACH + 1))
    for _, ids, _ in reports:
        assert ids == sorted(ids), "one process's appends must keep their order"


def test_after_concurrent_appends_each_session_reads_back_its_own_events_in_order(
    written_by_processes: tuple[Path, list[WorkerReport]],
) -> None:
    db_path, reports = written_by_processes
    with SqliteEventStore(db_path) as store:
        for session_id, ids, _ in reports:
            events = store.get_events_for_session(session_id)
            assert [event.event_id for event in events] == ids
            contents = [event.payload["content"] for event in events]
            assert contents == [f"#{n}" for n in range(APPENDS_EACH)]
            assert len(store.get_messages(session_id)) == APPENDS_EACH


def test_a_store_opened_while_another_creates_the_schema_waits_and_finds_it_made(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The race two processes opening a new file at once met in CI: the second read the file's
    # version (0: nothing committed yet), then the first committed its new tables, then the
    # second looked at the tables, found them, and refused them as an "older schema". Here
    # the first commits at that very point, every time: just after the second has read the
    # version, before its next statement runs.
    first = open_connection(db_path)
    first.execute("BEGIN IMMEDIATE")
    create_schema(first, schema_script())
    statements: list[str] = []

    def commit_the_first_once_the_second_has_looked(statement: str) -> None:
        if first.in_transaction and statements and statements[-1] == "PRAGMA user_version":
            first.execute("COMMIT")
        statements.append(statement.strip())

    real_connect = sqlite3.connect

    def connect_and_watch(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        connection = real_connect(*args, **kwargs)
        connection.set_trace_callback(commit_the_first_once_the_second_has_looked)
        return connection

    monkeypatch.setattr(sqlite3, "connect", connect_and_watch)
    try:
        with SqliteEventStore(db_path) as second:
            assert not first.in_transaction  # the race was met: the first committed meanwhile
            second.create_session("made by the first", session_id="s")
            assert [session.id for session in second.list_all_sessions()] == ["s"]
    finally:
        first.close()
