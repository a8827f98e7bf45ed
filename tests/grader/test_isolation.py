"""Learner code that never returns, exits or kills the process costs one task, not the grade."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.grader.conftest import run_grader

# The four other functions come from the reference, so only the broken one can lose points.
REST = """\
import os, sys, time
from solutions import append_event, create_event_log, get_events_for_session, replay_session
"""
NEVER_RETURNS = {
    "busy_loop": "    while True:\n        pass\n",
    "long_sleep": "    time.sleep(1e9)\n",
    "loop_swallowing_everything": (
        "    while True:\n"
        "        try:\n"
        "            time.sleep(0.01)\n"
        "        except:  # noqa: E722\n"
        "            pass\n"
    ),
}


# Long enough that the other tasks finish well within it even on a busy CI machine.
LIMIT = "4"


@pytest.mark.parametrize("body", NEVER_RETURNS.values(), ids=list(NEVER_RETURNS))
def test_a_function_that_never_returns_times_out_its_task_and_the_rest_are_graded(
    body: str, write_target: Callable[[str, str], Path], tmp_path: Path
) -> None:
    path = write_target("hangs.py", REST + "\ndef list_sessions(log):\n" + body)
    results = tmp_path / "results.json"
    finished = run_grader("--target", str(path), "--time-limit", LIMIT, "--json", str(results))
    assert finished.returncode == 1
    assert "timed out" in finished.stdout
    assert f"list_sessions did not return within {LIMIT} seconds" in finished.stdout
    statuses = [t["status"] for t in json.loads(results.read_text(encoding="utf-8"))["tests"]]
    assert statuses == ["pass", "pass", "error", "pass", "pass"]


def test_sys_exit_in_learner_code_is_an_error_of_that_task(
    write_target: Callable[[str, str], Path],
) -> None:
    path = write_target("exits.py", REST + "\ndef list_sessions(log):\n    sys.exit(3)\n")
    finished = run_grader("--target", str(path))
    assert finished.returncode == 1
    assert "called sys.exit(3)" in finished.stdout
    assert "3. Listing sessions                                    0/20  error" in finished.stdout
    assert finished.stdout.count("passed") == 4


KILLERS = {
    "os_exit": ("    os._exit(9)\n", "exit code 9"),
    "segfault": ("    import ctypes\n    ctypes.string_at(0)\n", "exit code -11"),
}


@pytest.mark.parametrize("body, shown", KILLERS.values(), ids=list(KILLERS))
def test_a_worker_killed_by_learner_code_is_an_error_and_a_fresh_one_grades_the_rest(
    body: str, shown: str, write_target: Callable[[str, str], Path], tmp_path: Path
) -> None:
    path = write_target("dies.py", REST + "\ndef list_sessions(log):\n" + body)
    results = tmp_path / "results.json"
    finished = run_grader("--target", str(path), "--json", str(results))
    assert finished.returncode == 1
    assert shown in finished.stdout
    statuses = [t["status"] for t in json.loads(results.read_text(encoding="utf-8"))["tests"]]
    assert statuses == ["pass", "pass", "error", "pass", "pass"]


def test_printing_from_learner_code_does_not_reach_the_report(
    write_target: Callable[[str, str], Path],
) -> None:
    source = REST + (
        "from solutions import list_sessions as _list\n"
        "def list_sessions(log):\n    print('NOISE FROM LEARNER')\n    return _list(log)\n"
    )
    finished = run_grader("--target", str(write_target("noisy.py", source)))
    assert finished.returncode == 0
    assert "NOISE FROM LEARNER" not in finished.stdout + finished.stderr


def test_an_import_that_never_finishes_is_a_load_error(
    write_target: Callable[[str, str], Path],
) -> None:
    path = write_target("hangs_on_import.py", "while True:\n    pass\n")
    finished = run_grader("--target", str(path), "--time-limit", "1")
    assert finished.returncode == 2
    assert "Importing it did not finish within 1 seconds." in finished.stdout
