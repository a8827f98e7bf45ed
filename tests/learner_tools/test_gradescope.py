"""The Gradescope autograder: a zip in Gradescope's layout whose ``run_autograder`` grades a
submission folder, on the image's Python 3.10 too, and always leaves a valid ``results.json``
(saying why, when it cannot grade).

Gradescope unpacks the zip into ``/autograder/source``, runs ``setup.sh`` once (it installs
packages with apt and pip, which a test cannot), then ``run_autograder`` per submission. The
tests lay out that tree in a temporary folder (``AUTOGRADER_ROOT``) and stand in for what
``setup.sh`` leaves: ``venv/`` is a Python 3.10 environment holding hypothesis.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import hypothesis
import pytest

from grader.frontends import cli
from grader.frontends.gradescope import build_zip
from tests.grader.cli_in_process import RunCli
from tests.learner_tools.conftest import KIT_ROOT, environment

SCHEMA = json.loads((KIT_ROOT / "tests/grader/schemas/gradescope_results.schema.json").read_text())
#: A bare Python 3.10 (Ubuntu 22.04's, as on Gradescope's image) and an environment of it that
#: holds hypothesis, as setup.sh builds one; either may be named by a variable.
PYTHON_310 = next(
    (
        Path(found)
        for found in (
            os.environ.get("GRADER_TEST_PYTHON310"),
            "/root/.pyenv/versions/3.10.13/bin/python3.10",
            shutil.which("python3.10"),
        )
        if found and Path(found).is_file()
    ),
    None,
)
VENV_310 = Path(os.environ.get("GRADER_TEST_VENV310", "/work/venv310"))
needs_310 = pytest.mark.skipif(PYTHON_310 is None, reason="no Python 3.10 interpreter here")
# Task 1 done, the rest still stubs, as uploaded: the three exercise files. The check of the
# version makes the submission load only where the learner's code runs on Python 3.10.
ON_310 = "\nimport sys\nassert sys.version_info[:2] == (3, 10), sys.version\n"


@pytest.fixture(scope="module")
def autograder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The zip, built by the command an instructor runs."""
    path = tmp_path_factory.mktemp("zip") / "autograder.zip"
    assert cli.main(["gradescope", str(path)]) == 0
    return path


def unpack(zip_path: Path, root: Path) -> Path:
    """Lay out /autograder as Gradescope does: source/ holds the zip, run_autograder beside."""
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(root / "source")
    shutil.copyfile(root / "source" / "run_autograder", root / "run_autograder")
    (root / "run_autograder").chmod(0o755)
    (root / "submission").mkdir()
    return root


def run_autograder(root: Path, **variables: str) -> dict[str, Any]:
    subprocess.run(
        [str(root / "run_autograder")],
        env=environment(AUTOGRADER_ROOT=str(root), **variables),
        timeout=600,
        check=True,
        capture_output=True,
    )
    # Imported here: jsonschema takes a second to import (its format checkers build their
    # grammars), which every worker would pay to collect this module.
    import jsonschema  # type: ignore[import-untyped]

    document: dict[str, Any] = json.loads((root / "results" / "results.json").read_bytes())
    jsonschema.validate(document, SCHEMA)
    return document


def test_the_zip_holds_the_scripts_executable_the_grader_and_no_answers(autograder: Path) -> None:
    with zipfile.ZipFile(autograder) as archive:
        entries = {info.filename: info for info in archive.infolist()}
        requirements = archive.read("requirements.txt").decode()
    for script in ("setup.sh", "run_autograder"):
        assert entries[script].external_attr >> 16 & 0o111
    assert {"kit/grader/__main__.py", "kit/exercises/__init__.py"} <= set(entries)
    assert not [name for name in entries if name.startswith(("kit/solutions", "kit/maintainer",
                                                             "kit/tests"))]  # fmt: skip
    assert requirements == f"hypothesis=={hypothesis.__version__}\n"


def test_the_scripts_are_valid_shell(tmp_path: Path, autograder: Path) -> None:
    root = unpack(autograder, tmp_path / "autograder")
    for script in ("setup.sh", "run_autograder"):
        assert subprocess.run(["bash", "-n", str(root / "source" / script)]).returncode == 0


def test_building_the_zip_twice_gives_the_same_bytes(autograder: Path, tmp_path: Path) -> None:
    build_zip(tmp_path / "again.zip")
    assert (tmp_path / "again.zip").read_bytes() == autograder.read_bytes()


def test_a_zip_for_a_folder_that_does_not_exist_is_refused(
    cli_in_process: RunCli, tmp_path: Path
) -> None:
    ran = cli_in_process("gradescope", str(tmp_path / "nowhere" / "a.zip"))
    assert ran.status == 2 and "does not exist" in ran.out


@pytest.fixture(scope="module")
def venv_310(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Python 3.10 environment holding the pinned hypothesis, as setup.sh builds one: the
    one named by ``GRADER_TEST_VENV310`` if it exists, else made here (from PyPI)."""
    if (VENV_310 / "bin" / "python").is_file():
        return VENV_310
    assert PYTHON_310 is not None
    made = tmp_path_factory.mktemp("py310") / "venv"
    subprocess.run([str(PYTHON_310), "-m", "venv", str(made)], check=True, timeout=300)
    pinned = f"hypothesis=={hypothesis.__version__}"
    subprocess.run([str(made / "bin" / "python"), "-m", "pip", "install", "--quiet", pinned],
                   check=True, timeout=600)  # fmt: skip
    return made


@needs_310
def test_the_autograder_grades_the_exercise_files_on_python_3_10(
    autograder: Path, tmp_path: Path, venv_310: Path, committed_stubs: Path
) -> None:
    root = unpack(autograder, tmp_path / "autograder")
    (root / "venv").symlink_to(venv_310, target_is_directory=True)  # what setup.sh leaves
    solved = (KIT_ROOT / "solutions" / "event_log.py").read_text(encoding="utf-8")
    (root / "submission" / "event_log.py").write_text(solved + ON_310, encoding="utf-8")
    for stub in ("sessions.py", "replay.py"):
        shutil.copyfile(committed_stubs / stub, root / "submission" / stub)
    document = run_autograder(root)
    statuses = [test["extra_data"]["grader_status"] for test in document["tests"]]
    assert statuses == ["passed"] + ["not_implemented"] * 4, document["output"]
    assert document["score"] == 20
    assert [test["score"] for test in document["tests"]] == [20, 0, 0, 0, 0]


@needs_310
@needs_310
def test_a_python_without_hypothesis_grades_from_the_bank(
    autograder: Path, tmp_path: Path, committed_stubs: Path
) -> None:
    """The examples are banked: a grade draws none, so it needs no hypothesis."""
    root = unpack(autograder, tmp_path / "autograder")
    solved = (KIT_ROOT / "solutions" / "event_log.py").read_text(encoding="utf-8")
    (root / "submission" / "event_log.py").write_text(solved + ON_310, encoding="utf-8")
    for stub in ("sessions.py", "replay.py"):
        shutil.copyfile(committed_stubs / stub, root / "submission" / stub)
    document = run_autograder(root, GRADER_PYTHON=str(PYTHON_310))
    statuses = [test["extra_data"]["grader_status"] for test in document["tests"]]
    assert statuses == ["passed"] + ["not_implemented"] * 4, document["output"]


@needs_310
def test_where_the_grader_cannot_start_the_results_say_why(
    autograder: Path, tmp_path: Path, committed_stubs: Path
) -> None:
    root = unpack(autograder, tmp_path / "autograder")
    solved = (KIT_ROOT / "solutions" / "event_log.py").read_text(encoding="utf-8")
    (root / "submission" / "event_log.py").write_text(solved + ON_310, encoding="utf-8")
    for stub in ("sessions.py", "replay.py"):
        shutil.copyfile(committed_stubs / stub, root / "submission" / stub)
    # Python 3.10 without hypothesis, and no examples bank: the grade needs hypothesis to
    # draw the examples, and cannot go on.
    banks = list((root / "source").rglob("bank.z"))
    assert len(banks) == 5
    for banked in banks:
        banked.unlink()
    document = run_autograder(root, GRADER_PYTHON=str(PYTHON_310))
    assert document["score"] == 0 and document["tests"] == []
    assert document["extra_data"] == {"grader_status": "cannot_grade"}
    assert "could not grade" in document["output"] and "hypothesis" in document["output"]


def test_where_setup_failed_or_python_is_missing_the_results_say_why(
    autograder: Path, tmp_path: Path
) -> None:
    root = unpack(autograder, tmp_path / "autograder")
    (root / "source" / "setup-failed").write_text("no Python 3.10 or newer could be installed\n")
    assert "no Python 3.10 or newer" in run_autograder(root)["output"]
    (root / "source" / "setup-failed").unlink()
    assert f"no Python at {root}/venv/bin/python" in run_autograder(root)["output"]


def test_whatever_the_grader_last_wrote_the_results_file_is_valid_json(
    autograder: Path, tmp_path: Path
) -> None:
    root = unpack(autograder, tmp_path / "autograder")
    dying = tmp_path / "dying-python"
    dying.write_text(
        '#!/bin/sh\nprintf \'Traceback\\n\\tbad "quote" back\\\\slash \\001\\033[2J '
        "\\344\\275' >&2\nexit 1\n"
    )
    dying.chmod(0o755)
    document = run_autograder(root, GRADER_PYTHON=str(dying))
    assert "the grader stopped with status 1" in document["output"]
    assert "bad" in document["output"] and "slash" in document["output"]
