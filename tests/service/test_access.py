"""The door: every route wants the token and the served Host, tried as an attacker would.

Each test is an attack that succeeded before the service had a door (anyone reaching the
port read and wrote every session; a DNS-rebinding page could talk to 127.0.0.1), run
against a real ``serve`` process. The routes are taken from the app itself, so a route
added later is attacked too.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from sqlite_demo.app import create_app
from sqlite_demo.live.page import STATIC_FILES
from sqlite_demo.server import ServerProcess
from tests.databases import Database
from tests.server_fixtures import StartServer
from tests.service.helpers import dump_database


def every_route(session_id: str) -> list[tuple[str, str]]:
    """Every (method, path) the app serves, path parameters filled in with real values: each
    operation of its schema, the schema itself, the page and each of its files."""
    schema = create_app("never-opened.db").openapi()
    routes = [
        (method.upper(), path.format(session_id=session_id))
        for path, operations in schema["paths"].items()
        for method in operations
    ]
    pages = ["/", "/openapi.json", *(f"/static/{name}" for name in sorted(STATIC_FILES))]
    return routes + [("GET", path) for path in pages]


@pytest.fixture
def session_id(http: httpx.Client) -> str:
    response = http.post("/sessions", json={"title": "secret plans"})
    assert response.status_code == 201
    session: str = response.json()["id"]
    http.post(f"/sessions/{session}/messages", json={"content": "hello"})
    return session


@pytest.fixture
def stranger(server: ServerProcess) -> Iterator[httpx.Client]:
    """A client that reaches the port but holds no token."""
    with httpx.Client(base_url=server.url, timeout=10) as client:
        yield client


def send(client: httpx.Client, method: str, path: str, **options: object) -> httpx.Response:
    body = {"json": {"content": "hi", "title": "t"}} if method == "POST" else {}
    return client.request(method, path, **body, **options)  # type: ignore[arg-type]


def assert_refused(response: httpx.Response, status: int, code: str, token: str | None) -> None:
    where = f"{response.request.method} {response.request.url.path}"
    assert response.status_code == status, f"{where}: {response.status_code} {response.text}"
    assert response.json()["error"]["code"] == code, where
    assert response.json()["error"]["retryable"] is False, where
    assert token is None or token not in response.text + str(response.headers), where


def test_the_routes_attacked_here_include_the_api_the_stream_the_page_and_the_schema(
    session_id: str,
) -> None:
    paths = {path for _, path in every_route(session_id)}
    assert {"/", "/static/live.js", "/openapi.json", "/sessions", "/health"} <= paths
    assert f"/sessions/{session_id}/events/stream" in paths


def test_every_route_but_health_refuses_a_request_without_the_token(
    server: ServerProcess, stranger: httpx.Client, session_id: str, db: Database
) -> None:
    before = dump_database(db)
    for method, path in every_route(session_id):
        if path == "/health":
            continue
        response = send(stranger, method, path)
        assert_refused(response, 401, "unauthorized", server.token)
        assert response.headers["www-authenticate"].startswith("Bearer")
    assert dump_database(db) == before


def test_a_wrong_token_is_refused_everywhere_even_one_that_differs_in_its_last_letter(
    server: ServerProcess, stranger: httpx.Client, session_id: str
) -> None:
    assert server.token is not None
    near_miss = server.token[:-1] + ("A" if server.token[-1] != "A" else "B")
    for wrong in (near_miss, server.token[:-1], server.token + "x", server.token.upper(), "null"):
        for method, path in every_route(session_id):
            headers = {"Authorization": f"Bearer {wrong}"}
            response = send(stranger, method, path, headers=headers)
            assert_refused(response, 401, "unauthorized", server.token)


def test_the_token_in_an_address_opens_the_page_only_never_the_api(
    server: ServerProcess, stranger: httpx.Client, session_id: str
) -> None:
    for method, path in every_route(session_id):
        if path in ("/", "/health"):
            continue
        response = send(stranger, method, path, params={"token": server.token})
        assert_refused(response, 401, "unauthorized", server.token)


def test_the_page_opened_with_its_token_sets_a_strict_http_only_cookie_that_then_suffices(
    server: ServerProcess, stranger: httpx.Client, session_id: str
) -> None:
    page = stranger.get("/", params={"token": server.token})

    assert page.status_code == 200
    cookie = page.headers["set-cookie"]
    name = f"sqlite_demo_token_{server.port}"
    assert cookie == f"{name}={server.token}; HttpOnly; SameSite=Strict; Path=/"
    with httpx.Client(base_url=server.url, cookies={name: server.token or ""}) as browser:
        assert browser.get("/sessions").status_code == 200
        assert browser.get(f"/sessions/{session_id}/events").status_code == 200
    with httpx.Client(base_url=server.url, cookies={"sqlite_demo_token_1": "x"}) as other:
        # Another port's cookie (another server on this machine) is not this one's.
        other.cookies.set(name.replace(str(server.port), "1"), server.token or "")
        assert other.get("/sessions").status_code == 401


def test_a_wrong_token_in_the_page_address_sets_no_cookie(
    server: ServerProcess, stranger: httpx.Client
) -> None:
    response = stranger.get("/", params={"token": "guess"})

    assert_refused(response, 401, "unauthorized", server.token)
    assert "set-cookie" not in response.headers


def test_health_stays_open_and_says_nothing_about_sessions(
    server: ServerProcess, stranger: httpx.Client, session_id: str
) -> None:
    response = stranger.get("/health")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "writable"}
    assert session_id not in response.text and "secret plans" not in response.text


@pytest.mark.parametrize(
    "host",
    [
        "evil.example:{port}",  # a DNS-rebinding page sends its own name
        "evil.example",
        "127.0.0.1",  # no port: port 80, not the one served
        "127.0.0.1:1",
        "localhost.evil.example:{port}",
        "127.0.0.2:{port}",
        "",
    ],
)
def test_a_foreign_host_is_refused_on_every_route_even_with_the_token(
    server: ServerProcess, http: httpx.Client, session_id: str, host: str
) -> None:
    headers = {"Host": host.format(port=server.port)}
    for method, path in every_route(session_id):
        response = send(http, method, path, headers=headers)
        assert_refused(response, 403, "forbidden_host", server.token)


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "LOCALHOST", "[::1]"])
def test_every_loopback_name_of_the_served_port_is_accepted(
    server: ServerProcess, http: httpx.Client, name: str
) -> None:
    response = http.get("/sessions", headers={"Host": f"{name}:{server.port}"})

    assert response.status_code == 200


def test_allow_host_adds_a_name_and_only_that_name(
    start_server: StartServer, db_path: Path
) -> None:
    server = start_server(db_path, allowed_hosts=["chat.internal"])
    with httpx.Client(base_url=server.url, headers=server.headers) as http:
        allowed = http.get("/sessions", headers={"Host": f"chat.internal:{server.port}"})
        other = http.get("/sessions", headers={"Host": f"chat.internal.evil:{server.port}"})

    assert allowed.status_code == 200
    assert other.status_code == 403


def test_docs_are_off_and_nothing_the_server_returns_points_to_another_host(
    server: ServerProcess, http: httpx.Client, session_id: str
) -> None:
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        assert http.get(path).status_code == 404, path
    outward = re.compile(r"https?://(?!127\.0\.0\.1[:/])|//cdn|unpkg|jsdelivr")
    for method, path in every_route(session_id):
        if method != "GET" or path.endswith("/stream"):
            continue
        response = http.get(path)
        assert not outward.search(response.text), f"{path}: {outward.search(response.text)}"


def test_the_schema_requires_the_token_of_every_operation_but_health_and_documents_401(
    http: httpx.Client,
) -> None:
    schema = http.get("/openapi.json").json()

    assert set(schema["components"]["securitySchemes"]) == {"token", "cookie"}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            where = f"{method.upper()} {path}"
            expected = [] if path == "/health" else [{"token": []}, {"cookie": []}]
            assert operation["security"] == expected, where
            for status in ("401", "403"):
                error = operation["responses"][status]["content"]["application/json"]
                assert error["schema"] == {"$ref": "#/components/schemas/ErrorBody"}, where


def test_no_token_serves_without_a_door_and_says_so_in_its_banner(
    start_server: StartServer, db_path: Path
) -> None:
    server = start_server(db_path, no_token=True)

    assert httpx.get(f"{server.url}/sessions").status_code == 200
    banner = server.log_path.read_text(encoding="utf-8")
    assert f"live page: {server.url}/\n" in banner
    assert "warning: --no-token: no authentication at all" in banner


def test_the_banner_prints_the_page_address_with_its_token(server: ServerProcess) -> None:
    banner = server.log_path.read_text(encoding="utf-8")

    assert f"live page: {server.url}/?token={server.token}\n" in banner


@pytest.mark.parametrize(
    ("flags", "complaint"),
    [
        (["--no-token", "--host", "0.0.0.0"], "--no-token serves on loopback only"),
        (["--no-token", "--token", "abc"], "not allowed with argument"),
        (["--token", "has space"], "a token is 1 to 256 letters"),
        (["--token", "a;b=c"], "a token is 1 to 256 letters"),
    ],
)
def test_serve_refuses_a_door_it_cannot_keep(
    tmp_path: Path, flags: list[str], complaint: str
) -> None:
    command = [sys.executable, "-m", "sqlite_demo", "serve", "--db", "x.db", *flags]
    result = subprocess.run(
        command, cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False
    )

    assert result.returncode == 2, result.stderr
    assert complaint in result.stderr
    assert "has space" not in result.stderr and "a;b=c" not in result.stderr
    assert not (tmp_path / "x.db").exists()
