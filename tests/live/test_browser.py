"""The live page in a real browser: Debian's Chromium, headless, driven by Playwright.

One scenario, as a learner would play it: chat, watch the events and the replay, SIGKILL the
server, see the page resume with every event exactly once, open a second session that stays
apart. It saves a screenshot (``LIVE_PAGE_SCREENSHOT=docs/live_page.png`` writes the one the
README shows). The browser comes from :mod:`tests.live.browser`.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from sqlite_demo import open_store
from sqlite_demo.server import ServerProcess
from tests.live.browser import TIMEOUT_MS
from tests.live.conftest import client_of, event_ids

HOSTILE = "<img src=x onerror=\"document.title='pwned'\"><script>document.title='pwned'</script>"


def test_the_page_follows_the_log_resumes_after_a_kill_and_keeps_sessions_apart(
    page: Any, server: ServerProcess, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    rows = page.locator("#events tbody tr")
    connection_log = page.locator("#connection-log")

    page.goto(server.page_url)
    expect(page.locator("#connection")).to_have_attribute("data-state", "idle")
    orders = _create_session(page, "orders")
    _send(page, "hello")
    expect(rows).to_have_count(2)
    _send(page, "how many orders do I have?")
    expect(rows).to_have_count(6)
    expect(page.locator("#chat")).to_contain_text("You have 42 orders.")

    server.kill()
    expect(page.locator("#connection")).to_have_attribute("data-state", "lost")
    expect(connection_log).to_contain_text("connection lost after event 6")
    # While this server is dead, another process on the same database (a second server, say)
    # appends a turn: the page must get it from the backlog when it resumes after event 6.
    with open_store(server.db) as other_process:
        other_process.append_event(orders, "user_message", {"content": "hello again"})
        other_process.append_event(orders, "assistant_message", {"content": "Hello again!"})
    server.start()
    expect(connection_log).to_contain_text(
        "reconnected: resumed after event 6, nothing missing, nothing doubled"
    )
    expect(rows).to_have_count(8)
    _send(page, "how many orders do I have?")  # the conversation carries on
    expect(rows).to_have_count(12)

    with client_of(server.url, server.headers) as http:
        assert _shown_ids(page) == event_ids(http, orders) == list(range(1, 13))
    expect(page.locator("#events tr.doubled, #events tr.other-session")).to_have_count(0)
    expect(page.locator("#replay")).to_contain_text('"tool_call_id": "call_2"')
    page.click("#tab-projections")
    expect(page.locator("#tool-calls tbody tr")).to_have_count(2)
    expect(page.locator("#tool-calls tbody")).to_contain_text("query_order_count")
    page.click("#tab-replay")
    _save_screenshot(page, tmp_path)

    docs = _create_session(page, "docs")
    expect(rows).to_have_count(0)
    _send(page, "summarise the document")
    _send(page, HOSTILE)
    expect(rows).to_have_count(4)
    assert _shown_ids(page) == [13, 14, 15, 16]
    expect(page.locator("#chat")).not_to_contain_text("42 orders")
    # Text from the log is shown as text: no element was made of it, no script ran.
    expect(page.locator("#chat li.user").last).to_have_text(HOSTILE)
    expect(page.locator("#chat img, #events img, #replay img")).to_have_count(0)
    assert page.evaluate("document.title") == "Agent persistence: the event log, live"

    page.select_option("#session-picker", orders)
    expect(rows).to_have_count(12)
    assert _shown_ids(page) == list(range(1, 13))
    expect(page.locator("#chat")).not_to_contain_text("Summary")
    assert docs != orders

    page.set_viewport_size({"width": 1000, "height": 800})  # narrow: the events become a tab
    page.click("#tab-events")
    expect(page.locator("#events-pane")).to_be_visible()
    expect(page.locator("#replay-pane")).to_be_hidden()

    elsewhere = [url for url in requested if not url.startswith((f"{server.url}/", "data:"))]
    assert elsewhere == [], "the page asked for something beyond the local server"


def _create_session(page: Any, title: str) -> str:
    from playwright.sync_api import expect

    before = page.evaluate("location.hash")
    page.fill("#new-title", title)
    page.click("#new-session")
    expect(page.locator("#connection")).to_contain_text(f"live: {title}")
    session_id: str = page.evaluate("decodeURIComponent(location.hash.slice(1))")
    assert f"#{session_id}" != before
    return session_id


def _send(page: Any, text: str) -> None:
    from playwright.sync_api import expect

    page.fill("#message", text)
    page.press("#message", "Enter")
    expect(page.locator("#message")).to_have_value("")  # cleared only once the POST succeeded


def _shown_ids(page: Any) -> list[int]:
    ids: list[int] = page.locator("#events tbody tr").evaluate_all(
        "rows => rows.map(row => Number(row.dataset.eventId))"
    )
    return ids


def _save_screenshot(page: Any, tmp_path: Path) -> None:
    shot = tmp_path / "live_page.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    wanted = os.environ.get("LIVE_PAGE_SCREENSHOT")
    if wanted:
        shutil.copyfile(shot, wanted)
