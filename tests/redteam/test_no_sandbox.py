"""Without a sandbox (``--no-sandbox``) a submission that goes for its grader costs its own row.

Learner code then runs as the grader's own user, so killing the process that grades it, or
lowering that process's limits, is within its rights as far as the system goes: the guard
refuses both, and reports them. And whatever kills a grading process costs the submission
it was grading, never the batch: a grading process killed from outside, twice (once in the
shared pool, once alone), gives that submission a ``crashed`` row and the others theirs.
"""

from __future__ import annotations

import os
import secrets
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.redteam import batch
from tests.redteam.hostile import CORRECT, STUBS

# A batch takes minutes (more on a busy machine): past the suite's 300 s per test.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

#: Marks the submission whose grading process is killed (unique to the run: a kernel of
#: another run, on the same machine, must never be taken for it).
DOOMED = f"doomed-{secrets.token_hex(6)}"
PRLIMIT = """
import os, resource
for which in (resource.RLIMIT_CPU, resource.RLIMIT_NOFILE, resource.RLIMIT_AS):
    try:
        resource.prlimit(os.getppid(), which, (1, 1))
    except Exception:
        pass
"""


def kernels_grading(marker: str) -> list[int]:
    """The pids of the kernels whose submission holds ``marker`` (none mode: their folder
    is the workspace, beside the copy)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if b"def boot()" not in Path(f"/proc/{entry}/cmdline").read_bytes():
                continue
            copy = Path(os.readlink(f"/proc/{entry}/cwd")).parent / "submission" / "submission.py"
            if marker in copy.read_text():
                found.append(int(entry))
        except OSError:
            continue
    return found


def kill_its_grader(marker: str, times: int, killed: list[int]) -> None:
    """Kill the grading process of the kernel holding ``marker``, ``times`` times."""
    deadline = time.monotonic() + 600
    while len(killed) < times and time.monotonic() < deadline:
        for pid in kernels_grading(marker):
            try:
                status = Path(f"/proc/{pid}/status").read_text()
                parent = int(status.split("PPid:")[1].split()[0])
                # A grading process of the pool (an orphaned kernel's new parent is the
                # survivors' watcher, which must live).
                command = Path(f"/proc/{parent}/cmdline").read_bytes()
                if parent not in killed and b"multiprocessing" in command:
                    os.kill(parent, signal.SIGKILL)
                    killed.append(parent)
            except (OSError, IndexError, ValueError):
                continue
        time.sleep(0.05)


@pytest.fixture(scope="module")
def unsandboxed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("nosandbox")
    submissions, out = root / "submissions", root / "out"
    submissions.mkdir()
    sources = {
        "correct.py": CORRECT,
        "kills_its_parent.py": "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n" + STUBS,
        "lowers_its_parent_s_limits.py": PRLIMIT + STUBS,
        "doomed.py": f"import time\ntime.sleep(5)  # {DOOMED}\n" + STUBS,
        "stub.py": STUBS,
    }
    for name, source in sources.items():
        (submissions / name).write_text(source)
    killed: list[int] = []
    killer = threading.Thread(target=kill_its_grader, args=(DOOMED, 2, killed), daemon=True)
    killer.start()
    run = batch.run(submissions, out, "--no-sandbox", *batch.PATIENT)
    return {"run": run, "killed": killed}


def test_the_batch_ran_without_a_sandbox_and_said_so(unsandboxed: dict[str, Any]) -> None:
    run = unsandboxed["run"]
    assert run.finished.returncode == 0, run.finished.stdout + run.finished.stderr
    assert "WITHOUT a sandbox" in run.finished.stdout
    assert {row["isolation"] for row in run.rows.values()} == {"none"}


@pytest.mark.parametrize("attack", ["kills_its_parent", "lowers_its_parent_s_limits"])
def test_going_for_its_grader_is_refused_and_reported(
    unsandboxed: dict[str, Any], attack: str
) -> None:
    row = unsandboxed["run"].rows[attack]
    assert (row["status"], int(row["score"])) == ("tampered", 0)


def test_a_grading_process_killed_twice_costs_its_own_submission_only(
    unsandboxed: dict[str, Any],
) -> None:
    rows = unsandboxed["run"].rows
    assert len(unsandboxed["killed"]) == 2
    assert rows["doomed"]["status"] == "crashed"
    assert (rows["correct"]["status"], int(rows["correct"]["score"])) == ("graded", 100)
    assert (rows["stub"]["status"], int(rows["stub"]["score"])) == ("graded", 0)
