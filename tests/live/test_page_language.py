"""The live page in English and Chinese: its words come from ``sqlite_demo/texts.py``, it
starts in the server's language, and its switch re-labels everything at once and is
remembered by this browser."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from grader.i18n import edition
from sqlite_demo.app import create_app
from sqlite_demo.server import ServerProcess
from sqlite_demo.texts import EN, page_script, say
from tests.live.browser import TIMEOUT_MS

ORDERS = "帮我查一下订单数量"
TOOL_CALL = {"call_id": "call_1", "name": "query_order_count", "arguments": "{}"}


def served_words(script: str) -> tuple[str, dict[str, dict[str, str]]]:
    """The default language and the catalogs that ``texts.js`` holds."""
    default = re.search(r'DEFAULT_LANGUAGE = "(\w+)"', script)
    catalogs = re.search(r"TEXTS = (\{.*\});", script, re.DOTALL)
    assert default and catalogs, script[:200]
    return default[1], json.loads(catalogs[1])


def test_the_server_hands_the_page_every_word_in_both_languages(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "page.db")) as client:
        response = client.get("/static/texts.js")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/javascript; charset=utf-8"
    default, catalogs = served_words(response.text)
    page_keys = {key for key in EN if key.startswith("page.")}
    assert default == "en"
    assert set(catalogs) == {"en", "zh"}
    assert set(catalogs["en"]) == set(catalogs["zh"]) == page_keys
    assert catalogs["zh"]["page.send"] == say("page.send", "zh") != catalogs["en"]["page.send"]


def test_a_chinese_copy_starts_its_page_in_chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(edition, "LANGUAGE", "zh")  # what release --lang zh writes
    assert served_words(page_script())[0] == "zh"
    assert served_words(page_script("en"))[0] == "en"


def test_the_switch_relabels_the_page_at_once_and_this_browser_remembers_it(
    page: Any, server: ServerProcess
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    page.goto(server.page_url)
    expect(page.locator("#send")).to_have_text(say("page.send", "en"))

    page.select_option("#language", "zh")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(page.locator("#send")).to_have_text(say("page.send", "zh"))
    expect(page.locator("#tab-replay")).to_have_text(say("page.tab.replay", "zh"))
    expect(page.locator("#message")).to_have_attribute(
        "placeholder", say("page.message_placeholder", "zh")
    )
    assert page.title() == say("page.title", "zh")

    page.fill("#new-title", "订单客服")
    page.click("#new-session")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    session_id = page.evaluate("decodeURIComponent(location.hash.slice(1))")
    label = {"title": "订单客服", "id": session_id[:13]}
    expect(page.locator("#connection")).to_have_text(
        say("page.live", "zh", title=say("page.session_label", "zh", **label))
    )
    page.fill("#message", ORDERS)
    page.press("#message", "Enter")
    expect(page.locator("#chat")).to_contain_text(say("page.tool_call", "zh", **TOOL_CALL))

    page.reload()  # the choice outlives the page
    expect(page.locator("#send")).to_have_text(say("page.send", "zh"))
    expect(page.locator("#chat")).to_contain_text(say("page.tool_call", "zh", **TOOL_CALL))

    page.select_option("#language", "en")  # what is drawn is redrawn in the new language
    expect(page.locator("#chat")).to_contain_text(say("page.tool_call", "en", **TOOL_CALL))
    expect(page.locator("#connection")).to_have_text(
        say("page.live", "en", title=say("page.session_label", "en", **label))
    )
    expect(page.locator("#session-picker option")).to_have_text(
        say("page.session_label", "en", **label)
    )
    expect(page.locator("html")).to_have_attribute("lang", "en")
