"""Fixtures for the store tests: a database path, a fresh store, both stores for the contract."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from eventlog.ports import EventStore
from sqlite_demo import SqliteEventStore
from tests.store.adapters import AutoSessionSqliteStore, MemoryEventStore


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A database file that does not exist yet, in a directory of its own."""
    return tmp_path / "events.db"


@pytest.fixture
def fresh_db(db_path: Path) -> Iterator[SqliteEventStore]:
    """A new SQLite store on ``db_path``, closed after the test."""
    with SqliteEventStore(db_path) as store:
        yield store


@pytest.fixture
def raw_db(fresh_db: SqliteEventStore) -> Iterator[sqlite3.Connection]:
    """A plain ``sqlite3`` connection to ``fresh_db``'s file: no pragmas, autocommit.

    For tests that go around the store to show what the schema itself refuses.
    """
    with closing(sqlite3.connect(fresh_db.path, isolation_level=None)) as connection:
        yield connection


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    """Each store of the kit in turn, behind the ``EventStore`` port."""
    if request.param == "memory":
        yield MemoryEventStore()
        return
    with SqliteEventStore(tmp_path / "contract.db") as sqlite_store:
        yield AutoSessionSqliteStore(sqlite_store)
