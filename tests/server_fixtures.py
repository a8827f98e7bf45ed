"""Fixtures shared by the service and live-page tests: real server subprocesses on 127.0.0.1,
on a real SQLite file under ``tmp_path`` or a real PostgreSQL database.

``tests/conftest.py`` registers them for the whole suite.
Every server a test starts is stopped in a ``finally``, so a failing test never leaves a
process behind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from sqlite_demo.server import ServerProcess
from tests.databases import BACKENDS, Database, database_for

#: Start a server on a database file; keywords go to :class:`ServerProcess` (``no_token``,
#: ``allowed_hosts``, ...).
StartServer = Callable[..., ServerProcess]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A SQLite database file that does not exist yet; the server creates it. For tests of
    what only a file can show (its pragmas, its WAL, a read-only mount)."""
    return tmp_path / "agent.db"


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """A new database of each backend in turn: a SQLite file, then a PostgreSQL database.

    A test that takes it (or ``server``, which is started on it) runs once per backend,
    with the same assertions.
    """
    return database_for(request.param, request, tmp_path)


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[StartServer]:
    """Start server subprocesses on database files; all are stopped when the test ends."""
    servers: list[ServerProcess] = []

    def start(db: Database, **options: Any) -> ServerProcess:
        server = ServerProcess(db, tmp_path / f"server{len(servers)}.log", **options)
        servers.append(server)
        server.start()
        return server

    try:
        yield start
    finally:
        for server in servers:
            server.stop()


@pytest.fixture
def server(start_server: StartServer, db: Database) -> ServerProcess:
    """One running server subprocess on a fresh database, of each backend in turn."""
    return start_server(db)
