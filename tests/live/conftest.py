"""Fixtures for the live page and its stream: real servers on 127.0.0.1, real SQLite files.

Most tests run the service as a subprocess (it can be SIGKILLed like a crash); the tests that
need shorter heartbeats or a smaller stream limit run it in a thread of this process, where
its settings can be changed. Every server a test starts is stopped when the test ends.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import httpx
import pytest
import uvicorn

from sqlite_demo.app import create_app
from sqlite_demo.live.event_stream import StreamSettings
from sqlite_demo.live.stream_route import StreamClosingServer, configure_streams
from sqlite_demo.server import ServerProcess
from tests.databases import Database
from tests.live.browser import page  # the fixture, for every test here
from tests.live.long_session import build_long_session

__all__ = ["page"]

#: Start the app in a thread with these stream settings, on ``db_path`` unless given a database.
StartInThread = Callable[..., str]
#: Generous bounds that only stop a hung test; no test asserts how fast anything is.
READ_TIMEOUT_SECONDS = 15.0


@pytest.fixture
def http(server: ServerProcess) -> Iterator[httpx.Client]:
    """An HTTP client of ``server``, whose reads give up (and fail the test) if it hangs."""
    with client_of(server.url, server.headers) as client:
        yield client


def client_of(url: str, headers: Mapping[str, str] | None = None) -> httpx.Client:
    """Return an HTTP client of ``url`` with the suite's hang guard, sending ``headers``
    (a server's token: ``ServerProcess.headers``) with every request."""
    return httpx.Client(base_url=url, timeout=READ_TIMEOUT_SECONDS, headers=headers)


@pytest.fixture(scope="session")
def long_session_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding one 20,000-event session (built once per run); copy it to use it."""
    path = tmp_path_factory.mktemp("long-session") / "template.db"
    build_long_session(path)
    return path


@pytest.fixture
def start_in_thread(db_path: Path) -> Iterator[StartInThread]:
    """Serve the app from a thread of this process with the given stream settings; return
    its base URL. Servers are shut down (as on SIGTERM) when the test ends."""
    running: list[tuple[StreamClosingServer, threading.Thread]] = []

    def start(settings: StreamSettings, db: Database | None = None) -> str:
        app = create_app(db_path if db is None else db)
        configure_streams(app, settings)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        sock.listen(256)
        config = uvicorn.Config(app, log_level="warning", access_log=False)
        server = StreamClosingServer(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        running.append((server, thread))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        _wait_until_healthy(url)
        return url

    try:
        yield start
    finally:
        for server, thread in running:
            server.should_exit = True
            thread.join(timeout=READ_TIMEOUT_SECONDS)


def _wait_until_healthy(url: str) -> None:
    for _ in range(500):
        try:
            if httpx.get(f"{url}/health", timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        threading.Event().wait(0.01)
    raise RuntimeError(f"the in-process server at {url} did not answer /health")


def new_session(http: httpx.Client, title: str = "orders") -> str:
    """Create a session; return its id."""
    response = http.post("/sessions", json={"title": title})
    assert response.status_code == 201, response.text
    session_id: str = response.json()["id"]
    return session_id


def say(http: httpx.Client, session_id: str, content: str, key: str | None = None) -> None:
    """Take one turn of the scripted agent in the session."""
    headers = {"Idempotency-Key": key} if key else {}
    response = http.post(
        f"/sessions/{session_id}/messages", json={"content": content}, headers=headers
    )
    assert response.status_code == 200, response.text


def event_ids(http: httpx.Client, session_id: str) -> list[int]:
    """The session's event ids, as ``GET /sessions/{id}/events`` returns them."""
    response = http.get(f"/sessions/{session_id}/events")
    assert response.status_code == 200, response.text
    return [event["event_id"] for event in response.json()]


def stream_path(session_id: str) -> str:
    """The stream endpoint of a session."""
    return f"/sessions/{session_id}/events/stream"
