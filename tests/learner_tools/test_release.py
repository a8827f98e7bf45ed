"""``grader release``: the learner's copy is written, and each proof can tell good from bad."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from grader.i18n import using_language
from grader.release import make_release
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

KIT_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def environment_for(tmp_path):
    """Build the copy-only environment for a folder, with a scratch folder of its own."""

    def build(copy_dir: Path) -> dict[str, str]:
        return copy_only_environment(copy_dir, Path(tempfile.mkdtemp(dir=tmp_path)))

    return build


def test_the_kit_releases_and_every_proof_passes(tmp_path):
    files, proofs = make_release(tmp_path / "learner")
    assert "exercises/event_log.py" in files
    assert not any(path.startswith(("solutions/", "tests/")) for path in files)
    assert [(proof.name, proof.outcome) for proof in proofs if proof.outcome != PASSED] == []


def test_a_copy_holding_solutions_does_not_stand_alone(tmp_path, environment_for):
    (tmp_path / "solutions").mkdir()
    (tmp_path / "solutions" / "__init__.py").write_text("")
    proof = prove_copy_stands_alone(tmp_path, environment_for(tmp_path))
    assert proof.outcome == FAILED
    assert "solutions is importable" in proof.detail


def test_the_instructors_solutions_are_invisible_from_a_copy(tmp_path, environment_for):
    for package in ("eventlog", "exercises", "grader"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    assert prove_copy_stands_alone(tmp_path, environment_for(tmp_path)).outcome == PASSED


def test_a_copy_whose_exercises_are_solved_fails_the_stub_proof(tmp_path, environment_for):
    (tmp_path / "grader").symlink_to(KIT_ROOT / "grader")
    (tmp_path / "exercises.py").write_text(
        (KIT_ROOT / "tests/implementations/correct/c01_namedtuple_events.py").read_text()
    )
    proof = prove_grader_on_stubs(tmp_path, environment_for(tmp_path), tmp_path)
    assert proof.outcome == FAILED


def test_missing_parts_are_skipped_and_say_so(tmp_path, environment_for):
    environment = environment_for(tmp_path)
    with using_language("en"):
        demo = prove_demo_completes(tmp_path, environment, tmp_path)
        (notebooks,) = prove_notebooks_execute(tmp_path, environment)
    assert (demo.outcome, demo.detail) == (SKIPPED, "no sqlite_demo/__main__.py in the copy")
    assert (notebooks.outcome, notebooks.detail) == (SKIPPED, "no notebooks found")


def test_a_notebook_with_a_failing_cell_fails_its_proof(tmp_path, environment_for):
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells.append(nbformat.v4.new_code_cell("import solutions"))
    (tmp_path / "notebooks").mkdir()
    nbformat.write(notebook, tmp_path / "notebooks" / "leaky.ipynb")
    (proof,) = prove_notebooks_execute(tmp_path, environment_for(tmp_path))
    assert proof.outcome == FAILED
    assert "ModuleNotFoundError" in proof.detail
