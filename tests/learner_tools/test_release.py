"""``grader release``: the last commit releases with every proof passing, each proof tells good
from bad and says why it failed, and the command refuses with one clear line."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

import nbformat
import pytest

from grader.i18n import using_language
from grader.release import command, notebook_runs, proofs, prove_release
from grader.release.committed import head_commit
from grader.release.files import KIT_ROOT, write_commit
from grader.release.isolation import copy_only_environment
from grader.release.proofs import (
    FAILED,
    PASSED,
    SKIPPED,
    prove_copy_stands_alone,
    prove_demo_completes,
    prove_grader_on_stubs,
    prove_notebooks_execute,
)

TASKS = ("append_and_ids", "read_and_resume", "list_sessions", "replay", "reject_bad_input")


@pytest.fixture
def environment_for(tmp_path: Path):
    """Build the copy-only environment for a folder, with a scratch folder of its own."""

    def build(copy_dir: Path) -> dict[str, str]:
        return copy_only_environment(copy_dir, Path(tempfile.mkdtemp(dir=tmp_path)))

    return build


def fake_grader(copy_dir: Path, exit_status: int, statuses: dict[str, str] | None) -> None:
    """A ``grader`` package whose command line writes the given results and exit status."""
    tests = [
        {"extra_data": {"task": task, "grader_status": status}}
        for task, status in (statuses or {}).items()
    ]
    results = json.dumps({"score": 0, "tests": tests})
    (copy_dir / "grader").mkdir()
    (copy_dir / "grader" / "__init__.py").write_text("")
    (copy_dir / "grader" / "__main__.py").write_text(
        "import pathlib, sys\n"
        f"if {statuses is not None}:\n"
        f"    pathlib.Path(sys.argv[sys.argv.index('--json') + 1]).write_text({results!r})\n"
        "print('graded')\n"
        f"raise SystemExit({exit_status})\n"
    )


def test_the_last_commit_releases_and_every_proof_passes(tmp_path: Path) -> None:
    # The committed kit, not the working tree: that is what a release hands to learners.
    files = write_commit(tmp_path / "learner", KIT_ROOT, head_commit(KIT_ROOT))
    assert "exercises/event_log.py" in files
    assert not any(path.startswith(("solutions/", "tests/", "docs/")) for path in files)
    proofs = prove_release(tmp_path / "learner")
    assert [
        (proof.name, proof.outcome, proof.detail) for proof in proofs if proof.outcome != PASSED
    ] == []
    assert sum(proof.name == "release.proof.notebook" for proof in proofs) >= 6


def test_a_copy_holding_solutions_does_not_stand_alone(tmp_path, environment_for) -> None:
    (tmp_path / "solutions").mkdir()
    (tmp_path / "solutions" / "__init__.py").write_text("")
    proof = prove_copy_stands_alone(tmp_path, environment_for(tmp_path))
    assert proof.outcome == FAILED
    assert "the reference package solutions is importable" in proof.detail


def test_the_instructors_packages_are_invisible_from_a_copy(tmp_path, environment_for) -> None:
    for package in ("eventlog", "exercises", "grader", "sqlite_demo"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    assert prove_copy_stands_alone(tmp_path, environment_for(tmp_path)).outcome == PASSED


def test_a_copy_without_the_demo_package_does_not_stand_alone(tmp_path, environment_for) -> None:
    for package in ("eventlog", "exercises", "grader"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    proof = prove_copy_stands_alone(tmp_path, environment_for(tmp_path))
    assert proof.outcome == FAILED
    assert "sqlite_demo is not imported from the copy" in proof.detail


def test_a_stands_alone_check_that_hangs_fails_its_proof_and_says_so(
    tmp_path, environment_for, monkeypatch
) -> None:
    def hangs(arguments, environment, cwd, seconds):
        raise subprocess.TimeoutExpired(arguments, seconds)

    monkeypatch.setattr(proofs, "run_python", hangs)
    with using_language("en"):
        proof = prove_copy_stands_alone(tmp_path, environment_for(tmp_path))
    assert (proof.outcome, proof.detail) == (FAILED, "did not finish within 60 s")


def test_stubs_that_are_all_unfinished_pass_the_grader_proof(tmp_path, environment_for) -> None:
    fake_grader(tmp_path, 1, dict.fromkeys(TASKS, "not implemented yet"))
    assert prove_grader_on_stubs(tmp_path, environment_for(tmp_path), tmp_path).outcome == PASSED


def test_a_solved_task_in_the_stubs_fails_the_proof_and_is_named(tmp_path, environment_for):
    statuses = dict.fromkeys(TASKS, "not implemented yet") | {"replay": "passed"}
    fake_grader(tmp_path, 1, statuses)
    proof = prove_grader_on_stubs(tmp_path, environment_for(tmp_path), tmp_path)
    assert proof.outcome == FAILED
    assert "but replay: passed. Learners must get the unsolved stubs" in proof.detail


@pytest.mark.parametrize(
    ("exit_status", "why"),
    [
        (0, "exited with 0, 1 expected (full marks: the committed exercises/ are solved"),
        (2, "exited with 2, 1 expected (the grader could not grade the stubs)"),
    ],
)
def test_a_grader_exit_status_other_than_not_full_marks_fails_the_proof_and_says_why(
    tmp_path, environment_for, exit_status: int, why: str
) -> None:
    fake_grader(tmp_path, exit_status, None)
    proof = prove_grader_on_stubs(tmp_path, environment_for(tmp_path), tmp_path)
    assert proof.outcome == FAILED
    assert why in proof.detail
    assert "graded" in proof.detail  # the grader's own last words follow


def test_a_grader_that_writes_no_results_file_fails_the_proof(tmp_path, environment_for):
    fake_grader(tmp_path, 1, None)
    proof = prove_grader_on_stubs(tmp_path, environment_for(tmp_path), tmp_path)
    assert proof.outcome == FAILED
    assert proof.detail.startswith("python -m grader wrote no results file (--json)")


def test_a_results_file_of_another_shape_fails_the_proof(tmp_path, environment_for) -> None:
    fake_grader(tmp_path, 1, {})
    proof = prove_grader_on_stubs(tmp_path, environment_for(tmp_path), tmp_path)
    assert (proof.outcome, proof.detail) == (FAILED, "the grader's results file lists no task")


def test_a_failing_demo_fails_its_proof_with_its_last_words(tmp_path, environment_for) -> None:
    (tmp_path / "sqlite_demo").mkdir()
    (tmp_path / "sqlite_demo" / "__main__.py").write_text(
        "print('phase 1: ok')\nprint('phase 2: FAILED, 5 events where 6 were expected')\n"
        "raise SystemExit(1)\n"
    )
    proof = prove_demo_completes(tmp_path, environment_for(tmp_path), tmp_path)
    assert proof.outcome == FAILED
    assert proof.detail.startswith("python -m sqlite_demo exited with 1, 0 expected")
    assert "phase 2: FAILED, 5 events where 6 were expected" in proof.detail


def test_missing_parts_are_skipped_and_say_so(tmp_path, environment_for) -> None:
    environment = environment_for(tmp_path)
    with using_language("en"):
        demo = prove_demo_completes(tmp_path, environment, tmp_path)
        (notebooks,) = prove_notebooks_execute(tmp_path, environment)
    assert (demo.outcome, demo.detail) == (SKIPPED, "no sqlite_demo/__main__.py in the copy")
    assert (notebooks.outcome, notebooks.detail) == (SKIPPED, "no notebooks found")


def write_notebook(folder: Path, name: str, *sources: str) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    folder.mkdir(exist_ok=True)
    nbformat.write(notebook, folder / name)


def test_a_failing_cell_fails_its_notebook_naming_the_cell_and_the_error(
    tmp_path, environment_for
) -> None:
    write_notebook(tmp_path / "notebooks", "a_fine.ipynb", "x = 1")
    write_notebook(tmp_path / "notebooks", "b_leaky.ipynb", "x = 1", "import solutions\nx")
    fine, leaky = prove_notebooks_execute(tmp_path, environment_for(tmp_path))
    assert (fine.outcome, fine.detail) == (PASSED, "a_fine.ipynb")
    assert leaky.outcome == FAILED
    assert leaky.detail == (
        "b_leaky.ipynb: cell 2 (`import solutions`) raised ModuleNotFoundError: "
        "No module named 'solutions'"
    )


def test_a_cell_that_hangs_fails_its_notebook_and_says_so(
    tmp_path, environment_for, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(notebook_runs, "CELL_SECONDS", 1)
    write_notebook(tmp_path / "notebooks", "slow.ipynb", "import time", "time.sleep(60)")
    (proof,) = prove_notebooks_execute(tmp_path, environment_for(tmp_path))
    assert (proof.outcome, proof.detail) == (
        FAILED,
        "slow.ipynb: cell 2 (`time.sleep(60)`) did not finish within 1 s",
    )


def test_the_command_refuses_in_one_line_and_writes_nothing(capsys, tmp_path: Path) -> None:
    inside = KIT_ROOT / "learner-copy-that-must-not-exist"
    with using_language("en"):
        assert command.main([str(inside)]) == 2
    out = capsys.readouterr().out
    assert out == f"No release written: {inside} is inside the kit; choose a folder outside it\n"
    assert not inside.exists()


def test_the_refusal_speaks_the_language_asked_for(capsys, tmp_path: Path) -> None:
    inside = KIT_ROOT / "learner-copy-that-must-not-exist"
    with using_language("zh"):
        assert command.main([str(inside)]) == 2
    out = capsys.readouterr().out
    assert f"{inside} 在套件内部" in out
    assert "choose" not in out
    assert not inside.exists()
