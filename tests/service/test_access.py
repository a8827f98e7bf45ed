"""The door: every route wants the token and the served Host, tried as an attacker would.

Each test is an attack that succeeded before the service had a door (anyone reaching the
port read and wrote every session; a DNS-rebinding page could talk to 127.0.0.1). They run
against the app in this process, behind the door ``serve`` puts in front of it (the same
:class:`~sqlite_demo.service.access.AccessPolicy`, for a server on 127.0.0.1:``PORT``): the
door is ASGI middleware, so what it lets through or refuses does not depend on a socket.
What does (the token and the Host check on the port ``serve`` really binds, its banner, its
flags) is proven on real processes in ``test_access_on_the_wire.py``.

The routes are taken from the app itself, so a route added later is attacked too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sqlite_demo.app import create_app
from sqlite_demo.live.page import STATIC_FILES
from sqlite_demo.service.access import AccessPolicy
from tests.databases import Database
from tests.service.helpers import dump_database

#: The port the door is told it serves: nothing binds it, the Host checks and the cookie's
#: name use it.
PORT = 48123
TOKEN = "the-token.of_this~server-0123456789"
BASE_URL = f"http://127.0.0.1:{PORT}"
COOKIE = f"sqlite_demo_token_{PORT}"

#: A client of the app: headers and cookies it sends with every request.
MakeClient = Callable[..., TestClient]


def every_route(session_id: str) -> list[tuple[str, str]]:
    """Every (method, path) the app serves, path parameters filled in with real values: each
    operation of its schema, the schema itself, the page and each of its files."""
    routes = [(method, path.format(session_id=session_id)) for method, path in operations()]
    pages = ["/", "/openapi.json", *(f"/static/{name}" for name in sorted(STATIC_FILES))]
    return routes + [("GET", path) for path in pages]


@cache
def operations() -> tuple[tuple[str, str], ...]:
    """Every operation of the app's schema, as (method, path template); built once."""
    schema = create_app("never-opened.db").openapi()
    return tuple(
        (method.upper(), path) for path, methods in schema["paths"].items() for method in methods
    )


def door_app(db: Database, token: str | None = TOKEN, hosts: tuple[str, ...] = ()) -> FastAPI:
    """The app as ``serve`` builds it for 127.0.0.1:PORT, with ``token`` and ``hosts``."""
    return create_app(db, access=AccessPolicy.for_server(token, "127.0.0.1", PORT, hosts))


@pytest.fixture
def app(db: Database) -> Iterator[FastAPI]:
    """The app behind its door on ``db`` (each backend in turn), started and stopped."""
    served = door_app(db)
    with TestClient(served, base_url=BASE_URL):  # runs the lifespan: the store opens
        yield served


@pytest.fixture
def make_client(app: FastAPI) -> Iterator[MakeClient]:
    """Make clients of the running app; each keeps its own cookies."""
    clients: list[TestClient] = []

    def make(**options: object) -> TestClient:
        client = TestClient(app, base_url=BASE_URL, **options)  # type: ignore[arg-type]
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def http(make_client: MakeClient) -> TestClient:
    """A client that holds the token."""
    return make_client(headers={"Authorization": f"Bearer {TOKEN}"})


@pytest.fixture
def stranger(make_client: MakeClient) -> TestClient:
    """A client that reaches the port but holds no token."""
    return make_client()


@pytest.fixture
def session_id(http: TestClient) -> str:
    response = http.post("/sessions", json={"title": "secret plans"})
    assert response.status_code == 201
    session: str = response.json()["id"]
    http.post(f"/sessions/{session}/messages", json={"content": "hello"})
    return session


def send(client: httpx.Client, method: str, path: str, **options: object) -> httpx.Response:
    body = {"json": {"content": "hi", "title": "t"}} if method == "POST" else {}
    return client.request(method, path, **body, **options)  # type: ignore[arg-type]


def assert_refused(response: httpx.Response, status: int, code: str) -> None:
    where = f"{response.request.method} {response.request.url.path}"
    assert response.status_code == status, f"{where}: {response.status_code} {response.text}"
    assert response.json()["error"]["code"] == code, where
    assert response.json()["error"]["retryable"] is False, where
    assert TOKEN not in response.text + str(response.headers), where


def test_the_routes_attacked_here_include_the_api_the_stream_the_page_and_the_schema(
    session_id: str,
) -> None:
    paths = {path for _, path in every_route(session_id)}
    assert {"/", "/static/live.js", "/openapi.json", "/sessions", "/health"} <= paths
    assert f"/sessions/{session_id}/events/stream" in paths


def test_every_route_but_health_refuses_a_request_without_the_token(
    stranger: TestClient, session_id: str, db: Database
) -> None:
    before = dump_database(db)
    for method, path in every_route(session_id):
        if path == "/health":
            continue
        response = send(stranger, method, path)
        assert_refused(response, 401, "unauthorized")
        assert response.headers["www-authenticate"].startswith("Bearer")
    assert dump_database(db) == before


def test_a_wrong_token_is_refused_everywhere_even_one_that_differs_in_its_last_letter(
    stranger: TestClient, session_id: str
) -> None:
    near_miss = TOKEN[:-1] + ("A" if TOKEN[-1] != "A" else "B")
    for wrong in (near_miss, TOKEN[:-1], TOKEN + "x", TOKEN.upper(), "null"):
        for method, path in every_route(session_id):
            headers = {"Authorization": f"Bearer {wrong}"}
            response = send(stranger, method, path, headers=headers)
            assert_refused(response, 401, "unauthorized")


def test_the_token_in_an_address_opens_the_page_only_never_the_api(
    stranger: TestClient, session_id: str
) -> None:
    for method, path in every_route(session_id):
        if path in ("/", "/health"):
            continue
        response = send(stranger, method, path, params={"token": TOKEN})
        assert_refused(response, 401, "unauthorized")


def test_the_page_opened_with_its_token_sets_a_strict_http_only_cookie_that_then_suffices(
    make_client: MakeClient, stranger: TestClient, session_id: str
) -> None:
    page = stranger.get("/", params={"token": TOKEN})

    assert page.status_code == 200
    assert page.headers["set-cookie"] == f"{COOKIE}={TOKEN}; HttpOnly; SameSite=Strict; Path=/"
    browser = make_client(cookies={COOKIE: TOKEN})
    assert browser.get("/sessions").status_code == 200
    assert browser.get(f"/sessions/{session_id}/events").status_code == 200
    # Another port's cookie (another server on this machine) is not this one's.
    other = make_client(cookies={"sqlite_demo_token_1": TOKEN})
    assert other.get("/sessions").status_code == 401


def test_a_wrong_token_in_the_page_address_sets_no_cookie(stranger: TestClient) -> None:
    response = stranger.get("/", params={"token": "guess"})

    assert_refused(response, 401, "unauthorized")
    assert "set-cookie" not in response.headers


def test_health_stays_open_and_says_nothing_about_sessions(
    stranger: TestClient, session_id: str
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
    http: TestClient, session_id: str, host: str
) -> None:
    headers = {"Host": host.format(port=PORT)}
    for method, path in every_route(session_id):
        response = send(http, method, path, headers=headers)
        assert_refused(response, 403, "forbidden_host")


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "LOCALHOST", "[::1]"])
def test_every_loopback_name_of_the_served_port_is_accepted(http: TestClient, name: str) -> None:
    response = http.get("/sessions", headers={"Host": f"{name}:{PORT}"})

    assert response.status_code == 200


def test_allow_host_adds_a_name_and_only_that_name(db_path: Path) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    with TestClient(door_app(db_path, hosts=("chat.internal",)), base_url=BASE_URL) as http:
        allowed = http.get("/sessions", headers={**headers, "Host": f"chat.internal:{PORT}"})
        other = http.get("/sessions", headers={**headers, "Host": f"chat.internal.evil:{PORT}"})

    assert allowed.status_code == 200
    assert other.status_code == 403


def test_docs_are_off_and_nothing_the_server_returns_points_to_another_host(
    http: TestClient, session_id: str
) -> None:
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        assert http.get(path).status_code == 404, path
    outward = re.compile(r"https?://(?!127\.0\.0\.1[:/])|//cdn|unpkg|jsdelivr")
    for method, path in every_route(session_id):
        if method != "GET" or path.endswith("/stream"):
            continue
        response = http.get(path)
        assert response.status_code == 200, path
        assert not outward.search(response.text), f"{path}: {outward.search(response.text)}"


def test_the_schema_requires_the_token_of_every_operation_but_health_and_documents_401(
    http: TestClient,
) -> None:
    schema = http.get("/openapi.json").json()

    assert set(schema["components"]["securitySchemes"]) == {"token", "cookie"}
    assert schema["components"]["securitySchemes"]["cookie"]["name"] == COOKIE
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            where = f"{method.upper()} {path}"
            expected = [] if path == "/health" else [{"token": []}, {"cookie": []}]
            assert operation["security"] == expected, where
            for status in ("401", "403"):
                error = operation["responses"][status]["content"]["application/json"]
                assert error["schema"] == {"$ref": "#/components/schemas/ErrorBody"}, where


def test_without_a_token_the_door_lets_anyone_in_but_still_checks_the_host(db_path: Path) -> None:
    with TestClient(door_app(db_path, token=None), base_url=BASE_URL) as anyone:
        assert anyone.get("/sessions").status_code == 200
        foreign = anyone.get("/sessions", headers={"Host": f"evil.example:{PORT}"})

    assert_refused(foreign, 403, "forbidden_host")
