"""Learner code that never returns, exits or kills its process costs one task, not the grade.

Every function but the broken one comes from a correct file of the corpus, so only the broken
one can lose points. The grader replaces a child that hangs or dies and grades the rest.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.grader.conftest import CORPUS, run_grader

CORRECT = (CORPUS / "correct" / "c07_tuple_log.py").read_text(encoding="utf-8")
TAIL_IMPORTS = "\nimport os, sys, time\n"
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
# Long enough that a fair call never comes near it, even on a busy CI machine.
LIMIT = "2"


def with_list_sessions(body: str) -> str:
    """The correct file with list_sessions replaced by ``body``."""
    return CORRECT + TAIL_IMPORTS + "\n\ndef list_sessions(log):\n" + body


def statuses(path: Path) -> list[str]:
    return [t["status"] for t in json.loads(path.read_text(encoding="utf-8"))["tests"]]


@pytest.mark.parametrize("body", NEVER_RETURNS.values(), ids=list(NEVER_RETURNS))
def test_a_function_that_never_returns_times_out_its_task_and_the_rest_are_graded(
    body: str, write_target: Callable[[str, str], Path], tmp_path: Path
) -> None:
    path = write_target("hangs.py", with_list_sessions(body))
    results = tmp_path / "results.json"
    finished = run_grader("--target", str(path), "--time-limit", LIMIT, "--json", str(results))
    assert finished.returncode == 1
    assert "timed out" in finished.stdout
    assert "list_sessions did not return within" in finished.stdout
    # The call that never returned ends the smallest example that shows it.
    case = finished.stdout.split("Smallest case that shows it:")[1].split("->")[0]
    assert case.strip().splitlines()[-1].strip() == "list_sessions(log0)"
    assert statuses(results) == ["pass", "pass", "error", "pass", "pass"]


def test_sys_exit_in_learner_code_is_an_error_of_that_task(
    write_target: Callable[[str, str], Path],
) -> None:
    path = write_target("exits.py", with_list_sessions("    sys.exit(3)\n"))
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
def test_a_process_killed_by_learner_code_is_an_error_and_a_fresh_one_grades_the_rest(
    body: str, shown: str, write_target: Callable[[str, str], Path], tmp_path: Path
) -> None:
    path = write_target("dies.py", with_list_sessions(body))
    results = tmp_path / "results.json"
    finished = run_grader("--target", str(path), "--json", str(results))
    assert finished.returncode == 1
    assert shown in finished.stdout
    assert statuses(results) == ["pass", "pass", "error", "pass", "pass"]


def test_what_learner_code_prints_stays_out_of_the_report_and_goes_to_the_results_output(
    write_target: Callable[[str, str], Path], tmp_path: Path
) -> None:
    noisy = (
        "    print('NOISE FROM LEARNER')\n"
        "    os.write(1, b'RAW NOISE\\n')\n"
        "    return tuple(dict.fromkeys(e.session_id for e in log))\n"
    )
    results = tmp_path / "results.json"
    path = write_target("noisy.py", with_list_sessions(noisy))
    finished = run_grader("--target", str(path), "--json", str(results))
    assert finished.returncode == 0
    assert "NOISE" not in finished.stdout + finished.stderr
    tests = json.loads(results.read_text(encoding="utf-8"))["tests"]
    assert tests[2]["output"].startswith("NOISE FROM LEARNER\n")
    assert len(tests[2]["output"]) <= 500
    assert "output" not in tests[0]


def test_an_import_that_never_finishes_is_a_load_error(
    write_target: Callable[[str, str], Path],
) -> None:
    path = write_target("hangs_on_import.py", "while True:\n    pass\n")
    finished = run_grader("--target", str(path), "--time-limit", "1")
    assert finished.returncode == 2
    assert "Importing it did not finish within 3 seconds." in finished.stdout


def test_a_submission_may_import_any_module_of_the_standard_library_when_it_likes(
    write_target: Callable[[str, str], Path],
) -> None:
    # Imported inside a call, after the child has dropped to its own uid: every folder of the
    # standard library must still be readable there.
    lazy = (
        "    import ctypes, decimal, fractions, sqlite3, zoneinfo  # noqa: F401\n"
        "    return tuple(dict.fromkeys(e.session_id for e in log))\n"
    )
    finished = run_grader("--target", str(write_target("lazy.py", with_list_sessions(lazy))))
    assert finished.returncode == 0, finished.stdout
