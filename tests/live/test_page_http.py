"""The page and what it reads, over HTTP: served from the package, needing nothing else.

These run the app in this process (FastAPI's TestClient): none of them needs a kill.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from fnmatch import fnmatch
from importlib import resources
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from sqlite_demo.app import create_app
from sqlite_demo.live.page import CONTENT_SECURITY_POLICY, STATIC_FILES
from sqlite_demo.live.stream_route import STREAM_OPERATION_ID, STREAM_TAG

STATIC = resources.files("sqlite_demo.live").joinpath("static")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "page.db")) as test_client:
        yield test_client


def test_the_page_is_served_at_the_root_with_a_policy_that_allows_only_this_server(
    client: TestClient,
) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "default-src 'none'" in CONTENT_SECURITY_POLICY
    assert "https:" not in CONTENT_SECURITY_POLICY and "*" not in CONTENT_SECURITY_POLICY
    for name in ("static/live.css", "static/live.js", 'id="events"', 'id="replay"'):
        assert name in response.text


@pytest.mark.parametrize("name", sorted(STATIC_FILES))
def test_each_static_file_is_served_with_its_type_and_the_same_policy(
    client: TestClient, name: str
) -> None:
    response = client.get(f"/static/{name}")

    assert response.status_code == 200
    assert response.headers["content-type"] == STATIC_FILES[name]
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.text == STATIC.joinpath(name).read_text(encoding="utf-8")


def test_every_file_in_the_static_folder_is_served_and_packaged() -> None:
    on_disk = {entry.name for entry in STATIC.iterdir() if entry.is_file()}
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = package_data["tool"]["setuptools"]["package-data"]["sqlite_demo.live"]

    assert on_disk == set(STATIC_FILES) | {"index.html"}
    for name in on_disk:
        assert any(fnmatch(f"static/{name}", pattern) for pattern in globs), name


def test_nothing_on_the_page_points_to_another_site() -> None:
    # An absolute or protocol-relative URL, a CSS import or a font: anything that would
    # make an offline learner's browser reach out.
    outward = re.compile(r"https?://|(?<![:/])//[\w-]+\.[\w.-]+/|@import|url\(|@font-face")
    for entry in STATIC.iterdir():
        text = entry.read_text(encoding="utf-8")
        assert not outward.search(text), f"{entry.name}: {outward.search(text)}"


@pytest.mark.parametrize(
    "path",
    [
        "/static/index.html.bak",
        "/static/..%2fstore.py",
        "/static/%2e%2e/store.py",
        "/static/../schema.sql",
        "/static/live.js%00",
        "/static/LIVE.JS",
        "/static/",
    ],
)
def test_the_static_route_serves_its_listed_files_and_nothing_else(
    client: TestClient, path: str
) -> None:
    response = client.get(path)

    assert response.status_code == 404
    assert "def " not in response.text and "CREATE TABLE" not in response.text


def test_tool_calls_lists_the_projection_rows_with_their_results(client: TestClient) -> None:
    session = client.post("/sessions", json={"title": "orders"}).json()["id"]
    client.post(f"/sessions/{session}/messages", json={"content": "hello"})
    client.post(f"/sessions/{session}/messages", json={"content": "how many orders do I have?"})

    response = client.get(f"/sessions/{session}/tool_calls")

    assert response.status_code == 200
    assert response.json() == [
        {
            "event_id": 4,
            "call_id": "call_1",
            "name": "query_order_count",
            "arguments": "{}",
            "result": "42",
        }
    ]


def test_tool_calls_of_a_session_without_any_is_empty_and_of_an_unknown_one_404(
    client: TestClient,
) -> None:
    session = client.post("/sessions", json={"title": "docs"}).json()["id"]
    client.post(f"/sessions/{session}/messages", json={"content": "hello"})

    assert client.get(f"/sessions/{session}/tool_calls").json() == []
    unknown = client.get("/sessions/sess_nobody/tool_calls")
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "unknown_session"


def test_the_openapi_schema_documents_the_stream_as_text_event_stream(
    client: TestClient,
) -> None:
    schema = client.get("/openapi.json").json()
    operation = schema["paths"]["/sessions/{session_id}/events/stream"]["get"]

    assert operation["operationId"] == STREAM_OPERATION_ID
    assert operation["tags"] == [STREAM_TAG]
    assert list(operation["responses"]["200"]["content"]) == ["text/event-stream"]
    parameters = {(p["in"], p["name"]) for p in operation["parameters"]}
    assert parameters == {
        ("path", "session_id"),
        ("query", "after"),
        ("query", "follow"),
        ("header", "Last-Event-ID"),
    }
    for status in ("401", "403", "404", "422", "503"):
        error = operation["responses"][status]["content"]["application/json"]["schema"]
        assert error == {"$ref": "#/components/schemas/ErrorBody"}
    assert "/" not in schema["paths"] and "/static/{name}" not in schema["paths"]
    assert "/sessions/{session_id}/tool_calls" in schema["paths"]
