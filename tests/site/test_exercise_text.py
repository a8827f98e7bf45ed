"""The exercise text the site shows: each language's stubs as git holds them, never the
working tree's, and each docstring read into paragraphs, sections, lists, terms and code,
a wrapped Chinese line joined back without a space."""

# ruff: noqa: RUF001 - Chinese marks are what some of these tests look at

from __future__ import annotations

import pytest

from grader.frontends import stubs
from grader.frontends.site.build import exercises, site_stubs
from grader.frontends.site.docstrings import blocks_of, inline
from grader.i18n import choice
from grader.transport.workspace import EXERCISE_MODULES

DOCSTRING = """Return the *whole* log, as ``tuple`` **always**.

A paragraph wrapped
over two lines.

Args:
    log: the log to read; a long description that goes on
        on a second line.
    session_id (str): the session.

Promises:
    - The first promise, which is long and wraps
      onto a second line.
    - The second.

Example:
    >>> read(log)
    ()
"""


def test_a_docstring_becomes_paragraphs_headings_terms_lists_and_code() -> None:
    found = blocks_of(DOCSTRING)
    assert [block["kind"] for block in found] == [
        "paragraph", "paragraph", "heading", "terms", "heading", "list", "heading", "code",
    ]  # fmt: skip
    assert found[0]["text"] == [
        {"text": "Return the "}, {"em": "whole"}, {"text": " log, as "}, {"code": "tuple"},
        {"text": " "}, {"strong": "always"}, {"text": "."},
    ]  # fmt: skip
    assert found[1]["text"] == [{"text": "A paragraph wrapped over two lines."}]
    assert [item["term"] for item in found[3]["items"]] == ["log", "session_id (str)"]
    assert found[3]["items"][0]["text"] == [
        {"text": "the log to read; a long description that goes on on a second line."}
    ]
    assert found[5]["items"] == [
        [{"text": "The first promise, which is long and wraps onto a second line."}],
        [{"text": "The second."}],
    ]
    assert found[7] == {"kind": "code", "text": ">>> read(log)\n()"}
    assert found[2] == {"kind": "heading", "text": "Args"}


def test_a_wrapped_chinese_line_is_joined_without_a_stray_space() -> None:
    (paragraph,) = blocks_of(
        "日志内部长什么样由你决定（由事件组成的\n"
        "元组、装着这个元组的 ``dataclass``）；而\n"
        "“从第 4 个事件之后”。"
    )
    assert paragraph["text"] == [
        {"text": "日志内部长什么样由你决定（由事件组成的元组、装着这个元组的 "},
        {"code": "dataclass"},
        {"text": "）；而“从第 4 个事件之后”。"},
    ]


def test_a_chinese_section_ends_with_a_chinese_colon() -> None:
    found = blocks_of("返回日志。\n\n约定：\n    - 第一条。\n\n示例：\n    >>> f()\n    1\n")
    assert [block.get("text") for block in found if block["kind"] == "heading"] == ["约定", "示例"]


def test_inline_code_keeps_its_text_exactly() -> None:
    assert inline("``*not emphasis*`` and `x`") == [
        {"code": "*not emphasis*"}, {"text": " and "}, {"code": "x"},
    ]  # fmt: skip


@pytest.fixture(scope="module")
def page_data() -> dict[str, object]:
    try:
        return exercises(site_stubs())
    except stubs.NoCommittedStubs:
        pytest.skip("the site reads the stubs from git: this copy is not a git checkout")


def test_the_site_holds_each_languages_stubs_as_git_holds_them(
    page_data: dict[str, object],
) -> None:
    files = page_data["files"]
    assert isinstance(files, dict)
    assert set(files) == {"en", "zh"}
    for code in ("en", "zh"):
        committed = stubs.committed_stubs(code)
        assert files[code] == {name: committed[name] for name in EXERCISE_MODULES}
    assert "尚未实现" in files["zh"]["replay.py"]


def test_the_site_shows_each_functions_docstring_in_each_language(
    page_data: dict[str, object],
) -> None:
    docs = page_data["docs"]
    assert isinstance(docs, dict)
    english, chinese = docs["en"]["append_event"], docs["zh"]["append_event"]
    assert english["file"] == chinese["file"] == "event_log.py"
    headings = [[b["text"] for b in doc["blocks"] if b["kind"] == "heading"]
                for doc in (english, chinese)]  # fmt: skip
    assert headings[0][-2:] == ["Promises", "Example"]
    assert headings[1][-2:] == ["约定", "示例"]


def test_the_site_opens_in_the_kits_chosen_language_else_the_browsers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(choice.LANGUAGE_VARIABLE, "zh")
    assert exercises(site_stubs())["language"] == "zh"
    monkeypatch.delenv(choice.LANGUAGE_VARIABLE)
    monkeypatch.setattr(choice, "stored_language", lambda root=None: None)
    monkeypatch.setattr(choice.edition, "LANGUAGE", None)
    assert exercises(site_stubs())["language"] is None
