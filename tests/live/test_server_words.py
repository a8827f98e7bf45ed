"""``python -m sqlite_demo`` in the kit's language: the help and argparse's own words, and
serve's start-up lines, which a parent process reads the port from in either language."""

# ruff: noqa: RUF001 - Chinese marks are what these tests look at

from __future__ import annotations

import pytest

from grader.i18n import using_language
from sqlite_demo import cli, server
from sqlite_demo.texts import LANGUAGES, say


@pytest.mark.parametrize("command", [[], ["demo"], ["sdk"], ["serve"], ["backup"]])
def test_every_help_is_in_chinese_in_chinese(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with using_language("zh"), pytest.raises(SystemExit):
        cli._build_parser().parse_args([*command, "--help"])
    shown = capsys.readouterr().out
    assert shown.startswith("用法：python -m sqlite_demo")
    assert "选项：" in shown and "显示这段帮助，然后退出" in shown
    assert "".join(say("cli.lang", "zh", default="zh").split()) in "".join(shown.split())


def test_a_wrong_port_is_refused_in_the_language_in_use(capsys: pytest.CaptureFixture[str]) -> None:
    with using_language("zh"), pytest.raises(SystemExit):
        cli._build_parser().parse_args(["serve", "--db", "x.db", "--port", "nine"])
    said = capsys.readouterr().err
    assert "python -m sqlite_demo serve：错误：参数 --port：不是端口号：'nine'" in said


@pytest.mark.parametrize("language", LANGUAGES)
def test_serve_announces_itself_in_the_language_in_use(
    language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with using_language(language):
        server._print_banner("127.0.0.1", 8123, "tok")
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        say("serve.listening", language, url="http://127.0.0.1:8123"),
        say("serve.live_page", language, url="http://127.0.0.1:8123/?token=tok"),
        say("serve.api_clients", language),
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_parent_reads_the_port_from_the_first_line_in_either_language(language: str) -> None:
    line = say("serve.listening", language, url="http://127.0.0.1:8123")
    found = server._LISTENING.search(f"something else\n{line}\nmore")
    assert found is not None and found.group(1, 2) == ("http://127.0.0.1:8123", "8123")
    assert server._LISTENING.search("listening on nothing") is None
