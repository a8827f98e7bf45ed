"""Every kind of bad request is refused with a plain JSON error and writes nothing.

"Writes nothing" is checked on the database itself: a full dump of every table
(sqlite_sequence included), read over a separate connection, is the same before and after
the request. The app runs in this process (its guards are ASGI middleware); what only a
socket shows (a refused body's connection, a body that never ends) is in
``test_body_guard_on_the_wire.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sqlite_demo.app import create_app
from sqlite_demo.service.access import AccessPolicy
from sqlite_demo.service.api_schema import MAX_CONTENT_CHARS
from tests.databases import BACKENDS, Database
from tests.service.helpers import dump_database

PORT = 48123
TOKEN = "bad-input-token"
BASE_URL = f"http://127.0.0.1:{PORT}"


@dataclass(frozen=True)
class Running:
    """The app shared by this module's tests, with one session that has a turn in it."""

    http: TestClient
    session_id: str
    db: Database


@pytest.fixture(scope="module", params=BACKENDS)
def running(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Running]:
    db: Database = tmp_path_factory.mktemp("bad_input") / "agent.db"
    if request.param == "postgres":
        db = request.getfixturevalue("postgres_cluster").new_database()
    # Behind the door serve puts up, passed with the token: as a real client's requests are.
    door = AccessPolicy.for_server(TOKEN, "127.0.0.1", PORT)
    headers = {"Authorization": f"Bearer {TOKEN}"}
    with TestClient(create_app(db, access=door), base_url=BASE_URL, headers=headers) as http:
        session_id = http.post("/sessions", json={"title": "订单客服"}).json()["id"]
        http.post(f"/sessions/{session_id}/messages", json={"content": "你好"})
        yield Running(http, session_id, db)


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


def test_content_at_the_size_limit_is_accepted_in_any_script(running: Running) -> None:
    content = "订" * MAX_CONTENT_CHARS  # 65,536 characters, 196,608 bytes of UTF-8

    response = running.http.post(
        f"/sessions/{running.session_id}/messages", json={"content": content}
    )

    assert response.status_code == 200
