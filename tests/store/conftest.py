"""Fixtures for the store tests: a database of each backend, a fresh store on it, a raw
connection behind its back, and every store of the kit for the contract.

``db`` and ``fresh_db`` are parametrized: a test that takes either runs once on SQLite and
once on PostgreSQL, with the same assertions. ``db_path`` and ``sqlite_db`` are for what
only a SQLite file can show (its pragmas, its WAL, its backup).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from eventlog.ports import EventStore as PortStore
from sqlite_demo import EventStore, SqliteEventStore, open_store
from tests.databases import BACKENDS, Database, database_for
from tests.store.adapters import AutoSessionStore, MemoryEventStore
from tests.store.raw import RawDatabase, raw_connection


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A SQLite database file that does not exist yet, in a directory of its own."""
    return tmp_path / "events.db"


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """A new database of each backend in turn: a SQLite file, then a PostgreSQL database."""
    return database_for(request.param, request, tmp_path)


@pytest.fixture
def fresh_db(db: Database) -> Iterator[EventStore]:
    """A new store on ``db`` (each backend in turn), closed after the test."""
    with open_store(db) as store:
        yield store


@pytest.fixture
def sqlite_db(db_path: Path) -> Iterator[SqliteEventStore]:
    """A new SQLite store on ``db_path``, closed after the test."""
    with SqliteEventStore(db_path) as store:
        yield store


@pytest.fixture
def raw_db(fresh_db: EventStore, db: Database) -> Iterator[RawDatabase]:
    """A plain connection to ``fresh_db``'s database, in autocommit, with none of the
    store's settings: for tests that go around the store to show what the schema refuses."""
    with raw_connection(db) as connection:
        yield connection


@pytest.fixture(params=["memory", *BACKENDS])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[PortStore]:
    """Each store of the kit in turn, behind the pure core's ``EventStore`` port."""
    if request.param == "memory":
        yield MemoryEventStore()
        return
    with open_store(database_for(request.param, request, tmp_path)) as durable:
        yield AutoSessionStore(durable)
