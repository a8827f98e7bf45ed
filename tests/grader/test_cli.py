"""The command line: exit codes, load errors a learner can act on, and the results files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from grader.tasks import TASKS
from tests.grader.conftest import CORPUS, run_grader
from tests.implementations.corpus import write_mutant
from tests.implementations.mutants import MUTANTS

SCHEMAS = Path(__file__).parent / "schemas"
CORRECT = CORPUS / "correct" / "c01_namedtuple_events.py"
BY_NAME = {mutant.name: mutant for mutant in MUTANTS}


def schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    return loaded


@pytest.fixture
def wrong_replay(tmp_path: Path) -> Path:
    """A submission that loses the replay task and nothing else."""
    return write_mutant(BY_NAME["replay_no_merge"], tmp_path)


def results(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


def test_full_marks_exit_zero_and_a_lost_task_exits_one(wrong_replay: Path) -> None:
    assert run_grader("--target", str(CORRECT)).returncode == 0
    finished = run_grader("--target", str(wrong_replay))
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
    assert "SyntaxError in broken.py:" in finished.stdout
    assert "Traceback" not in finished.stdout + finished.stderr


def test_a_module_missing_a_function_exits_two_and_names_it(
    write_target: Callable[[str, str], Path],
) -> None:
    source = CORRECT.read_text(encoding="utf-8").replace("def replay_session", "def replay")
    finished = run_grader("--target", str(write_target("incomplete.py", source)))
    assert finished.returncode == 2
    assert "It does not define replay_session." in finished.stdout


def test_an_import_that_raises_or_a_missing_target_exits_two(
    write_target: Callable[[str, str], Path],
) -> None:
    raising = write_target("raising.py", "raise RuntimeError('boom at import')\n")
    finished = run_grader("--target", str(raising))
    assert (finished.returncode, "boom at import" in finished.stdout) == (2, True)
    assert run_grader("--target", "no_such_module_here").returncode == 2


def test_an_import_beyond_the_standard_library_says_only_the_standard_library_is_there(
    write_target: Callable[[str, str], Path],
) -> None:
    path = write_target("imports.py", CORRECT.read_text(encoding="utf-8") + "\nimport solutions\n")
    finished = run_grader("--target", str(path))
    assert finished.returncode == 2
    assert "It imports solutions, which is not part of the standard library" in finished.stdout


def test_the_exercism_results_match_version_3_of_the_interface_and_nothing_more(
    wrong_replay: Path, tmp_path: Path
) -> None:
    path = tmp_path / "results.json"
    run_grader("--target", str(wrong_replay), "--json", str(path))
    document = results(path)
    jsonschema.validate(document, schema("exercism_v3"))
    assert (document["version"], document["status"], document["message"]) == (3, "fail", None)
    assert [t["task_id"] for t in document["tests"]] == [1, 2, 3, 4, 5]
    assert [t["status"] for t in document["tests"]] == ["pass", "pass", "pass", "fail", "pass"]
    failed = document["tests"][3]
    assert "replay_session(" in failed["message"] and "replay_session(" in failed["test_code"]
    passed = document["tests"][0]
    assert passed["message"] is None and passed["test_code"].startswith("# ")
    assert not any("output" in test for test in document["tests"]), "nothing was printed"


def test_the_gradescope_results_match_the_autograder_specification(
    wrong_replay: Path, tmp_path: Path
) -> None:
    path = tmp_path / "results.json"
    run_grader("--target", str(wrong_replay), "--json", str(path), "--format", "gradescope")
    document = results(path)
    jsonschema.validate(document, schema("gradescope_results"))
    tests = document["tests"]
    assert [t["status"] for t in tests] == ["passed", "passed", "passed", "failed", "passed"]
    assert (document["score"], sum(t["max_score"] for t in tests)) == (80, 100)
    assert sum(t["score"] for t in tests) == document["score"]
    assert tests[3]["extra_data"]["task"] == "replay"
    assert tests[3]["extra_data"]["grader_status"] == "failed"
    assert document["extra_data"]["isolation"] in ("bwrap", "uid", "none")


def test_the_schemas_accept_the_specifications_own_example_shapes() -> None:
    examples = json.loads((SCHEMAS / "spec_examples.json").read_text())
    jsonschema.validate(examples["exercism_v3"], schema("exercism_v3"))
    jsonschema.validate(examples["gradescope"], schema("gradescope_results"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**examples["exercism_v3"], "score": 3}, schema("exercism_v3"))


@pytest.mark.parametrize("form", ["exercism", "gradescope"])
def test_a_target_that_cannot_load_writes_an_error_results_file(
    form: str, write_target: Callable[[str, str], Path], tmp_path: Path
) -> None:
    path = write_target("broken.py", "def (\n")
    out = tmp_path / "results.json"
    run_grader("--target", str(path), "--json", str(out), "--format", form)
    document = results(out)
    jsonschema.validate(
        document, schema("exercism_v3" if form == "exercism" else "gradescope_results")
    )
    text = document["message"] if form == "exercism" else document["output"]
    assert "SyntaxError" in text
    if form == "gradescope":
        assert (document["score"], len(document["tests"])) == (0, 5)


@pytest.mark.parametrize(("task", "expected"), [("3", [("list_sessions", 20)]), ("all", None)])
def test_a_target_that_cannot_load_lists_the_tasks_asked_for_at_their_worth(
    task: str, expected: list[tuple[str, int]] | None, write_target, tmp_path: Path
) -> None:
    path = write_target("broken.py", "def (\n")
    out = tmp_path / "results.json"
    chosen = [] if task == "all" else ["--task", task]
    run_grader("--target", str(path), *chosen, "--json", str(out), "--format", "gradescope")
    listed = [(t["extra_data"]["task"], t["max_score"]) for t in results(out)["tests"]]
    assert listed == (expected or [(t.task_id, t.points) for t in TASKS])


def test_two_runs_on_the_same_target_write_identical_results(tmp_path: Path) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    wrong = write_mutant(BY_NAME["nested_extras_shallow"], tmp_path)
    run_grader("--target", str(wrong), "--json", str(first))
    run_grader("--target", str(wrong), "--json", str(second))
    assert first.read_bytes() == second.read_bytes()
    assert "0x" not in first.read_text(encoding="utf-8")


def test_the_target_can_come_from_the_environment() -> None:
    finished = run_grader("--task", "list_sessions", env={"GRADER_TARGET": "solutions"})
    assert finished.returncode == 0
    assert "Listing sessions" in finished.stdout


def test_a_task_can_be_named_by_the_number_the_report_shows() -> None:
    by_number = run_grader("--target", "solutions", "--task", "3")
    by_id = run_grader("--target", "solutions", "--task", "list_sessions")
    assert by_number.returncode == 0 and by_number.stdout == by_id.stdout
    unknown = run_grader("--target", "solutions", "--task", "9")
    assert unknown.returncode == 2
    assert "no task is called 9" in unknown.stderr


def test_an_exception_in_learner_code_names_the_call_the_type_and_the_line(
    write_target: Callable[[str, str], Path],
) -> None:
    source = CORRECT.read_text(encoding="utf-8") + (
        "\n\ndef replay_session(log, session_id):\n    return {}['no such key']\n"
    )
    path = write_target("raises.py", source)
    finished = run_grader("--target", str(path), "--task", "replay")
    assert finished.returncode == 1
    assert "replay_session(log" in finished.stdout
    line = len(source.splitlines())
    assert f"raised KeyError: 'no such key' (at raises.py:{line})" in finished.stdout
    assert "Traceback" not in finished.stdout + finished.stderr
