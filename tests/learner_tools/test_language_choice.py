"""Which language the grader speaks: ``--lang`` first, then LANGUAGE, LC_ALL, LC_MESSAGES
and LANG; an unknown language is refused; the Chinese report grades exactly as the English."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable

import pytest

from grader import i18n
from grader.frontends import cli
from grader.frontends.batch import command as batch
from grader.i18n import text
from maintainer.release import command as release
from tests.grader.cli_in_process import RunCli
from tests.grader.golden_files import case_report

# A task's line of the report: "3. Listing sessions      0/20  failed".
TASK_LINE = re.compile(r"^(\d+)\. .*?\s(\d+)/(\d+)\s", re.MULTILINE)
TOTAL = re.compile(r"(\d+)/(\d+)")


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_TW.Big5"}, "zh"),
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
        ({"LANGUAGE": "zh_CN:en", "LC_ALL": "en_US.UTF-8"}, "zh"),
        ({"LANGUAGE": "fr:zh"}, "zh"),
        ({"LANGUAGE": "fr", "LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LC_ALL": "C.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LANGUAGE": "", "LANG": "zh-Hans"}, "zh"),
    ],
)
def test_the_first_locale_variable_naming_a_language_of_ours_decides(
    environment: dict[str, str], expected: str
) -> None:
    assert i18n.detect_language(environment) == expected


def test_a_chosen_language_beats_the_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    with i18n.using_language("zh"):
        assert i18n.current_language() == "zh"
        assert text("status.passed") == text("status.passed", "zh") != "passed"
    assert i18n.current_language() == "en"


def test_choosing_a_language_without_a_catalog_is_refused_naming_the_ones_there_are() -> None:
    with pytest.raises(ValueError, match=r"no catalog for language 'fr'.*'en', 'zh'"):
        i18n.use_language("fr")


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--lang", "zh", "--task", "1"], "zh"),
        (["batch", "in", "--lang=zh"], "zh"),
        (["--lang", "fr"], None),
        (["--lang"], None),
        (["--task", "1"], None),
    ],
)
def test_the_language_is_read_first_and_a_wrong_one_left_to_the_command(
    argv: list[str], expected: str | None
) -> None:
    assert i18n.language_option(argv) == expected


@pytest.mark.parametrize(
    ("command", "program"),
    [([], "python -m grader"), (["batch", "in", "--out", "out"], "python -m grader batch")],
)
def test_an_unknown_language_is_refused_by_the_command_that_was_run(
    cli_in_process: RunCli, command: list[str], program: str
) -> None:
    ran = cli_in_process(*command, "--lang", "fr")

    assert ran.status == 2
    assert f"{program}: error: argument --lang: invalid choice: 'fr'" in ran.err
    assert "'en', 'zh'" in ran.err and "Traceback" not in ran.err


@pytest.mark.parametrize(
    ("arguments", "locale", "expected"),
    [
        ((), {"LANG": "zh_CN.UTF-8"}, "zh"),
        ((), {"LANGUAGE": "en", "LANG": "zh_CN.UTF-8"}, "en"),
        (("--lang", "zh"), {"LANGUAGE": "en"}, "zh"),
    ],
)
def test_the_command_line_speaks_the_language_chosen(
    cli_in_process: RunCli,
    monkeypatch: pytest.MonkeyPatch,
    arguments: tuple[str, ...],
    locale: dict[str, str],
    expected: str,
) -> None:
    monkeypatch.delenv("LANGUAGE")
    for variable, value in locale.items():
        monkeypatch.setenv(variable, value)

    shown = cli_in_process(*arguments, "--help").out

    other = "en" if expected == "zh" else "zh"
    assert text("cli.description", expected) in shown
    assert text("cli.description", other) not in shown


def help_of(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    """What ``python -m grader [COMMAND] --help`` prints, in the language in use."""
    if command == "gradescope":
        from grader.frontends.gradescope import command as gradescope

        with pytest.raises(SystemExit):
            gradescope.main(["--help"])
        return capsys.readouterr().out
    parsers: dict[str, Callable[[], argparse.ArgumentParser]] = {
        "": cli.build_parser,
        "batch": batch.build_parser,
        "release": release.build_parser,
    }
    return parsers[command]().format_help()


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("command", ["", "batch", "gradescope", "release"])
def test_no_help_shows_a_message_id_instead_of_its_sentence(
    command: str, language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with i18n.using_language(language):
        shown = help_of(command, capsys)
    option = "cli.release.lang" if command == "release" else "cli.lang"
    # A Chinese line is wrapped between two characters: compare without the wrapping.
    assert "".join(text(option, language).split()) in "".join(shown.split())
    assert re.findall(r"\b(?:cli|settings|release)\.[a-z_]+(?:\.[a-z_]+)*", shown) == []


def test_the_chinese_report_gives_the_same_points_and_verdicts_as_the_english(
    cli_in_process: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = case_report("sessions_sorted")  # tasks 3 and 4 of a mutant that loses task 3
    english = cli_in_process("--task", "3", "--task", "4", report=report)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    monkeypatch.delenv("LANGUAGE")
    chinese = cli_in_process("--task", "3", "--task", "4", report=report)

    assert english.status == chinese.status == 1
    rows = TASK_LINE.findall(english.out)
    assert rows == [("3", "0", "20"), ("4", "20", "20")]
    assert TASK_LINE.findall(chinese.out) == rows
    totals = [TOTAL.findall(run.out.splitlines()[-2])[-1] for run in (english, chinese)]
    assert totals == [("20", "40"), ("20", "40")]
    for key in ("report.broken", "report.hint", "report.total"):
        prefix = text(key, "zh").split("{")[0]
        assert prefix in chinese.out
        assert text(key, "en").split("{")[0] not in chinese.out
    assert text("task.list_sessions.name", "zh") in chinese.out
    assert text("promise.list.sessions", "zh") in chinese.out
