"""The supervisor's split of tasks into parallel lanes: every task once, in a fixed order."""

from __future__ import annotations

import os

import pytest

from grader.runner import _lanes
from grader.tasks import TASKS


@pytest.mark.parametrize("count", range(1, len(TASKS) + 1))
def test_lanes_hold_every_task_once_in_the_original_order(count: int) -> None:
    tasks = TASKS[:count]
    lanes = _lanes(tasks)
    assert [task for lane in lanes for task in lane] == list(tasks)
    assert all(lanes)


def test_there_are_never_more_lanes_than_cores() -> None:
    assert len(_lanes(TASKS)) <= len(os.sched_getaffinity(0))


def test_the_split_is_the_same_on_every_call() -> None:
    assert _lanes(TASKS) == _lanes(TASKS)
