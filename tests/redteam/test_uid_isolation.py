"""Without bubblewrap but as root (a Gradescope container): the child runs as a uid of its own.

It cannot write the grader's files, and every process it started dies with its grading, even
one that left its process group with ``setsid``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from grader.runner import run
from grader.sandbox import backends
from grader.tasks import TASKS
from tests.redteam.attacks import CORRECT, MARKER, STUBS

pytestmark = pytest.mark.skipif(os.getuid() != 0, reason="a uid of its own needs root")

DAEMON_AND_WRITE = """
import os, time
try:
    open({target!r}, "w").write("written by the submission")
except OSError:
    pass
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        try:
            os.closerange(0, 256)  # let go of the grader's pipes: a quiet daemon
            try:
                open("/proc/self/comm", "w").write({marker!r})
            except OSError:
                pass  # after setuid the process is not dumpable: /proc/self is root's
            time.sleep(60)
        finally:
            os._exit(0)
    os._exit(0)
"""


def survivors() -> list[str]:
    """Live processes of the sandbox's uids (zombies are already dead)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        uid = int(status.split("Uid:")[1].split()[0])
        dead = "State:\tZ" in status
        if (uid >= backends.UID_RANGE[0] or MARKER in status) and not dead:
            found.append(pid)
    return found


def test_a_correct_file_gets_full_marks_as_a_uid_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "correct.py"
    path.write_text(CORRECT)
    report = run(str(path), TASKS, isolation=backends.UID)
    assert (report.isolation, report.score) == ("uid", 100), report.text()


def test_the_child_cannot_write_the_grader_s_files_nor_outlive_its_grading(
    tmp_path: Path,
) -> None:
    target = tmp_path / "grader_owned.txt"
    target.write_text("the grader's")
    target.chmod(0o644)
    path = tmp_path / "hostile.py"
    path.write_text(DAEMON_AND_WRITE.format(target=str(target), marker=MARKER) + STUBS)
    report = run(str(path), TASKS, isolation=backends.UID)
    time.sleep(1)
    assert report.score == 0
    assert target.read_text() == "the grader's"
    assert survivors() == []
