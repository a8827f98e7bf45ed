"""Command lines in the reader's language: argparse's own words from the catalog, headings
with a Chinese colon, and help wrapped by screen columns, between Chinese characters."""

# ruff: noqa: RUF001 - Chinese marks are what these tests look at

from __future__ import annotations

import argparse

import pytest

from grader.i18n import text, using_language
from grader.i18n.arguments import ARGPARSE_WORDS, Parser
from grader.i18n.wrap import width


def demo_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m demo", description=text("cli.description"))
    parser.add_argument("target", help=text("cli.target", env="X"))
    parser.add_argument("--lang", choices=("en", "zh"), help=text("cli.lang"))
    return parser


def test_argparses_own_words_are_chinese_in_chinese() -> None:
    with using_language("zh"):
        shown = demo_parser().format_help()
    assert shown.startswith("用法：python -m demo")
    assert "\n位置参数：\n" in shown and "\n选项：\n" in shown
    assert "显示这段帮助，然后退出" in shown
    assert "usage:" not in shown and "options:" not in shown


def test_english_stays_as_argparse_writes_it() -> None:
    with using_language("en"):
        shown = demo_parser().format_help()
    assert shown.startswith("usage: python -m demo")
    assert "\noptions:\n" in shown and "show this help message and exit" in shown


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["x", "--lang", "fr"], "参数 --lang：不能是 'fr'，只能从 'en', 'zh' 中选"),
        ([], "缺少必需的参数：target"),
        (["x", "--nope"], "不认识的参数：--nope"),
        (["x", "--lang"], "参数 --lang：后面要跟一个值"),
    ],
)
def test_an_error_is_said_in_chinese_with_the_usage(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with using_language("zh"), pytest.raises(SystemExit) as exited:
        demo_parser().parse_args(argv)
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("用法：") and f"python -m demo：错误：{said}" in error


def test_argparse_is_left_as_it_was_after_the_parser_spoke() -> None:
    before = argparse._  # type: ignore[attr-defined]
    with using_language("zh"):
        demo_parser().format_help()
    assert argparse._ is before  # type: ignore[attr-defined]
    assert argparse.ArgumentParser(prog="p").format_usage() == "usage: p [-h]\n"


def test_chinese_help_fits_the_screen_and_breaks_between_characters() -> None:
    with using_language("zh"):
        shown = demo_parser().format_help()
    assert max(width(line) for line in shown.splitlines()) <= 80
    described = "".join(shown.split("\n\n")[1].split())
    assert described == "".join(text("cli.description", "zh").split())


def test_every_word_argparse_says_has_its_sentence_in_both_languages() -> None:
    for message, key in ARGPARSE_WORDS.items():
        assert text(key, "en") in (message, message.replace("%s argument", "%s arguments"))
        assert text(key, "zh") != text(key, "en")
