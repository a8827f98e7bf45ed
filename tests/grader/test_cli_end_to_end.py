"""``python -m grader`` as a learner runs it: a real process grading real code in the sandbox,
for what only a real grading shows (what the engine finds, that its verdict does not depend
on the run, the time limit the help states). What the command line prints and writes for a
given report is ``test_cli.py``'s, in this process.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.grader.conftest import run_grader
from tests.implementations.corpus import CORRECT_DIR, mutant_source, write_mutant
from tests.implementations.mutants import MUTANTS
from tests.redteam.hostile import STUBS

pytestmark = pytest.mark.sandbox

CORRECT = CORRECT_DIR / "c01_namedtuple_events.py"
BY_NAME = {mutant.name: mutant for mutant in MUTANTS}


def results(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def test_full_marks_exit_zero_and_a_lost_task_exits_one_naming_the_broken_promise(
    tmp_path: Path,
) -> None:
    wrong_replay = write_mutant(BY_NAME["replay_no_merge"], tmp_path)
    out = tmp_path / "results.json"

    assert run_grader("--target", str(CORRECT), "--task", "1").returncode == 0
    finished = run_grader("--target", str(wrong_replay), "--task", "replay", "--format",
                          "gradescope", "--json", str(out))  # fmt: skip

    assert finished.returncode == 1
    assert "Broken promise:" in finished.stdout and "replay_session(log" in finished.stdout
    assert "Hint:" in finished.stdout
    (test,) = results(out)["tests"]
    assert test["extra_data"]["broken_promise"] == "replay.merge"


def test_the_stubs_are_not_implemented_yet_with_no_traceback(committed_stubs: Path) -> None:
    finished = run_grader("--target", str(committed_stubs), env={"GRADER_TARGET": ""})

    assert finished.returncode == 1
    assert finished.stdout.count("not implemented yet") >= 5
    assert "get_events_for_session is written in task 2" in finished.stdout
    assert "Traceback" not in finished.stdout + finished.stderr


def test_a_syntax_error_exits_two_and_shows_the_file_and_line(
    write_target: Callable[[str, str], Path],
) -> None:
    path = write_target("broken.py", "def create_event_log():\n    return (\n\ndef x(:\n")
    finished = run_grader("--target", str(path))
    assert finished.returncode == 2
    assert "SyntaxError in broken.py:" in finished.stdout
    assert "Traceback" not in finished.stdout + finished.stderr


def test_the_same_code_gets_the_same_results_file_every_time(tmp_path: Path) -> None:
    source = tmp_path / "wrong.py"
    source.write_text(mutant_source(BY_NAME["reads_sorted_by_text_id"]), encoding="utf-8")
    first, second = tmp_path / "1.json", tmp_path / "2.json"
    run_grader("--target", str(source), "--task", "2", "--json", str(first))
    run_grader("--target", str(source), "--task", "2", "--json", str(second))
    assert first.read_bytes() == second.read_bytes()
    assert results(first)["tests"][0]["status"] == "fail"


def test_a_call_that_never_returns_is_timed_out_at_the_limit_asked(
    write_target: Callable[[str, str], Path],
) -> None:
    source = CORRECT.read_text() + "\n\ndef list_sessions(log):\n    while True:\n        pass\n"
    path = write_target("loops.py", source)
    finished = run_grader("--target", str(path), "--task", "list_sessions", "--time-limit", "1")
    assert finished.returncode == 1
    assert "timed out" in finished.stdout
    assert "its 1 seconds of CPU time" in finished.stdout and "list_sessions(log" in finished.stdout


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


@pytest.mark.parametrize(
    ("imported", "module"), [("sqlite3", "sqlite3"), ("faulthandler", "faulthandler")]
)
def test_a_module_the_sandbox_lacks_is_named_with_why_and_what_to_do_instead(
    write_target: Callable[[str, str], Path], imported: str, module: str
) -> None:
    path = write_target("uses_it.py", f"import {imported}\n" + STUBS)
    finished = run_grader("--target", str(path), "--isolation", "none")
    assert finished.returncode == 2
    assert f"It imports {module}, which the grader's sandbox does not have" in finished.stdout
    assert "None" not in finished.stdout


def test_an_import_that_raises_names_its_exception_and_line(
    write_target: Callable[[str, str], Path],
) -> None:
    path = write_target("raises.py", STUBS + "raise LookupError('no such table')\n")
    finished = run_grader("--target", str(path), "--isolation", "none")
    assert finished.returncode == 2
    assert "Importing it raised LookupError: no such table (raises.py:" in finished.stdout
