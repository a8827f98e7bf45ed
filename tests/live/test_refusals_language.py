"""The API words each refusal in the language its request asks for (``Accept-Language``),
else in the server's; its ``code``, what a program branches on, is the same in both. The
live page sends its own language with every request."""

# ruff: noqa: RUF001 - Chinese marks are what these tests look at

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from grader.i18n import using_language
from sqlite_demo.app import create_app
from sqlite_demo.service.access import AccessPolicy
from sqlite_demo.service.languages import accepted_language
from sqlite_demo.texts import say

TOKEN = "a-token"
ZH = {"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"}
EN = {"Accept-Language": "en-GB"}
STATIC = Path(__file__).resolve().parents[2] / "sqlite_demo" / "live" / "static"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh"),
        ("en-US,en;q=0.9,zh;q=0.8", "en"),
        ("fr, zh;q=0.5, en;q=0.4", "zh"),
        ("zh;q=0, en", "en"),
        ("en;q=0.2, zh-Hans;q=0.7", "zh"),
        ("zh;q=nonsense, en", "en"),
    ],
)
def test_the_first_language_of_ours_by_weight_is_taken(header: str, expected: str) -> None:
    assert accepted_language(header) == expected


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_request_naming_none_of_ours_gets_the_servers_language(language: str) -> None:
    with using_language(language):
        assert accepted_language(None) == accepted_language("fr, de") == language


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    policy = AccessPolicy.for_server(TOKEN, "127.0.0.1", 80, ["testserver"])
    with TestClient(create_app(tmp_path / "api.db", access=policy)) as client:
        yield client


def error_of(response: object) -> dict[str, str]:
    found: dict[str, str] = response.json()["error"]  # type: ignore[attr-defined]
    return found


def test_a_refusal_at_the_door_is_worded_in_the_language_asked_for(client: TestClient) -> None:
    chinese = error_of(client.get("/sessions", headers=ZH))
    english = error_of(client.get("/sessions", headers=EN))
    assert chinese["code"] == english["code"] == "unauthorized"
    assert chinese["message"] == say("api.unauthorized", "zh")
    assert english["message"] == say("api.unauthorized", "en")


def test_a_refusal_of_the_service_is_worded_in_the_language_asked_for(
    client: TestClient,
) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    missing = error_of(client.get("/sessions/nope/messages", headers={**auth, **ZH}))
    assert missing == {"code": "unknown_session", "message": "没有 id 为 'nope' 的会话",
                       "retryable": False}  # fmt: skip
    invalid = error_of(client.post("/sessions", json={}, headers={**auth, **ZH}))
    assert invalid["code"] == "invalid_request"
    assert invalid["message"] == "body.title：缺少这个字段"
    assert error_of(client.post("/sessions", json={}, headers={**auth, **EN}))["message"] == (
        "body.title: Field required"
    )
    as_json = {**auth, **ZH, "Content-Type": "application/json"}
    not_json = client.post("/sessions", content=b"{", headers=as_json)
    assert error_of(not_json) == {"code": "malformed_json", "message": "请求体不是合法的 JSON",
                                  "retryable": False}  # fmt: skip
    as_text = {**auth, **ZH, "Content-Type": "text/plain"}
    wrong_type = client.post("/sessions", content=b"{}", headers=as_text)
    assert error_of(wrong_type)["message"] == "请求体必须是 application/json，而不是 text/plain"
    nowhere = error_of(client.get("/nowhere", headers={**auth, **ZH}))
    assert nowhere == {"code": "not_found", "message": "/nowhere 这个地址上什么都没有",
                       "retryable": False}  # fmt: skip
    assert "这里不接受 DELETE" in error_of(client.delete("/sessions", headers={**auth, **ZH}))[
        "message"]  # fmt: skip


def test_the_live_page_sends_its_language_with_every_request() -> None:
    api = (STATIC / "api.js").read_text(encoding="utf-8")
    stream = (STATIC / "stream.js").read_text(encoding="utf-8")
    assert '"Accept-Language": language()' in api and '"Accept-Language": language()' in stream
