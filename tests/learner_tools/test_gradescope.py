"""The Gradescope autograder: a zip in Gradescope's layout that grades like python -m grader.

The test unpacks the zip into a fake ``/autograder`` tree in a temporary folder, puts a
submission where Gradescope puts it, and runs ``run_autograder`` with AUTOGRADER_ROOT pointing
at that tree (and this interpreter instead of the venv ``setup.sh`` would build).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.grader.conftest import CORPUS, KIT_ROOT, run_grader

SCHEMA = json.loads((KIT_ROOT / "tests/grader/schemas/gradescope_results.schema.json").read_text())


@pytest.fixture(scope="module")
def autograder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The zip, built by the command an instructor runs."""
    path = tmp_path_factory.mktemp("zip") / "autograder.zip"
    finished = run_grader("gradescope", str(path))
    assert finished.returncode == 0, finished.stdout + finished.stderr
    return path


def unpack(zip_path: Path, root: Path) -> Path:
    """Lay out /autograder as Gradescope does: source/ holds the zip, run_autograder beside."""
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(root / "source")
    (root / "run_autograder").write_bytes((root / "source" / "run_autograder").read_bytes())
    (root / "run_autograder").chmod(0o755)
    (root / "submission").mkdir()
    return root


def run_autograder(root: Path) -> dict[str, Any]:
    environment = {**os.environ, "AUTOGRADER_ROOT": str(root), "GRADER_PYTHON": sys.executable}
    subprocess.run(
        [str(root / "run_autograder")],
        env=environment,
        timeout=120,
        check=True,
        capture_output=True,
    )
    document: dict[str, Any] = json.loads((root / "results" / "results.json").read_text())
    return document


def test_the_zip_has_setup_and_run_autograder_at_its_root_executable(autograder: Path) -> None:
    with zipfile.ZipFile(autograder) as archive:
        entries = {info.filename: info for info in archive.infolist()}
    for script in ("setup.sh", "run_autograder"):
        assert entries[script].external_attr >> 16 & 0o111
    assert "kit/grader/__main__.py" in entries
    assert not any(name.startswith("kit/solutions") for name in entries), "no answers in it"
    requirements = zipfile.ZipFile(autograder).read("requirements.txt").decode()
    assert requirements.startswith("hypothesis==")


def test_building_the_zip_twice_gives_the_same_bytes(autograder: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.zip"
    run_grader("gradescope", str(again))
    assert again.read_bytes() == autograder.read_bytes()


def test_the_three_exercise_files_as_uploaded_get_full_marks(
    autograder: Path, tmp_path: Path
) -> None:
    root = unpack(autograder, tmp_path / "autograder")
    for module in ("event_log", "sessions", "replay"):
        text = (KIT_ROOT / "solutions" / f"{module}.py").read_text()
        (root / "submission" / f"{module}.py").write_text(text.replace("solutions.", "exercises."))
    document = run_autograder(root)
    jsonschema.validate(document, SCHEMA)
    assert document["score"] == 100
    assert [test["status"] for test in document["tests"]] == ["passed"] * 5


def test_a_single_wrong_file_loses_its_task(autograder: Path, tmp_path: Path) -> None:
    root = unpack(autograder, tmp_path / "autograder")
    source = (CORPUS / "correct" / "c07_tuple_log.py").read_text()
    broken = source.replace("        previous = event.type\n", "")
    (root / "submission" / "mine.py").write_text(broken)
    document = run_autograder(root)
    jsonschema.validate(document, SCHEMA)
    assert document["score"] == 80
    (failed,) = [test for test in document["tests"] if test["status"] == "failed"]
    assert failed["extra_data"]["task"] == "replay"
    assert "Broken property" in failed["output"]


def test_a_submission_that_does_not_load_still_gets_a_results_file(
    autograder: Path, tmp_path: Path
) -> None:
    root = unpack(autograder, tmp_path / "autograder")
    (root / "submission" / "mine.py").write_text("def (\n")
    document = run_autograder(root)
    jsonschema.validate(document, SCHEMA)
    assert document["score"] == 0 and "SyntaxError" in document["output"]
