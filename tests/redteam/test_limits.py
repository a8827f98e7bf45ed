"""Limits that hold for the whole submission, whatever it tries.

Memory is capped per process, and a sandboxed submission gets one process: the guard
refuses threads and processes, and below it the system refuses them too (a uid of its own
with ``RLIMIT_NPROC`` 1), which the first tests check with the guard switched off. Its
temporary folder holds a few capped files. One clock bounds the whole submission: a
correct but slow file is stopped when the batch's 30 seconds are spent, not after a task
each.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import grader.kernel
from grader.engine.outcomes import Report, Verdict
from grader.frontends.batch.command import BATCH
from grader.run import grade
from grader.settings import Settings
from grader.tasks import select
from tests.redteam.classic import SLOW_CORRECT
from tests.redteam.conftest import need, need_bwrap, need_root, uid_usable
from tests.redteam.hostile import CORRECT_BODY

#: A kernel file that switches the guard off and leaves the back doors open: what the
#: system alone then refuses is what these tests see.
NO_GUARD = """
def install(*args, **kwargs):
    pass

def _close_the_back_doors():
    pass
"""
ONE_TASK = ["list_sessions"]
MANY_HOGS = """
import os, _thread, time
started = {"threads": 0, "processes": 0}
hogs = []

def hog():
    hogs.append(bytearray(10 * 2**20))  # each would have a memory cap of its own
    time.sleep(10)

for _ in range(8):
    try:
        _thread.start_new_thread(hog, ())
        started["threads"] += 1
    except Exception:
        break
for _ in range(8):
    try:
        if os.fork() == 0:
            hog()
            os._exit(0)
        started["processes"] += 1
    except Exception:
        break
os.write(2, ("STARTED %(threads)d threads, %(processes)d processes\\n" % started).encode())
"""
TEMP_FILES = """
import os
written = 0
for number in range(64):
    try:
        with open(os.getcwd() + "/f%d" % number, "wb") as file:
            file.write(b"x" * 2**20)
        written += 1
    except Exception:
        pass
os.write(2, ("WROTE %d files\\n" % written).encode())
"""


def graded_with_log(
    source: str, folder: Path, settings: Settings, tasks: list[str] | None = ONE_TASK
) -> tuple[Report, str]:
    """The report (on ``tasks``, None: all), and what the submission wrote to its log."""
    target, log = folder / "submission.py", folder / "submission.log"
    target.write_text(source)
    report = grade(str(target), select(tasks), settings, log=log)
    return report, log.read_text()


@pytest.mark.parametrize("mode", ["bwrap", "uid"])
def test_with_the_guard_off_the_system_still_allows_one_process_and_no_thread(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    need_root()  # a uid of its own, and so the process cap, needs root
    if mode == "bwrap":
        need_bwrap()
    else:
        need(uid_usable(), "uid isolation has no interpreter other users can read here")
    real = grader.kernel.sources

    def without_the_guard(files: tuple[str, ...] = grader.kernel.FILES) -> list[tuple[str, str]]:
        return [*real(files), ("<kernel:off>", NO_GUARD)]

    monkeypatch.setattr(grader.kernel, "sources", without_the_guard)
    _, log = graded_with_log(MANY_HOGS + CORRECT_BODY, tmp_path, Settings(isolation=mode))
    assert "STARTED 0 threads, 0 processes" in log, log[-2000:]


def test_the_temporary_folder_holds_a_few_capped_files_only(tmp_path: Path) -> None:
    # No sandbox needed: the guard counts what is written, the file size limit caps each.
    _, log = graded_with_log(TEMP_FILES + CORRECT_BODY, tmp_path, Settings(isolation="none"))
    written = int(log.split("WROTE ")[1].split()[0])
    assert 0 < written <= 16


@pytest.mark.slow
def test_a_slow_but_correct_file_is_stopped_by_the_submission_s_clock(tmp_path: Path) -> None:
    settings = BATCH.replace(isolation="auto")
    started = time.monotonic()
    report, _ = graded_with_log(SLOW_CORRECT, tmp_path, settings, tasks=None)
    seconds = time.monotonic() - started
    assert report.verdict is Verdict.TIMED_OUT
    assert report.score < 100
    # The clock is 30 s; what is left is the grader's own work after it ran out, which a
    # busy machine stretches (never assert tight timings on a shared machine).
    assert seconds < BATCH.submission_seconds * 3, seconds
