"""The live page honours corrections: what an SDK session's pop_item or clear_session took out
is struck through in the chat (the log keeps it) and gone from the replay.

The corrections come from an ``EventLogSession`` on a connection of its own to the same file,
as an SDK agent beside the server would write them; the page gets them from its stream like
any event.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

from sqlite_demo import EventLogSession, SqliteEventStore
from sqlite_demo.server import ServerProcess
from tests.databases import Database
from tests.live.browser import TIMEOUT_MS
from tests.live.test_browser import _create_session, _send

_T = TypeVar("_T")


@pytest.fixture
def db(db_path: Path) -> Database:
    """SQLite only: ``EventLogSession`` keeps a file. The corrections themselves are the same on
    PostgreSQL, where ``tests/store/test_corrections.py`` holds the store to them."""
    return db_path


def run_beside_the_page(work: Coroutine[Any, Any, _T]) -> _T:
    # Playwright's sync API runs an event loop in this thread: the session's gets another.
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, work).result()


def test_a_popped_item_is_struck_through_in_the_chat_and_a_clear_takes_out_every_line(
    page: Any, server: ServerProcess
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    rows, chat = page.locator("#events tbody tr"), page.locator("#chat")
    page.goto(server.page_url)
    orders = _create_session(page, "orders")
    _send(page, "how many orders do I have?")
    expect(rows).to_have_count(4)  # user_message, tool_call, tool_result, assistant_message
    expect(page.locator("#replay")).to_contain_text("You have 42 orders.")

    with SqliteEventStore(server.db_path) as other_process:
        popped = run_beside_the_page(EventLogSession(orders, other_process).pop_item())
    assert popped == {"role": "assistant", "content": "You have 42 orders."}
    expect(rows).to_have_count(5)
    expect(chat.locator("li.taken-out")).to_have_count(1)
    expect(chat.locator('li[data-event-id="4"]')).to_have_class("bubble assistant taken-out")
    expect(chat).to_contain_text("taken out: event 4")
    expect(page.locator("#replay")).not_to_contain_text("You have 42 orders.")

    with SqliteEventStore(server.db_path) as other_process:
        run_beside_the_page(EventLogSession(orders, other_process).clear_session())
    expect(rows).to_have_count(6)
    expect(chat.locator("li.taken-out")).to_have_count(4)  # the four items, not the corrections
    expect(chat).to_contain_text("cleared: every event through 5")
    expect(page.locator("#replay")).not_to_contain_text("how many orders")
