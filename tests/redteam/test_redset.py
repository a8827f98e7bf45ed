"""An independent set of correct and subtly wrong implementations, graded as a class.

The set (the folder ``REDSET`` names: ``correct/`` and ``wrong/``) was written by
someone who never saw the grader's properties. It is graded by the batch under bubblewrap
and with uid isolation, and its correct files through the Gradescope zip with bubblewrap
unavailable: every correct file must get 100 and every file a row. How many wrong files
lose points is the grader's quality, not the red team's: the counts are written to
``REDSET_REPORT`` (when set) as JSON, and never asserted.

Without ``REDSET`` (a learner's copy, CI), these tests are skipped: three batches of a class
of 120 take most of an hour.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.redteam import batch
from tests.redteam.conftest import need_bwrap, need_root, uid_usable
from tests.redteam.gradescope import run_autograder

# A batch takes minutes (more on a busy machine): past the suite's 300 s per test.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]

REDSET = Path(os.environ.get("REDSET", "/nonexistent-redset"))
MODES = {"bwrap": ("--isolation", "bwrap"), "uid": ("--isolation", "uid")}


def files(kind: str) -> list[Path]:
    return sorted((REDSET / kind).glob("*.py"))


@pytest.fixture(scope="module")
def redset_class(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (REDSET / "correct").is_dir() or not (REDSET / "wrong").is_dir():
        pytest.skip(f"the independent red-team set is not at {REDSET} (set REDSET)")
    folder = tmp_path_factory.mktemp("redset") / "class"
    folder.mkdir()
    for path in [*files("correct"), *files("wrong")]:
        shutil.copyfile(path, folder / path.name)
    return folder


@pytest.fixture(scope="module", params=sorted(MODES))
def graded(request: pytest.FixtureRequest, redset_class: Path) -> tuple[str, batch.BatchRun]:
    mode = request.param
    if mode == "bwrap":
        need_bwrap()
    else:
        need_root()
        if not uid_usable():
            pytest.skip("uid isolation has no interpreter other users can read here")
    out = redset_class.parent / f"out-{mode}"
    run = batch.run(redset_class, out, *MODES[mode], *batch.PATIENT, settle=1)
    _record(mode, run)
    return mode, run


def _record(mode: str, run: batch.BatchRun) -> None:
    """Write how the set fared, for the red team's report."""
    target = os.environ.get("REDSET_REPORT")
    if not target:
        return
    wrong = [path.stem for path in files("wrong")]
    lost = [name for name in wrong if int(run.rows[name]["score"]) < 100]
    summary: dict[str, Any] = json.loads(Path(target).read_text()) if Path(target).exists() else {}
    summary[mode] = {
        "seconds": round(run.seconds),
        "wrong": len(wrong),
        "wrong_that_lost_points": len(lost),
        "wrong_with_full_marks": sorted(set(wrong) - set(lost)),
        "statuses": {name: row["status"] for name, row in sorted(run.rows.items())},
    }
    Path(target).write_text(json.dumps(summary, indent=2))


def test_the_batch_gives_every_file_a_row(graded: tuple[str, batch.BatchRun]) -> None:
    mode, run = graded
    assert run.finished.returncode == 0, run.finished.stdout + run.finished.stderr
    expected = {path.stem for path in [*files("correct"), *files("wrong")]}
    assert set(run.rows) == expected
    assert {row["isolation"] for row in run.rows.values()} == {mode}


def test_every_correct_file_gets_full_marks(graded: tuple[str, batch.BatchRun]) -> None:
    _, run = graded
    scores = {path.stem: run.rows[path.stem]["score"] for path in files("correct")}
    assert {name: score for name, score in scores.items() if score != "100"} == {}


def test_every_correct_file_gets_full_marks_through_the_gradescope_zip_without_bubblewrap(
    redset_class: Path, autograder: dict[str, Any]
) -> None:
    failed = {}
    for path in files("correct"):
        results = run_autograder(autograder, path.read_text())["results"]
        if results["score"] != 100 or results["extra_data"]["isolation"] != "uid":
            failed[path.stem] = (results["score"], results["extra_data"])
    assert failed == {}
