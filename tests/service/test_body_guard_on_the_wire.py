"""What only a socket shows of the body guard: a refused body's connection, and a body that
is never sent in full, against a real ``serve`` process.

The guard's refusals themselves are checked in this process (``test_bad_input.py``,
``test_body_guard.py``); here, that the refusal reaches a client that is still sending, and
that a refusal after a whole body leaves the connection open for the next request.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from sqlite_demo.server import ServerProcess
from sqlite_demo.service.body_guard import MAX_BODY_BYTES
from tests.databases import BACKENDS, Database
from tests.service.helpers import dump_database

# The module's server is started by its own fixture, not by the suite's ``server``.
pytestmark = pytest.mark.server
JSON_HEADER = {"content-type": "application/json"}


@dataclass(frozen=True)
class Running:
    """A server shared by this module's tests, with one session that has a turn in it."""

    server: ServerProcess
    http: httpx.Client
    session_id: str
    db: Database


@pytest.fixture(scope="module", params=BACKENDS)
def running(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Running]:
    workdir = tmp_path_factory.mktemp("body_guard")
    db: Database = workdir / "agent.db"
    if request.param == "postgres":
        db = request.getfixturevalue("postgres_cluster").new_database()
    server = ServerProcess(db, workdir / "server.log")
    try:
        server.start()
        with httpx.Client(base_url=server.url, timeout=10, headers=server.headers) as http:
            session_id = http.post("/sessions", json={"title": "订单客服"}).json()["id"]
            http.post(f"/sessions/{session_id}/messages", json={"content": "你好"})
            yield Running(server, http, session_id, db)
    finally:
        server.stop()


def test_after_a_refusal_the_same_kept_alive_connection_serves_the_next_request(
    running: Running,
) -> None:
    refused = running.http.post("/sessions", content=b"{", headers=JSON_HEADER)
    served = running.http.get("/health")

    assert (refused.status_code, served.status_code) == (400, 200)
    assert "close" not in refused.headers.get("connection", "")
    assert served.extensions["network_stream"] is refused.extensions["network_stream"]


def test_a_declared_body_over_the_limit_is_refused_before_it_is_read(running: Running) -> None:
    before = dump_database(running.db)
    head = f"Content-Length: {MAX_BODY_BYTES + 1}"

    # Headers only: the body is never sent, so only a refusal that does not wait for it
    # can answer.
    status_line = _raw_post(running, head, b"")

    assert b" 413 " in status_line
    assert dump_database(running.db) == before


def test_a_chunked_body_over_the_limit_is_refused_once_it_passes_the_limit(
    running: Running,
) -> None:
    before = dump_database(running.db)
    chunk = b"x" * 65536
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(17))

    # 17 * 64 KiB > 1 MiB, and no final zero-length chunk: the body never ends.
    status_line = _raw_post(running, "Transfer-Encoding: chunked", chunks)

    assert b" 413 " in status_line
    assert dump_database(running.db) == before


def _raw_post(running: Running, framing_header: str, body: bytes) -> bytes:
    """Send a POST by hand (framing no HTTP client would send) and return the status line."""
    host, port = "127.0.0.1", running.server.port
    head = (
        f"POST /sessions/{running.session_id}/messages HTTP/1.1\r\nHost: {host}:{port}\r\n"
        f"Authorization: {running.server.headers['Authorization']}\r\n"
        f"Content-Type: application/json\r\n{framing_header}\r\n\r\n"
    )
    with socket.create_connection((host, port), timeout=10) as connection:
        connection.sendall(head.encode() + body)
        return connection.recv(4096).split(b"\r\n", 1)[0]
