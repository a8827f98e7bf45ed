"""Fixtures: real server subprocesses on 127.0.0.1, real SQLite files under tmp_path.

Every server a test starts is stopped in a ``finally``, so a failing test never leaves a
process behind.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient

from sqlite_demo.app import create_app
from sqlite_demo.server import ServerProcess
from sqlite_demo.service.client import AgentClient
from tests.databases import Database


@pytest.fixture
def client(server: ServerProcess) -> Iterator[AgentClient]:
    """A client of ``server``."""
    with AgentClient(server.url, token=server.token) as agent_client:
        yield agent_client


@pytest.fixture
def http(server: ServerProcess) -> Iterator[httpx.Client]:
    """A raw HTTP client of ``server``, for requests the typed client would never send."""
    with httpx.Client(base_url=server.url, timeout=10, headers=server.headers) as raw:
        yield raw


@pytest.fixture
def in_process(db: Database) -> Iterator[TestClient]:
    """The app in this process (lifespan included) on ``db``, of each backend in turn: for
    tests that prepare the database through the store first and need no kill."""
    with TestClient(create_app(db)) as test_client:
        yield test_client
