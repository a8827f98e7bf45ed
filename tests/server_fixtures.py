"""Fixtures shared by the service and live-page tests: real server subprocesses on 127.0.0.1,
real SQLite files under ``tmp_path``.

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

#: Start a server on a database file; keywords go to :class:`ServerProcess` (``no_token``,
#: ``allowed_hosts``, ...).
StartServer = Callable[..., ServerProcess]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A database file that does not exist yet; the server creates it."""
    return tmp_path / "agent.db"


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[StartServer]:
    """Start server subprocesses on database files; all are stopped when the test ends."""
    servers: list[ServerProcess] = []

    def start(db: Path, **options: Any) -> ServerProcess:
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
def server(start_server: StartServer, db_path: Path) -> ServerProcess:
    """One running server subprocess on a fresh database."""
    return start_server(db_path)
