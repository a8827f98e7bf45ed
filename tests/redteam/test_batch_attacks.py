"""A class batch with every attack on the grade, and honest controls beside them.

The batch runs once, as an instructor runs it (``python -m grader batch``), over a folder
that mixes the attacks of :mod:`tests.redteam.attacks` with correct, wrong and misbehaving
submissions. Then each test reads one fact: an attack's row, a control's row, or what is
left on the machine ten seconds after the batch has exited.
"""

from __future__ import annotations

import csv
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grader.sandbox import backends
from tests.implementations.corpus import mutant_source
from tests.implementations.mutants import MUTANTS
from tests.redteam.attacks import CORRECT, EXPECTED, KIT_ROOT, MARKER, attacks

# Skipped where no sandbox can run (a learner's laptop without bubblewrap), never in CI:
# .ci/run sets REQUIRE_SANDBOX, and then a missing sandbox fails the batch test instead.
pytestmark = pytest.mark.skipif(
    not backends.bwrap_works() and not os.environ.get("REQUIRE_SANDBOX"),
    reason="bubblewrap is not installed or cannot sandbox here (sudo apt install bubblewrap)",
)

WRONG_REPLAY = mutant_source(next(m for m in MUTANTS if m.name == "replay_no_merge"))
CONTROLS: dict[str, str] = {
    "correct.py": CORRECT,
    "victim.py": CORRECT,
    "wrong_replay.py": WRONG_REPLAY,
    "loops_at_import.py": "while True:\n    pass\n",
    "loops_in_list_sessions.py": CORRECT
    + "\n\ndef list_sessions(log):\n    while True:\n        pass\n",
    "allocates_10gb_at_import.py": "hog = bytearray(10 * 1024**3)\n",
    "allocates_10gb_in_replay.py": CORRECT
    + "\n\ndef replay_session(log, session_id):\n    return bytearray(10 * 1024**3)\n",
    "exits_at_import.py": "import os\nos._exit(0)\n",
    "exits_in_replay.py": CORRECT
    + "\n\ndef replay_session(log, session_id):\n    import os\n    os._exit(0)\n",
    "syntax_error.py": "def create_event_log(:\n",
}
CONTROL_ROWS: dict[str, tuple[str, int]] = {
    "correct": ("graded", 100),
    "victim": ("graded", 100),
    "wrong_replay": ("graded", 80),
    "stub_package": ("graded", 0),
    "exercise_files": ("graded", 100),
    "loops_at_import": ("timed_out", 0),
    "loops_in_list_sessions": ("timed_out", 80),
    "allocates_10gb_at_import": ("memory_exceeded", 0),
    "allocates_10gb_in_replay": ("memory_exceeded", 80),
    "exits_at_import": ("crashed", 0),
    "exits_in_replay": ("crashed", 80),
    "syntax_error": ("import_error", 0),
}
ATTACKS = [name for name in EXPECTED if name != "answers_a_hundred_megabytes"]


def fingerprint(folder: Path) -> str:
    """Every file's path, mode and bytes under ``folder``, as one hash."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if "__pycache__" in path.parts or ".venv" in path.parts or ".git" in path.parts:
            continue
        info = path.lstat()
        digest.update(f"{path.relative_to(folder)}:{info.st_mode}\n".encode())
        if path.is_file() and not path.is_symlink():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def fingerprints(out: Path, submissions: Path) -> dict[str, str]:
    """The output folder, the submissions folder and the kit's code, each as one hash."""
    kit = ("grader", "solutions", "exercises", "eventlog")
    return {
        "out": fingerprint(out),
        "submissions": fingerprint(submissions),
        "kit": "".join(fingerprint(KIT_ROOT / part) for part in kit),
    }


class Listener:
    """A TCP listener on the host: a submission that reaches it has network access."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.heard: list[bytes] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.heard.append(connection.recv(100))


def survivors() -> list[str]:
    """Processes a submission started that are still alive: by name, or by sandbox uid."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        uid = int(status.split("Uid:")[1].split()[0])
        if MARKER in status or b"grader_callserver" in command or uid >= backends.UID_RANGE[0]:
            found.append(f"{pid}: {command[:80]!r}")
    return found


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Run the batch once; record fingerprints before, at exit and ten seconds later."""
    submissions = tmp_path_factory.mktemp("submissions")
    out = tmp_path_factory.mktemp("out")
    listener = Listener()
    for name, source in {**CONTROLS, **attacks(submissions, out, listener.port)}.items():
        (submissions / name).write_text(source)
    shutil.copytree(
        KIT_ROOT / "exercises",
        submissions / "stub_package",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    (submissions / "exercise_files").mkdir()
    for module in ("event_log", "sessions", "replay"):
        text = (KIT_ROOT / "solutions" / f"{module}.py").read_text()
        (submissions / "exercise_files" / f"{module}.py").write_text(
            text.replace("solutions.", "exercises.")
        )
    before = fingerprints(out, submissions)
    finished = subprocess.run(
        [
            sys.executable,
            "-m",
            "grader",
            "batch",
            str(submissions),
            "--out",
            str(out),
            "--no-progress",
            "--time-limit",
            "2",
        ],
        cwd=KIT_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    at_exit = fingerprints(out, submissions)
    time.sleep(10)
    later = fingerprints(out, submissions)
    with (out / "gradebook.csv").open(newline="") as file:
        rows = {row["id"]: row for row in csv.DictReader(file)}
    yield {
        "finished": finished,
        "rows": rows,
        "before": before,
        "at_exit": at_exit,
        "later": later,
        "survivors": survivors(),
        "heard": list(listener.heard),
        "out": out,
    }
    listener.socket.close()


def test_the_batch_ran_in_the_sandbox_and_said_so(batch: dict[str, Any]) -> None:
    finished = batch["finished"]
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert finished.stdout.startswith("Learner code ran in a bubblewrap sandbox")
    assert {row["isolation"] for row in batch["rows"].values()} == {"bwrap"}


@pytest.mark.parametrize("attack", ATTACKS)
def test_an_attack_earns_nothing_and_gets_its_own_status(
    batch: dict[str, Any], attack: str
) -> None:
    row = batch["rows"][attack]
    assert (row["status"], int(row["score"])) == EXPECTED[attack]
    assert int(row["score"]) == 0


@pytest.mark.parametrize("control", [*CONTROL_ROWS, "answers_a_hundred_megabytes"])
def test_a_control_gets_the_row_it_earned(batch: dict[str, Any], control: str) -> None:
    expected = {**CONTROL_ROWS, **EXPECTED}[control]
    row = batch["rows"][control]
    assert (row["status"], int(row["score"])) == expected


def test_nothing_changes_after_the_batch_has_exited(batch: dict[str, Any]) -> None:
    assert batch["later"] == batch["at_exit"]


def test_the_submissions_and_the_kit_are_as_they_were_before_the_batch(
    batch: dict[str, Any],
) -> None:
    assert batch["at_exit"]["submissions"] == batch["before"]["submissions"]
    assert batch["at_exit"]["kit"] == batch["before"]["kit"]


def test_no_process_a_submission_started_is_alive_ten_seconds_later(batch: dict[str, Any]) -> None:
    assert batch["survivors"] == []


def test_no_submission_reached_the_network(batch: dict[str, Any]) -> None:
    assert batch["heard"] == []


def test_the_results_files_hold_the_grader_s_scores_not_the_forged_ones(
    batch: dict[str, Any],
) -> None:
    results = batch["out"] / "results"
    assert sorted(p.stem for p in results.glob("*.json")) == sorted(batch["rows"])
    assert "500" not in (results / "writes_results_files.json").read_text()
    assert "500" not in (results / "outlives_the_batch.json").read_text()
