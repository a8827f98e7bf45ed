"""The live page against what broke it: a long session, a full stream table, a malformed
address, a message that reverses itself, a visitor without the token.

Each test drives Debian's Chromium (see :mod:`tests.live.browser`) and is an attack or a load
that the page failed before: on a 20,000-event session it never reached "live"; with every
stream slot taken it said only "reconnecting (attempt N)"; ``#%E0%A4%A`` made it ask the
server every second, forever; a right-to-left override displayed a message reversed.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from sqlite_demo.live.event_stream import StreamSettings
from sqlite_demo.server import ServerProcess
from tests.live.browser import TIMEOUT_MS
from tests.live.conftest import StartInThread, client_of, new_session, say, stream_path
from tests.live.long_session import LONG_SESSION_EVENTS, LONG_SESSION_ID, copy_database
from tests.live.sse_reading import caught_up, frames, read_until
from tests.server_fixtures import StartServer

LIVE = '#connection[data-state="live"]'
RLO = "\u202e"


@pytest.fixture(autouse=True)
def _patient_expectations() -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)


def test_the_page_is_live_on_a_20000_event_session_drawing_a_window(
    page: Any, start_server: StartServer, long_session_template: Path, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    server = start_server(copy_database(long_session_template, tmp_path / "long.db"))
    page.goto(f"{server.page_url}#{LONG_SESSION_ID}")
    expect(page.locator(LIVE)).to_be_visible()  # warm: the browser and the server's caches
    page.goto("about:blank")

    # How fast it gets there is printed, not asserted: a busy machine must not fail a test.
    began = time.perf_counter()
    page.goto(f"{server.url}/#{LONG_SESSION_ID}")  # the cookie from the first visit lets it in
    page.wait_for_selector(LIVE, timeout=TIMEOUT_MS)
    seconds = time.perf_counter() - began

    rows = page.locator("#events tbody tr")
    print(f"\nthe page was live on {LONG_SESSION_EVENTS:,} events in {seconds:.2f} s")
    assert rows.count() == 200
    assert rows.last.get_attribute("data-event-id") == str(LONG_SESSION_EVENTS)
    page.click("#events-earlier")  # older rows on demand, from what the page holds
    expect(rows).not_to_have_count(200)
    shown = [int(i) for i in rows.evaluate_all("rows => rows.map(r => r.dataset.eventId)")]
    assert shown == list(range(LONG_SESSION_EVENTS - len(shown) + 1, LONG_SESSION_EVENTS + 1))
    assert len(shown) % 200 == 0


def test_a_full_stream_table_is_shown_with_its_reason_and_the_page_gets_in_once_a_slot_frees(
    page: Any, start_in_thread: StartInThread
) -> None:
    from playwright.sync_api import expect

    url = start_in_thread(StreamSettings(max_open_streams=1))
    with client_of(url) as http:
        session = new_session(http)
        say(http, session, "hello")
        with http.stream("GET", stream_path(session)) as holder:  # the one slot
            held = frames(holder)  # kept: dropping the iterator would close the connection
            read_until(held, caught_up)
            page.goto(f"{url}/#{session}")
            badge = page.locator("#connection")
            expect(badge).to_have_attribute("data-state", "waiting")
            expect(badge).to_contain_text("1 streams are open, this server's limit")
            expect(page.locator("#connection-log")).to_contain_text("retrying in")
        expect(page.locator(LIVE)).to_be_visible()  # the slot is free: the page got in
    expect(page.locator("#events tbody tr")).to_have_count(2)


@pytest.mark.parametrize("fragment", ["%E0%A4%A", "%", "%ZZ", "%C0%AF"])
def test_a_malformed_address_fragment_is_no_selection_not_a_loop(
    page: Any, server: ServerProcess, fragment: str
) -> None:
    from playwright.sync_api import expect

    with client_of(server.url, server.headers) as http:
        session = new_session(http, "only one")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))

    page.goto(f"{server.page_url}#{fragment}")

    expect(page.locator(LIVE)).to_contain_text("only one")  # the newest session, chosen
    assert page.evaluate("location.hash") == f"#{session}"
    assert sum(url.endswith("/sessions") for url in asked) == 1


def test_bidirectional_controls_in_a_message_are_shown_not_obeyed(
    page: Any, server: ServerProcess
) -> None:
    from playwright.sync_api import expect

    with client_of(server.url, server.headers) as http:
        session = new_session(http, f"title {RLO}desrever")
        say(http, session, f"pay to {RLO}1234 5678\u2066 isolated\u2069 \u200fend")
    page.goto(server.page_url)

    bubble = page.locator("#chat li.user")
    expect(bubble).to_have_text("pay to [U+202E]1234 5678[U+2066] isolated[U+2069] [U+200F]end")
    expect(page.locator("#events tbody")).to_contain_text("[U+202E]1234")
    expect(page.locator("#session-picker")).to_contain_text("title [U+202E]desrever")
    page.click("#tab-projections")
    expect(page.locator("#messages tbody")).to_contain_text("[U+202E]")
    shown = page.evaluate("document.body.innerText")
    assert not any(char in shown for char in (RLO, "\u2066", "\u2069", "\u200f"))


def test_the_token_leaves_the_address_bar_and_lives_only_in_an_http_only_strict_cookie(
    page: Any, server: ServerProcess
) -> None:
    from playwright.sync_api import expect

    page.goto(server.page_url)
    expect(page.locator("#connection")).to_have_attribute("data-state", "idle")

    assert page.evaluate("location.href") == f"{server.url}/"
    assert page.evaluate("document.cookie") == ""  # HttpOnly: no script on the page sees it
    (cookie,) = page.context.cookies()
    assert (cookie["name"], cookie["value"]) == (f"sqlite_demo_token_{server.port}", server.token)
    assert (cookie["httpOnly"], cookie["sameSite"], cookie["path"]) == (True, "Strict", "/")


def test_a_visitor_without_the_token_gets_no_page_and_an_open_page_is_told_when_it_is_let_go(
    page: Any, server: ServerProcess, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    refused = page.goto(f"{server.url}/")
    assert refused is not None and refused.status == 401
    assert "open the address `serve` printed" in page.locator("body").inner_text()

    with client_of(server.url, server.headers) as http:
        new_session(http, "orders")
    page.goto(server.page_url)
    expect(page.locator(LIVE)).to_be_visible()
    server.stop()
    # The same port, another token: the open page's cookie is stale now, and no retry helps.
    with ServerProcess(server.db, tmp_path / "other.log", port=server.port):
        badge = page.locator("#connection")
        expect(badge).to_have_attribute("data-state", "refused")
        expect(badge).to_contain_text("not following: this server needs its token")
