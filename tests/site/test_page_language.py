"""The site in both languages, in Chromium: each language's docstrings and stubs, the whole
page worded again on a switch (the status line and the hint included), and a hint gone once
its task passes. One page session for the module, its tests in file order."""

# ruff: noqa: RUF001 - Chinese marks are what some of these tests look at

from __future__ import annotations

import pytest

from grader.frontends.stubs import committed_stubs
from grader.i18n import text
from grader.transport.workspace import EXERCISE_MODULES
from tests.site.conftest import GRADE_MS, Session
from tests.site.submissions import solution, stubs

pytestmark = pytest.mark.timeout(GRADE_MS // 1000 + 60)


def test_chinese_shows_the_chinese_docstrings_rendered_and_the_chinese_stubs(
    browser: Session,
) -> None:
    from playwright.sync_api import expect

    page = browser.page
    page.select_option("#language", "zh")
    expect(page.locator("#title")).to_have_text(text("site.title", language="zh"))
    assert page.title() == "Agent 持久层：练习"
    docs = page.locator("#docs")
    expect(docs.locator("h4").first).to_have_text("示例")
    expect(docs.locator("li").first).to_contain_text("事件")
    assert "``" not in docs.inner_text()  # rendered, not raw reStructuredText
    assert docs.locator("code").count() > 3
    chinese = committed_stubs("zh")
    assert browser.page.evaluate("window.kit.files()") == {
        name: chinese[name] for name in EXERCISE_MODULES
    }


def test_the_status_line_is_worded_again_on_a_switch(browser: Session) -> None:
    from playwright.sync_api import expect

    page = browser.page
    page.click("#check-all")
    expect(page.locator("#report")).to_have_attribute("data-score", "0", timeout=GRADE_MS)
    status = page.locator("#status")
    expect(status).to_have_text(text("site.graded", earned=0, possible=100, language="zh"))
    page.select_option("#language", "en")
    expect(status).to_have_text(text("site.graded", earned=0, possible=100, language="en"))
    expect(page.locator("#report")).to_contain_text(text("status.not_implemented", "en"))


def test_the_untouched_files_follow_the_language_and_an_edited_one_stays(
    browser: Session,
) -> None:
    page = browser.page
    assert page.evaluate("window.kit.files()") == stubs()  # English again, untouched
    page.locator("#files button", has_text="replay.py").click()
    page.locator(".cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.insert_text("# mine\n")
    edited = page.evaluate("window.kit.files()")["replay.py"]
    assert edited.startswith(stubs()["replay.py"].rstrip()) and edited.endswith("# mine\n")
    page.select_option("#language", "zh")
    files = page.evaluate("window.kit.files()")
    assert files["replay.py"] == edited
    assert files["sessions.py"] == committed_stubs("zh")["sessions.py"]


def test_a_hint_is_worded_again_on_a_switch_and_gone_once_its_task_passes(
    browser: Session,
) -> None:
    from playwright.sync_api import expect

    page = browser.page
    broken = solution()
    broken["replay.py"] = broken["replay.py"].replace('"tool_call_id"', '"call_id"', 1)
    browser.grade(broken, task="replay")
    page.click("#hint")
    hint = page.locator("#hint-text")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text(text("hint.last", "zh"))
    page.select_option("#language", "en")
    expect(hint).to_contain_text(text("hint.last", "en"))
    browser.grade(solution(), task="replay")
    expect(hint).to_be_hidden()


def test_nothing_was_asked_of_another_origin_and_nothing_logged_an_error(
    browser: Session,
) -> None:
    assert browser.off_origin == []
    assert browser.errors == []
