"""Every kind of bad request is refused with a plain JSON error and writes nothing.

"Writes nothing" is checked on the file itself: a full dump of every table (sqlite_sequence
included), read over a separate connection, is the same before and after the request.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from sqlite_demo.server import ServerProcess
from sqlite_demo.service.api_schema import MAX_CONTENT_CHARS
from sqlite_demo.service.body_guard import MAX_BODY_BYTES
from tests.databases import BACKENDS, Database
from tests.service.helpers import dump_database


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
    workdir = tmp_path_factory.mktemp("bad_input")
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


@dataclass(frozen=True)
class BadRequest:
    """One bad request: where it goes, what it sends, and the refusal it must get."""

    name: str
    method: str
    path: str  # "{session}" is replaced by the module's session id
    status: int
    code: str
    json: Any = None
    content: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    params: dict[str, str] = field(default_factory=dict)


MESSAGES = "/sessions/{session}/messages"
JSON_HEADER = {"content-type": "application/json"}
TOO_LONG = "订" * (MAX_CONTENT_CHARS + 1)  # the limit counts characters, as JSON Schema does

BAD_REQUESTS = [
    BadRequest("malformed JSON", "POST", MESSAGES, 400, "malformed_json",
               content=b'{"content": "hi"', headers=JSON_HEADER),
    BadRequest("malformed JSON session", "POST", "/sessions", 400, "malformed_json",
               content=b"{title: 1}", headers=JSON_HEADER),
    BadRequest("a body that is not UTF-8", "POST", MESSAGES, 400, "malformed_json",
               content=b'{"content": "\xff\xfe"}', headers=JSON_HEADER),
    BadRequest("a text/plain body", "POST", MESSAGES, 415, "unsupported_media_type",
               content=b'{"content": "hi"}', headers={"content-type": "text/plain"}),
    BadRequest("a form body", "POST", "/sessions", 415, "unsupported_media_type",
               content=b"title=x", headers={"content-type": "application/x-www-form-urlencoded"}),
    BadRequest("a body with no content type", "POST", "/sessions", 415,
               "unsupported_media_type", content=b'{"title": "x"}'),
    BadRequest("missing content", "POST", MESSAGES, 422, "invalid_request", json={}),
    BadRequest("content of the wrong type", "POST", MESSAGES, 422, "invalid_request",
               json={"content": 42}),
    BadRequest("empty content", "POST", MESSAGES, 422, "invalid_request", json={"content": ""}),
    BadRequest("an unknown field", "POST", MESSAGES, 422, "invalid_request",
               json={"content": "hi", "role": "system"}),
    BadRequest("a body that is not an object", "POST", MESSAGES, 422, "invalid_request",
               json=["hi"]),
    BadRequest("missing title", "POST", "/sessions", 422, "invalid_request", json={}),
    BadRequest("title of the wrong type", "POST", "/sessions", 422, "invalid_request",
               json={"title": None}),
    BadRequest("a title over 200 characters", "POST", "/sessions", 422, "invalid_request",
               json={"title": "t" * 201}),
    BadRequest("a lone surrogate in the content", "POST", MESSAGES, 422, "invalid_request",
               content=b'{"content": "\\ud800"}', headers=JSON_HEADER),
    BadRequest("a lone surrogate in the title", "POST", "/sessions", 422, "invalid_request",
               content=b'{"title": "\\udfff"}', headers=JSON_HEADER),
    BadRequest("an empty idempotency key", "POST", MESSAGES, 422, "invalid_request",
               json={"content": "hi"}, headers={"Idempotency-Key": ""}),
    BadRequest("an idempotency key over 200 characters", "POST", MESSAGES, 422,
               "invalid_request", json={"content": "hi"}, headers={"Idempotency-Key": "k" * 201}),
    BadRequest("unknown session, message", "POST", "/sessions/sess_nope/messages", 404,
               "unknown_session", json={"content": "hi"}),
    BadRequest("unknown session, events", "GET", "/sessions/sess_nope/events", 404,
               "unknown_session"),
    BadRequest("unknown session, messages", "GET", "/sessions/sess_nope/messages", 404,
               "unknown_session"),
    BadRequest("unknown session, replay", "GET", "/sessions/sess_nope/replay", 404,
               "unknown_session"),
    BadRequest("content over its limit", "POST", MESSAGES, 422, "invalid_request",
               json={"content": TOO_LONG}),
    BadRequest("a negative after", "GET", "/sessions/{session}/events", 422, "invalid_request",
               params={"after": "-1"}),
    BadRequest("a non-integer after", "GET", "/sessions/{session}/events", 422,
               "invalid_request", params={"after": "abc"}),
    BadRequest("a fractional after", "GET", "/sessions/{session}/events", 422,
               "invalid_request", params={"after": "1.5"}),
    BadRequest("an after beyond SQLite's integers", "GET", "/sessions/{session}/events", 422,
               "invalid_request", params={"after": str(2**63)}),
    BadRequest("an unknown route", "GET", "/nowhere", 404, "not_found"),
    BadRequest("a wrong method", "DELETE", "/sessions", 405, "method_not_allowed"),
]  # fmt: skip


@pytest.mark.parametrize("bad", BAD_REQUESTS, ids=lambda bad: bad.name)
def test_a_bad_request_is_refused_plainly_and_writes_nothing(
    running: Running, bad: BadRequest
) -> None:
    before = dump_database(running.db)

    response = running.http.request(
        bad.method,
        bad.path.format(session=running.session_id),
        json=bad.json,
        content=bad.content,
        headers=bad.headers,
        params=bad.params,
    )

    assert (response.status_code, response.json()["error"]["code"]) == (bad.status, bad.code)
    assert isinstance(response.json()["error"]["message"], str)
    assert response.json()["error"]["retryable"] is False
    assert dump_database(running.db) == before


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("DELETE", "/sessions", "GET, POST"),
        ("PUT", "/sessions/{session}/messages", "GET, POST"),
        ("POST", "/health", "GET"),
        ("PATCH", "/sessions/{session}/replay", "GET"),
    ],
)
def test_a_wrong_method_is_a_405_whose_allow_header_lists_every_method_of_the_path(
    running: Running, method: str, path: str, allowed: str
) -> None:
    response = running.http.request(method, path.format(session=running.session_id))

    assert (response.status_code, response.headers["allow"]) == (405, allowed)
    assert response.json()["error"]["code"] == "method_not_allowed"


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


def test_content_at_the_size_limit_is_accepted_in_any_script(running: Running) -> None:
    content = "订" * MAX_CONTENT_CHARS  # 65,536 characters, 196,608 bytes of UTF-8

    response = running.http.post(
        f"/sessions/{running.session_id}/messages", json={"content": content}
    )

    assert response.status_code == 200
