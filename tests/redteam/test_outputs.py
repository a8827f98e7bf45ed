"""A batch that fails midway leaves the previous run's outputs whole.

The outputs are written into a new folder beside ``--out`` and moved into place at the end,
so a batch that dies while grading, or fails while writing, never leaves the previous
outputs half deleted, and leaves no half-written folder beside them either.
"""

from __future__ import annotations

import contextlib
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
    tracker = kill_all_but_the_resource_tracker(process.pid)
    process.wait()
    assert fingerprint(out) == before
    assert leftovers(out) == []
    # The tracker outlives what it tracks on purpose: once the last of them is gone it
    # removes the semaphores they left in /dev/shm (killed with them, it left five behind at
    # every run of this test).
    assert tracker is None or gone_within(tracker, TRACKER_SECONDS)


#: How long multiprocessing's resource tracker may take to see the batch gone and clean up.
TRACKER_SECONDS = 30


def kill_all_but_the_resource_tracker(group: int) -> int | None:
    """SIGKILL every process of ``group`` except multiprocessing's resource tracker, as a
    ``kill -9`` of the batch and its workers leaves it; the tracker's pid."""
    tracker = None
    for pid, command in group_members(group).items():
        if b"resource_tracker" in command:
            tracker = pid
            continue
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return tracker


def group_members(group: int) -> dict[int, bytes]:
    """The processes of process group ``group``, with their command lines."""
    members = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(stat[2]) == group:  # after the state and the parent: the group
                members[int(entry.name)] = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
    return members


def gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return True
        if state in ("Z", "X"):  # exited; an orphan's parent may never reap it
            return True
        time.sleep(0.1)
    return False
