"""Reads of events and messages come a page at a time, and the Link header names the next.

A 20,000-event session used to come back as one 4.3 MiB response; now a read returns at most
``limit`` rows (1,000 by default and at most), and ``Link: <...>; rel="next"`` says where the
next page starts, until the last page, which has none.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from sqlite_demo import open_store
from sqlite_demo.app import create_app
from sqlite_demo.server import ServerProcess
from sqlite_demo.service.client import AgentClient
from sqlite_demo.service.pages import MAX_PAGE
from tests.databases import Database


def _chat(db: Database, turns: int) -> str:
    """A session of ``turns`` user and assistant message pairs, written through the store."""
    with open_store(db) as store:
        session = store.create_session("long").id
        for turn in range(turns):
            store.append_event(session, "user_message", {"content": f"question {turn}"})
            store.append_event(session, "assistant_message", {"content": f"answer {turn}"})
    return session


def _every_page(http: TestClient, path: str, limit: int) -> tuple[list[list[int]], list[str]]:
    pages, links = [], []
    url: str | None = f"{path}?limit={limit}"
    while url is not None:
        response = http.get(url)
        assert response.status_code == 200, response.text
        pages.append([row["event_id"] for row in response.json()])
        url = response.links.get("next", {}).get("url")
        links.append(response.headers.get("link", ""))
    return pages, links


@pytest.mark.parametrize("what", ["events", "messages"])
def test_a_read_in_pages_gives_every_row_once_in_order_and_the_last_page_no_link(
    db: Database, what: str
) -> None:
    session = _chat(db, 5)  # 10 events, all of them messages
    with TestClient(create_app(db)) as http:
        pages, links = _every_page(http, f"/sessions/{session}/{what}", 3)

    assert pages == [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10]]
    assert links[0] == f'</sessions/{session}/{what}?after=3&limit=3>; rel="next"'
    assert links[-1] == ""


def test_a_page_that_ends_exactly_at_the_last_row_names_no_next_page(db: Database) -> None:
    session = _chat(db, 3)  # 6 events
    with TestClient(create_app(db)) as http:
        pages, links = _every_page(http, f"/sessions/{session}/events", 3)

    assert pages == [[1, 2, 3], [4, 5, 6]]
    assert links[-1] == ""


def test_without_a_limit_a_read_stops_at_the_largest_page(db: Database) -> None:
    session = _chat(db, (MAX_PAGE + 10) // 2)
    with TestClient(create_app(db)) as http:
        first = http.get(f"/sessions/{session}/events")
        rest = http.get(first.links["next"]["url"])

    assert len(first.json()) == MAX_PAGE
    assert [event["event_id"] for event in rest.json()] == list(range(MAX_PAGE + 1, 1011))


@pytest.mark.parametrize("limit", ["0", "-1", str(MAX_PAGE + 1), "ten"])
def test_a_limit_outside_1_to_the_largest_page_is_refused(db: Database, limit: str) -> None:
    session = _chat(db, 1)
    with TestClient(create_app(db)) as http:
        for what in ("events", "messages"):
            response = http.get(f"/sessions/{session}/{what}", params={"limit": limit})
            assert response.status_code == 422, response.text
            assert response.json()["error"]["code"] == "invalid_request"


def test_the_client_follows_the_pages_to_the_end(server: ServerProcess) -> None:
    session = _chat(server.db, MAX_PAGE)  # 2,000 events: two pages

    with AgentClient(server.url, token=server.token) as client:
        events = client.get_events(session)
        messages = client.get_messages(session)

    assert [event["event_id"] for event in events] == list(range(1, 2 * MAX_PAGE + 1))
    assert [row["event_id"] for row in messages] == list(range(1, 2 * MAX_PAGE + 1))


def test_the_schema_says_reads_take_a_limit_and_name_the_next_page(db: Database) -> None:
    with TestClient(create_app(db)) as http:
        schema = http.get("/openapi.json").json()

    for what in ("events", "messages"):
        operation = schema["paths"][f"/sessions/{{session_id}}/{what}"]["get"]
        limit = next(p for p in operation["parameters"] if p["name"] == "limit")
        assert (limit["schema"]["minimum"], limit["schema"]["maximum"]) == (1, MAX_PAGE)
        assert "Link" in operation["responses"]["200"]["headers"]
