"""The two fixed points: the reference solution gets full marks, the stubs get nothing."""

from __future__ import annotations

import json
from pathlib import Path

from tests.grader.conftest import run_grader


def test_the_reference_solutions_get_full_marks_and_exit_zero(tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    args = ("--target", "solutions", "--json", str(results), "--format", "gradescope")
    finished = run_grader(*args)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    document = json.loads(results.read_text(encoding="utf-8"))
    assert document["score"] == sum(test["max_score"] for test in document["tests"]) == 100
    assert [test["status"] for test in document["tests"]] == ["passed"] * 5


def test_the_exercise_stubs_score_zero_and_are_reported_as_not_started() -> None:
    finished = run_grader("--target", "exercises")
    assert finished.returncode == 1
    assert finished.stdout.count("not implemented yet") >= 5
    assert "Total: 0/100 points" in finished.stdout
    assert "Traceback" not in finished.stdout + finished.stderr
    assert "NotImplementedError" not in finished.stdout
    assert "Broken property" not in finished.stdout
