"""The command line, as a learner and an instructor use it: exit codes, results files,
languages, and the verdicts that used to mislead (each now a test of the right one)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.grader.conftest import KIT_ROOT, run_grader
from tests.implementations.corpus import CORRECT_DIR, mutant_source, write_mutant
from tests.implementations.mutants import MUTANTS

SCHEMAS = Path(__file__).parent / "schemas"
CORRECT = CORRECT_DIR / "c01_namedtuple_events.py"
BY_NAME = {mutant.name: mutant for mutant in MUTANTS}


def schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    return loaded


def results(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


@pytest.fixture
def wrong_replay(tmp_path: Path) -> Path:
    """A submission that loses the replay task and nothing else."""
    return write_mutant(BY_NAME["replay_no_merge"], tmp_path)


def test_full_marks_exit_zero_and_a_lost_task_exits_one(wrong_replay: Path) -> None:
    assert run_grader("--target", str(CORRECT), "--task", "1").returncode == 0
    finished = run_grader("--target", str(wrong_replay), "--task", "replay")
    assert finished.returncode == 1
    assert "Broken promise:" in finished.stdout and "replay_session(log" in finished.stdout
    assert "Hint:" in finished.stdout


def test_the_stubs_are_not_implemented_yet_with_no_traceback(committed_stubs: Path) -> None:
    finished = run_grader("--target", str(committed_stubs), env={"GRADER_TARGET": ""})
    assert finished.returncode == 1
    assert finished.stdout.count("not implemented yet") >= 5
    assert "Traceback" not in finished.stdout + finished.stderr


def test_a_syntax_error_exits_two_and_shows_the_file_and_line(
    write_target: Callable[[str, str], Path],
) -> None:
    path = write_target("broken.py", "def create_event_log():\n    return (\n\ndef x(:\n")
    finished = run_grader("--target", str(path))
    assert finished.returncode == 2
    assert "SyntaxError in broken.py:" in finished.stdout
    assert "Traceback" not in finished.stdout + finished.stderr


def test_grading_one_task_never_says_every_task_passes() -> None:
    finished = run_grader("--target", "solutions", "--task", "1")
    assert finished.returncode == 0
    assert "Every task passes" not in finished.stdout
    assert "The tasks graded pass (1 of 5)" in finished.stdout


def test_exercism_results_validate_and_carry_the_failure(
    wrong_replay: Path, tmp_path: Path
) -> None:
    out = tmp_path / "results.json"
    run_grader("--target", str(wrong_replay), "--task", "replay", "--json", str(out))
    document = results(out)
    jsonschema.validate(document, schema("exercism_v3"))
    (test,) = document["tests"]
    assert test["status"] == "fail" and "replay_session(" in test["test_code"]


def test_gradescope_results_validate_for_a_grade_and_for_a_load_error(
    tmp_path: Path, write_target: Callable[[str, str], Path]
) -> None:
    out = tmp_path / "results.json"
    run_grader("--target", "solutions", "--task", "3", "--format", "gradescope", "--json", str(out))
    graded = results(out)
    jsonschema.validate(graded, schema("gradescope_results"))
    assert graded["score"] == 20
    broken = write_target("broken.py", "def x(:\n")
    run_grader("--target", str(broken), "--format", "gradescope", "--json", str(out))
    unloaded = results(out)
    jsonschema.validate(unloaded, schema("gradescope_results"))
    assert unloaded["score"] == 0 and len(unloaded["tests"]) == 5


def test_the_same_code_gets_the_same_results_file_every_time(tmp_path: Path) -> None:
    source = tmp_path / "wrong.py"
    source.write_text(mutant_source(BY_NAME["reads_sorted_by_text_id"]), encoding="utf-8")
    first, second = tmp_path / "1.json", tmp_path / "2.json"
    run_grader("--target", str(source), "--task", "2", "--json", str(first))
    run_grader("--target", str(source), "--task", "2", "--json", str(second))
    assert first.read_bytes() == second.read_bytes()
    assert results(first)["tests"][0]["status"] == "fail"


def test_chinese_feedback_gives_the_same_points_and_promise(
    wrong_replay: Path, tmp_path: Path
) -> None:
    by_language = {}
    for language in ("en", "zh"):
        out = tmp_path / f"{language}.json"
        finished = run_grader("--target", str(wrong_replay), "--task", "4", "--lang", language,
                              "--format", "gradescope", "--json", str(out))  # fmt: skip
        (test,) = results(out)["tests"]
        by_language[language] = (
            finished.returncode,
            test["score"],
            test["extra_data"]["broken_promise"],
        )
    assert by_language["en"] == by_language["zh"] == (1, 0, "replay.merge")


def test_a_call_that_never_returns_is_timed_out_at_the_limit_help_states(
    write_target: Callable[[str, str], Path],
) -> None:
    source = CORRECT.read_text() + "\n\ndef list_sessions(log):\n    while True:\n        pass\n"
    path = write_target("loops.py", source)
    finished = run_grader("--target", str(path), "--task", "list_sessions", "--time-limit", "1")
    assert finished.returncode == 1
    assert "timed out" in finished.stdout
    assert "its 1 seconds of CPU time" in finished.stdout and "list_sessions(log" in finished.stdout
    assert "default 5" in run_grader("--help").stdout


def test_a_folder_holding_one_file_named_like_an_exercise_is_graded_as_that_file(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "alice"
    folder.mkdir()
    (folder / "event_log.py").write_text(CORRECT.read_text(), encoding="utf-8")
    finished = run_grader("--target", str(folder), "--task", "1")
    assert finished.returncode == 0, finished.stdout


def test_task_one_does_not_change_when_the_reader_is_written(tmp_path: Path) -> None:
    """Task 1 declares create_event_log and append_event only: a reader that is wrong, or not
    written yet, cannot change its verdict."""
    base = CORRECT.read_text()
    unwritten = (
        base
        + "\n\ndef get_events_for_session(log, session_id, after_event_id=0):\n"
        + "    raise NotImplementedError\n"
    )
    wrong = (
        base + "\n\ndef get_events_for_session(log, session_id, after_event_id=0):\n    return ()\n"
    )
    verdicts = []
    for name, source in (("unwritten.py", unwritten), ("wrong.py", wrong)):
        (tmp_path / name).write_text(source, encoding="utf-8")
        out = tmp_path / f"{name}.json"
        run_grader("--target", str(tmp_path / name), "--task", "1", "--json", str(out))
        verdicts.append(results(out)["tests"][0]["status"])
    assert verdicts == ["pass", "pass"]


def test_a_failure_shows_the_call_that_read_the_changed_log(tmp_path: Path) -> None:
    path = write_mutant(BY_NAME["old_log_changed"], tmp_path)
    # Task 2 sees the log change through a read: the read shows what it gave before and after.
    finished = run_grader("--target", str(path), "--task", "2")
    case = finished.stdout.split("Smallest case that shows it:")[1].split("Hint:")[0]
    lines = [line.strip() for line in case.splitlines() if line.startswith("        ")]
    # The last line of the case is the call whose answer changed; before and after follow it.
    assert lines and lines[-1].startswith("_ = get_events_for_session(")
    assert "before:" in case and "after:" in case


def test_hints_get_stronger_for_the_same_promise_and_say_when_they_are_done(
    wrong_replay: Path, tmp_path: Path
) -> None:
    first = run_grader("--target", str(wrong_replay), "--task", "4", "--hint", cwd=tmp_path).stdout
    second = run_grader("--target", str(wrong_replay), "--task", "4", "--hint", cwd=tmp_path).stdout
    report_hint = first.split("Hint: ")[1].splitlines()[0]
    hinted = first.split("\n\n")[-1]
    assert report_hint in hinted and "2. " in hinted and "--hint again" not in hinted
    assert "strongest hint" in second


def test_an_unknown_task_is_refused_with_the_ways_to_name_one() -> None:
    finished = run_grader("--task", "7")
    assert finished.returncode == 2 and "no task is called 7" in finished.stderr


def test_the_stubs_report_names_where_each_missing_function_is_written(
    committed_stubs: Path,
) -> None:
    finished = run_grader(
        "--target", str(committed_stubs), "--task", "5", env={"GRADER_TARGET": ""}
    )
    assert "get_events_for_session is written in task 2" in finished.stdout
    assert "append_event is written in task 1" in finished.stdout


def test_a_results_file_is_printable_and_small_whatever_the_code_prints(
    write_target: Callable[[str, str], Path], tmp_path: Path
) -> None:
    noisy = CORRECT.read_text().replace(
        "def list_sessions(log",
        "def list_sessions(log, _p=print):\n    _p('\\ud800\\x1b[2J\\u202e' * 100000)\n"
        "    return _list(log)\n\n\ndef _list(log",
        1,
    )
    path = write_target("noisy.py", noisy)
    out = tmp_path / "r.json"
    run_grader("--target", str(path), "--task", "3", "--format", "gradescope", "--json", str(out))
    data = out.read_bytes()
    assert len(data) < 1_000_000
    text = data.decode("utf-8")
    assert "\u202e" not in text and "\x1b" not in text


def test_the_help_lists_every_option_a_learner_needs() -> None:
    shown = run_grader("--help").stdout
    for option in (
        "--target",
        "--task",
        "--watch",
        "--hint",
        "--lang",
        "--json",
        "--time-limit",
        "--isolation",
    ):
        assert option in shown


__all__ = ["KIT_ROOT"]


def test_each_front_end_states_its_own_defaults() -> None:
    """The batch gives a submission 30 s in all, a learner's grade 300 s: each help says so."""
    learner = " ".join(run_grader("--help").stdout.split())
    batch = " ".join(run_grader("batch", "--help").stdout.split())
    assert "--time-limit SECONDS CPU seconds" in learner
    assert "every task together (default 30)" in batch
    assert "(default 300)" not in batch
