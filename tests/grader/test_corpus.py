"""Every implementation in the corpus is graded as its label says.

Correct files, in unusual styles, must get full marks. Each wrong file must lose the points
of the task its ``BREAKS_TASK`` names, and ideally no others: where a bug honestly breaks a
second task too, ``SPILLOVER`` records it with the reason.

Graded without the supervisor (no time limit: the corpus is well behaved), one file per
process of a pool as wide as the machine, which keeps this file fast.
"""

from __future__ import annotations

import multiprocessing
import os
import re
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from grader import messages
from grader.grading import grade_task
from grader.loading import load_target
from grader.tasks import TASKS
from tests.grader.conftest import CORRECT_FILES, WRONG_FILES

SPILLOVER = {
    # Its reads keep events with id > 0 as they should, so event 0 never shows up: the
    # replay really does miss the first message.
    "w01_ids_start_at_zero.py": {"replay"},
    # The gap shows up in both places the contract promises "next id": ids with no gaps
    # (append_and_ids) and "a refused append appends nothing" (reject_bad_input).
    "w03_id_burned_by_refused_append.py": {"reject_bad_input"},
}


def lost_tasks(path: Path) -> dict[str, str]:
    target = load_target(str(path))
    results = (grade_task(task, target) for task in TASKS)
    return {
        result.task_id: result.failure.render() if result.failure else result.status
        for result in results
        if result.status != messages.STATUS_PASSED
    }


@pytest.fixture(scope="module")
def lost_by_file() -> dict[str, dict[str, str]]:
    """Every corpus file graded once: file name -> {task id lost: why}."""
    paths = [*CORRECT_FILES, *WRONG_FILES]
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    workers = max(2, os.cpu_count() or 1)
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method)) as pool:
        return dict(zip([p.name for p in paths], pool.map(lost_tasks, paths), strict=True))


def breaks_task(path: Path) -> str:
    found = re.search(r'^BREAKS_TASK = "(\w+)"', path.read_text(encoding="utf-8"), re.M)
    assert found, f"{path.name} has no BREAKS_TASK"
    return found.group(1)


def test_the_corpus_is_there() -> None:
    assert len(CORRECT_FILES) >= 5
    assert len(WRONG_FILES) >= 20


@pytest.mark.parametrize("path", CORRECT_FILES, ids=[p.name for p in CORRECT_FILES])
def test_a_correct_implementation_gets_full_marks(
    path: Path, lost_by_file: dict[str, dict[str, str]]
) -> None:
    assert lost_by_file[path.name] == {}


@pytest.mark.parametrize("path", WRONG_FILES, ids=[p.name for p in WRONG_FILES])
def test_a_wrong_implementation_loses_the_points_of_its_task_only(
    path: Path, lost_by_file: dict[str, dict[str, str]]
) -> None:
    lost = lost_by_file[path.name]
    assert breaks_task(path) in lost, f"{path.name} was not caught"
    allowed = {breaks_task(path)} | SPILLOVER.get(path.name, set())
    assert set(lost) <= allowed, {task: lost[task] for task in set(lost) - allowed}
