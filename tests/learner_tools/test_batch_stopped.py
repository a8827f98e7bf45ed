"""A batch stopped half-way leaves nothing behind: no grading process, no sandbox, no resource
tracker, no temporary folder, and no half-written outputs.

A real ``python -m grader batch`` grades a class in the sandbox; once its workers and their
sandboxes are running, it gets SIGTERM (as ``kill`` or a CI's timeout sends it) or SIGINT (as
Ctrl+C does). Every process it had started by then is then looked for by process id and start
time, and every process is searched for the test's own folders in its command line.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from grader.transport.isolation import UID_RANGE
from tests.implementations.corpus import CORRECT_DIR

pytestmark = pytest.mark.sandbox

KIT_ROOT = Path(__file__).resolve().parents[2]
#: Hang guards, not speed requirements.
STARTUP_SECONDS = 120
EXIT_SECONDS = 60
#: How long a survivor may take to notice and go (a resource tracker reads its pipe's end).
GRACE_SECONDS = 10


@dataclass(frozen=True)
class Process:
    """A process as /proc shows it; its pid and start time name it even after a pid is reused."""

    pid: int
    parent: int
    started: int
    uid: int
    command: str


def processes() -> dict[int, Process]:
    """Every process on the machine, by pid."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            # The Uid: line, not the file's owner: /proc makes a process that changed its
            # uid root's.
            status = (entry / "status").read_text()
            uid = int(status.split("\nUid:")[1].split()[0])
        except OSError:
            continue
        pid = int(entry.name)
        found[pid] = Process(pid, int(stat[1]), int(stat[19]), uid, command)
    return found


def descendants(root: int) -> set[Process]:
    """Every process started, directly or not, by ``root`` and still running."""
    every = processes()
    family, added = {root}, True
    while added:
        added = False
        for process in every.values():
            if process.parent in family and process.pid not in family:
                family.add(process.pid)
                added = True
    return {every[pid] for pid in family - {root} if pid in every}


def still_running(known: set[Process]) -> set[Process]:
    """Those of ``known`` that are still running (same pid and start time)."""
    now = processes()
    return {p for p in known if p.pid in now and now[p.pid].started == p.started}


@pytest.fixture
def class_folder(tmp_path: Path) -> Path:
    """Eight correct submissions: several seconds of grading each in the sandbox."""
    folder = tmp_path / "class"
    folder.mkdir()
    source = (CORRECT_DIR / "c01_namedtuple_events.py").read_text(encoding="utf-8")
    for number in range(8):
        (folder / f"learner{number}.py").write_text(source, encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("sandbox", "stop"),
    [("bwrap", signal.SIGTERM), ("bwrap", signal.SIGINT), ("uid", signal.SIGTERM)],
    ids=["bwrap-SIGTERM", "bwrap-SIGINT", "uid-SIGTERM"],
)
def test_a_batch_stopped_mid_way_leaves_no_process_no_temporary_folder_and_no_outputs(
    tmp_path: Path, class_folder: Path, sandbox: str, stop: signal.Signals
) -> None:
    if sandbox == "uid" and os.getuid() != 0:
        pytest.skip("a uid of its own for learner code needs root")
    # The batch's TMPDIR: every folder it makes there is watched. Not under tmp_path, which
    # only root may enter: a sandbox under a uid of its own must reach its workspace.
    scratch = Path(tempfile.mkdtemp(prefix="batch-stopped-"))
    scratch.chmod(0o755)
    out, printed = tmp_path / "grades", tmp_path / "printed.txt"
    with printed.open("wb") as sink:  # a file, not a pipe a survivor could hold open
        batch = subprocess.Popen(
            [sys.executable, "-m", "grader", "batch", str(class_folder), "--out", str(out),
             "--workers", "2", "--no-progress", "--isolation", sandbox],
            cwd=KIT_ROOT, env={**os.environ, "TMPDIR": str(scratch), "LANGUAGE": "en"},
            stdout=sink, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    started: set[Process] = set()
    try:
        started = wait_for_sandboxes(batch.pid)
        batch.send_signal(stop)
        batch.wait(timeout=EXIT_SECONDS)
        deadline = time.monotonic() + GRACE_SECONDS
        while still_running(started) and time.monotonic() < deadline:
            time.sleep(0.2)
        survivors = still_running(started)
        output = printed.read_text(encoding="utf-8", errors="replace")

        assert {p.command[:120] for p in survivors} == set(), output
        named = [p.command[:160] for p in processes().values()
                 if str(tmp_path) in p.command or str(scratch) in p.command]  # fmt: skip
        assert named == [], output
        sandbox_uids = {p.uid for p in started if p.uid in range(*UID_RANGE)}
        owned = [p.command[:160] for p in processes().values() if p.uid in sandbox_uids]
        assert owned == [], output
        assert sorted(path.name for path in scratch.iterdir()) == [], output
        assert not out.exists(), output
        assert batch.returncode == 128 + stop, output
        assert "Traceback" not in output
        assert output.splitlines()[-1].startswith(f"Batch stopped ({stop.name})"), output
    finally:
        # Whatever the verdict, nothing of this test outlives it.
        if batch.poll() is None:
            batch.kill()
        for process in still_running(started):  # by pid and start time: never a reused pid
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGKILL)
        batch.wait()
        shutil.rmtree(scratch, ignore_errors=True)


def wait_for_sandboxes(batch: int) -> set[Process]:
    """Wait until ``batch`` has its two grading workers and a sandbox running; return its
    processes."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        family = descendants(batch)
        sandboxes = [p for p in family
                     if p.command.startswith("bwrap ") or p.uid in range(*UID_RANGE)]  # fmt: skip
        workers = [p for p in family if "multiprocessing.spawn" in p.command]
        if sandboxes and len(workers) >= 2:
            return family
        time.sleep(0.1)
    raise AssertionError(f"the batch started no sandbox in {STARTUP_SECONDS} s")
