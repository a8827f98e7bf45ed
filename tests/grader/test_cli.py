"""The command line: exit codes, load errors a learner can act on, and the results file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.grader.conftest import CORPUS, run_grader

WRONG_REPLAY = CORPUS / "wrong" / "w18_replay_no_merge.py"
CORRECT = CORPUS / "correct" / "c01_namedtuple_events.py"
EXERCISM_STATUSES = {"pass", "fail", "error"}


def test_full_marks_exit_zero_and_a_lost_task_exits_one() -> None:
    assert run_grader("--target", str(CORRECT)).returncode == 0
    finished = run_grader("--target", str(WRONG_REPLAY))
    assert finished.returncode == 1
    assert "Broken property:" in finished.stdout
    assert "replay_session(log" in finished.stdout
    assert "Hint:" in finished.stdout


def test_a_syntax_error_exits_two_and_shows_the_file_and_line(
    write_target: Callable[[str, str], Path],
) -> None:
    path = write_target("broken.py", "def create_event_log():\n    return (\n\ndef x(:\n")
    finished = run_grader("--target", str(path))
    assert finished.returncode == 2
    assert "SyntaxError" in finished.stdout
    assert f"{path.name}:" in finished.stdout
    assert "Traceback" not in finished.stdout + finished.stderr


def test_a_module_missing_a_function_exits_two_and_names_it(
    write_target: Callable[[str, str], Path],
) -> None:
    source = (CORRECT.read_text(encoding="utf-8")).replace("def replay_session", "def replay")
    path = write_target("incomplete.py", source)
    finished = run_grader("--target", str(path))
    assert finished.returncode == 2
    assert "replay_session" in finished.stdout


def test_an_import_that_raises_or_a_missing_target_exits_two(
    write_target: Callable[[str, str], Path],
) -> None:
    raising = write_target("raising.py", "raise RuntimeError('boom at import')\n")
    finished = run_grader("--target", str(raising))
    assert (finished.returncode, "boom at import" in finished.stdout) == (2, True)
    assert run_grader("--target", "no_such_module_here").returncode == 2


def test_the_results_file_reads_as_exercism_v3_and_as_gradescope(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    run_grader("--target", str(WRONG_REPLAY), "--json", str(path))
    document = json.loads(path.read_text(encoding="utf-8"))
    # exercism, top level and per test
    assert document["version"] == 3
    assert document["status"] == "fail"
    assert document["message"] is None
    for test in document["tests"]:
        assert {"name", "status", "message", "output", "task_id"} <= set(test)
        assert test["status"] in EXERCISM_STATUSES
        assert isinstance(test["task_id"], int)
        assert len(test["output"]) <= 500
    assert [t["task_id"] for t in document["tests"]] == [1, 2, 3, 4, 5]
    # Gradescope, top level and per test
    assert (document["score"], document["max_score"]) == (80, 100)
    assert sum(t["score"] for t in document["tests"]) == document["score"]
    assert sum(t["max_score"] for t in document["tests"]) == document["max_score"]
    failed = [t for t in document["tests"] if t["status"] == "fail"]
    assert [t["task_id"] for t in failed] == [4]
    assert "replay_session(" in failed[0]["message"]
    assert "replay_session(" in failed[0]["test_code"]
    assert failed[0]["extra_data"]["task"] == "replay"
    assert failed[0]["extra_data"]["grader_status"] == "failed"
    assert isinstance(document["output"], str)


def test_a_target_that_cannot_load_writes_an_error_results_file(
    write_target: Callable[[str, str], Path], tmp_path: Path
) -> None:
    path = write_target("broken.py", "def (\n")
    results = tmp_path / "results.json"
    run_grader("--target", str(path), "--json", str(results))
    document = json.loads(results.read_text(encoding="utf-8"))
    assert (document["status"], document["score"], document["max_score"]) == ("error", 0, 100)
    assert "SyntaxError" in document["message"]


def test_two_runs_on_the_same_target_write_identical_results(tmp_path: Path) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    wrong = CORPUS / "wrong" / "w06_nested_extras_shallow.py"
    run_grader("--target", str(wrong), "--json", str(first))
    run_grader("--target", str(wrong), "--json", str(second))
    assert first.read_bytes() == second.read_bytes()
    assert "0x" not in first.read_text(encoding="utf-8")


def test_the_target_can_come_from_the_environment() -> None:
    finished = run_grader("--task", "list_sessions", env={"GRADER_TARGET": "solutions"})
    assert finished.returncode == 0
    assert "Listing sessions" in finished.stdout


def test_an_exception_in_learner_code_names_the_call_the_type_and_the_line(
    write_target: Callable[[str, str], Path],
) -> None:
    source = (
        "from solutions import append_event, create_event_log, get_events_for_session\n"
        "from solutions import list_sessions\n"
        "\n"
        "def replay_session(log, session_id):\n"
        "    return {}['no such key']\n"
    )
    finished = run_grader("--target", str(write_target("raises.py", source)), "--task", "replay")
    assert finished.returncode == 1
    assert "replay_session(log" in finished.stdout
    assert "raised KeyError: 'no such key' (at " in finished.stdout
    assert "raises.py:5)" in finished.stdout
    assert "Traceback" not in finished.stdout + finished.stderr
