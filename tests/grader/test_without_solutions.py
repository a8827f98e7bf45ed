"""A learner's copy has no solutions/: the grader must not need it (nor eventlog/)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.grader.conftest import CLI_TIMEOUT, CORPUS, KIT_ROOT

# Run the grader with solutions and eventlog made unimportable, even through the editable
# install's finder: a None entry in sys.modules makes every import of that name fail, in the
# supervisor and in the forked worker alike.
BLOCKED_RUN = """\
import sys
sys.modules["solutions"] = None
sys.modules["eventlog"] = None
import grader
assert grader.__file__.startswith(sys.argv[1]), grader.__file__
from grader.cli import main
raise SystemExit(main(sys.argv[2:]))
"""


def copy_kit_without_solutions(destination: Path) -> Path:
    root = destination / "learner_copy"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in ("exercises", "grader"):
        shutil.copytree(KIT_ROOT / package, root / package, ignore=ignore)
    return root


def grade_in_copy(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCKED_RUN, str(root), *args],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT,
        check=False,
    )


def test_the_grader_grades_the_stubs_in_a_copy_without_solutions(tmp_path: Path) -> None:
    root = copy_kit_without_solutions(tmp_path)
    assert not (root / "solutions").exists()
    finished = grade_in_copy(root, "--target", "exercises")
    assert finished.returncode == 1, finished.stdout + finished.stderr
    assert finished.stdout.count("not implemented yet") >= 5


def test_the_grader_gives_full_marks_in_a_copy_without_solutions(tmp_path: Path) -> None:
    root = copy_kit_without_solutions(tmp_path)
    correct = CORPUS / "correct" / "c03_json_payload.py"
    finished = grade_in_copy(root, "--target", str(correct))
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert "Total: 100/100 points" in finished.stdout
