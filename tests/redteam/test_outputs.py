"""A batch that fails midway leaves the previous run's outputs whole.

The outputs are written into a new folder beside ``--out`` and moved into place at the end,
so a batch that dies while grading, or fails while writing, never leaves the previous
outputs half deleted, and leaves no half-written folder beside them either.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.frontends.batch import outputs, run_batch
from grader.settings import Settings
from tests.redteam.batch import KIT_ROOT, fingerprint
from tests.redteam.hostile import STUBS

PREVIOUS = {
    "gradebook.csv": "id,score\nsomeone,100\n",
    "summary.md": "# the previous run\n",
    "results/someone.json": '{"score": 100}\n',
    "logs/someone.log": "what someone printed\n",
}


@pytest.fixture
def class_folder(tmp_path: Path) -> tuple[Path, Path]:
    """Three stub submissions, and an output folder holding a previous run's outputs."""
    submissions, out = tmp_path / "submissions", tmp_path / "out"
    submissions.mkdir()
    for name in ("ada", "grace", "linus"):
        (submissions / f"{name}.py").write_text(STUBS)
    for name, text in PREVIOUS.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text)
    return submissions, out


def leftovers(out: Path) -> list[str]:
    return [name for name in os.listdir(out.parent) if name.startswith(f".{out.name}.")]


def test_a_batch_that_fails_while_writing_leaves_the_previous_outputs_whole(
    class_folder: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    submissions, out = class_folder
    before = fingerprint(out)
    written: list[Path] = []

    def failing(report: object, path: Path, form: str = "exercism") -> None:
        written.append(path)
        if len(written) == 2:
            raise OSError(28, "No space left on device")  # the disk filled up midway
        Path(path).write_text("{}")

    monkeypatch.setattr(outputs, "write_results", failing)
    with pytest.raises(OSError):
        run_batch(submissions, out, Settings(isolation="none"), workers=2, show_progress=False)
    assert len(written) == 2
    assert fingerprint(out) == before
    assert leftovers(out) == []


def test_a_batch_killed_while_grading_leaves_the_previous_outputs_whole(
    class_folder: tuple[Path, Path],
) -> None:
    submissions, out = class_folder
    (submissions / "slow.py").write_text("while True:\n    pass\n")
    before = fingerprint(out)
    command = [sys.executable, "-m", "grader", "batch", str(submissions), "--out", str(out),
               "--no-progress", "--no-sandbox"]  # fmt: skip
    process = subprocess.Popen(command, cwd=KIT_ROOT, stdout=subprocess.PIPE, text=True,
                               start_new_session=True)  # fmt: skip
    assert process.stdout is not None
    process.stdout.readline()  # the isolation line: grading has begun
    time.sleep(3)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    assert fingerprint(out) == before
    assert leftovers(out) == []
