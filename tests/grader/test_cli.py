"""The command line, as a learner and an instructor use it: what it prints, the exit status,
the results files, the language, hints, help and refusals.

These run ``main(argv)`` in this process on the golden cases' reports (data: no grading),
so each takes milliseconds; ``test_cli_end_to_end.py`` grades real code in the sandbox, as a
learner's ``python -m grader`` does, for what only a real grading shows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.frontends.hints import HINT_STATE_FILE
from grader.i18n import text
from tests.grader.cli_in_process import RunCli
from tests.grader.golden_files import GOLDENS, case_report, cases

#: The exit status of each golden case: 0 on full marks, 2 when the target did not load,
#: 1 otherwise.
EXIT_STATUS = {
    "full_marks": 0,
    "one_task_asked": 0,
    "syntax_error": 2,
    "broken_promise": 1,
    "changed_log": 1,
    "noisy_output": 1,
    "sessions_sorted": 1,
    "stubs": 1,
    "timed_out": 1,
    "without_a_sandbox": 1,
}


def golden_text(case: str, name: str) -> str:
    return (GOLDENS / case / name).read_text(encoding="utf-8")


def test_every_golden_case_has_its_exit_status_stated() -> None:
    assert sorted(EXIT_STATUS) == cases()


@pytest.mark.parametrize("case", cases())
def test_the_report_is_printed_as_it_reads_and_the_exit_status_says_how_it_went(
    cli_in_process: RunCli, case: str
) -> None:
    ran = cli_in_process("--target", "mine.py", report=case_report(case))

    assert (ran.status, ran.err) == (EXIT_STATUS[case], "")
    assert ran.out == golden_text(case, "report.en.txt")


def test_the_report_speaks_chinese_when_asked(cli_in_process: RunCli) -> None:
    ran = cli_in_process("--lang", "zh", report=case_report("broken_promise"))

    assert ran.out == golden_text("broken_promise", "report.zh.txt")


def test_grading_one_task_never_says_every_task_passes(cli_in_process: RunCli) -> None:
    ran = cli_in_process("--task", "1", report=case_report("one_task_asked"))

    assert ran.status == 0
    assert "Every task passes" not in ran.out
    assert "The tasks graded pass (1 of 5)" in ran.out


@pytest.mark.parametrize("form", ["exercism", "gradescope"])
@pytest.mark.parametrize("case", ["broken_promise", "syntax_error", "full_marks"])
def test_json_writes_the_results_file_in_the_format_asked(
    cli_in_process: RunCli, tmp_path: Path, case: str, form: str
) -> None:
    out = tmp_path / "results.json"

    cli_in_process("--json", str(out), "--format", form, report=case_report(case))

    assert out.read_bytes() == (GOLDENS / case / f"{form}.json").read_bytes()


def test_without_format_the_results_file_is_exercisms(
    cli_in_process: RunCli, tmp_path: Path
) -> None:
    out = tmp_path / "results.json"

    cli_in_process("--json", str(out), report=case_report("broken_promise"))

    assert json.loads(out.read_text(encoding="utf-8"))["version"] == 3


def test_the_options_reach_the_grading(cli_in_process: RunCli, tmp_path: Path) -> None:
    ran = cli_in_process(
        "--target", str(tmp_path), "--task", "4", "--task", "list_sessions", "--time-limit",
        "1", "--no-sandbox", report=case_report("sessions_sorted"),
    )  # fmt: skip

    ((target, tasks, settings),) = ran.graded
    assert (target, tasks) == (str(tmp_path), ("list_sessions", "replay"))
    assert (settings.example_seconds, settings.isolation) == (1, "none")


def test_the_target_defaults_to_the_environment_then_to_exercises(
    cli_in_process: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GRADER_TARGET", raising=False)
    first = cli_in_process(report=case_report("stubs"))
    monkeypatch.setenv("GRADER_TARGET", "solutions")
    second = cli_in_process(report=case_report("full_marks"))

    assert [ran.graded[0][0] for ran in (first, second)] == ["exercises", "solutions"]


def test_hints_get_stronger_for_the_same_promise_and_say_when_they_are_done(
    cli_in_process: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    report = case_report("broken_promise")

    first = cli_in_process("--task", "4", "--hint", report=report).out
    second = cli_in_process("--task", "4", "--hint", report=report).out

    report_hint = first.split("Hint: ")[1].splitlines()[0]
    hinted = first.split("\n\n")[-1]
    assert report_hint in hinted and "2. " in hinted and "--hint again" not in hinted
    assert "strongest hint" in second
    assert json.loads((tmp_path / HINT_STATE_FILE).read_text()) == {"replay.merge": 2}


def test_an_unknown_task_is_refused_with_the_ways_to_name_one(cli_in_process: RunCli) -> None:
    ran = cli_in_process("--task", "7")

    assert ran.status == 2 and "no task is called 7" in ran.err
    assert ran.graded == []


def test_a_grading_stopped_with_ctrl_c_says_so_and_writes_no_results_file(
    cli_in_process: RunCli, tmp_path: Path
) -> None:
    out = tmp_path / "results.json"

    ran = cli_in_process("--json", str(out), report=KeyboardInterrupt())

    assert ran.status == 130
    assert ran.err == "\n" + text("cli.interrupted", "en") + "\n"
    assert ran.out == "" and not out.exists()


def test_release_points_to_the_maintainers_tool(cli_in_process: RunCli) -> None:
    ran = cli_in_process("release", "out")

    assert (ran.status, ran.err) == (2, text("cli.release_missing", "en") + "\n")


def test_the_help_lists_every_option_a_learner_needs(cli_in_process: RunCli) -> None:
    shown = cli_in_process("--help").out

    options = ("--target", "--task", "--watch", "--hint", "--lang", "--json", "--time-limit",
               "--isolation")  # fmt: skip
    assert [option for option in options if option not in shown] == []
    assert "default 5" in shown


def test_each_front_end_states_its_own_defaults(cli_in_process: RunCli) -> None:
    """The batch gives a submission 30 s in all, a learner's grade 300 s: each help says so."""
    learner = " ".join(cli_in_process("--help").out.split())
    batch = " ".join(cli_in_process("batch", "--help").out.split())

    assert "--time-limit SECONDS CPU seconds" in learner
    said = text("settings.submission_seconds", "en", default=30)
    assert f"--submission-time-limit SECONDS {said}" in batch
    assert "(default 300)" not in batch
