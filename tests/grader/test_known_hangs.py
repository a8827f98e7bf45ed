"""A call that used up its time on a fresh kernel is met once, not in every task and every
shrinking step (:class:`grader.engine.learner.Learner` remembers it), and the grade is the one
the grader gives without remembering: the same statuses and the same smallest cases.

Why: a ``while True:`` in ``create_event_log`` cost its full limit in every task, twice (the
not-written probe, then the first example), and once more per shrinking step: 26 s of CPU on
the command line, and three minutes in a browser, where each limit is 15 s of wall-clock time.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from grader.engine import grading, learner
from grader.engine.learner import Clock, Learner
from grader.engine.outcomes import Report, Status
from grader.tasks import TASKS
from grader.transport.inprocess import InProcessTransport
from grader.transport.workspace import KIT_ROOT

SOLUTION = (KIT_ROOT / "solutions" / "event_log.py").read_text("utf-8")

#: One module with the five functions: the reference, then a redefinition that breaks it.
HANGS = {
    # Every task's first call never returns.
    "create_loops": "def create_event_log():\n    while True:\n        pass\n",
    # The third append of a log (its third event) never returns.
    "third_append_loops": (
        "_append = append_event\n\n"
        "def append_event(log, *args, **kwargs):\n"
        "    if len(log.events) == 2:\n"
        "        while True:\n"
        "            pass\n"
        "    return _append(log, *args, **kwargs)\n"
    ),
    # Loops only on the process's second log: what a fresh kernel does differs from what a
    # used one does, so no hang may be taken for another's.
    "second_log_loops": (
        "_create = create_event_log\n_made = []\n\n"
        "def create_event_log():\n"
        "    _made.append(1)\n"
        "    if len(_made) == 2:\n"
        "        while True:\n"
        "            pass\n"
        "    return _create()\n"
    ),
}


def _package(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    for module in ("sessions.py", "replay.py", "__init__.py"):
        text = (KIT_ROOT / "solutions" / module).read_text("utf-8")
        (folder / module).write_text(text.replace("solutions.", "."), "utf-8")
    (folder / "event_log.py").write_text(SOLUTION + "\n\n" + HANGS[name], "utf-8")
    return folder


class _Counting(InProcessTransport):
    """In-process kernels whose every request that reached one is counted."""

    asked: list[dict[str, Any]]

    def kernel(self) -> Any:
        kernel = super().kernel()
        request = kernel.request
        asked = self.asked

        def counted(sent: dict[str, Any], deadline: float) -> Any:
            asked.append(sent)
            return request(sent, deadline)

        kernel.request = counted  # type: ignore[method-assign]
        return kernel


def _grade(target: Path, remember: bool) -> tuple[Report, int]:
    """The grade, with the collector off: each call here has 0.05 s of CPU, and in a test
    worker that already holds the corpus's grades, one full collection of its heap, run
    inside a learner's call, took longer than that. That call then timed out in one of the
    two grades and not the other (three runs out of three, in that order of files)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _grade_with_gc_off(target, remember)
    finally:
        if was_enabled:
            gc.enable()


def _grade_with_gc_off(target: Path, remember: bool) -> tuple[Report, int]:
    with pytest.MonkeyPatch.context() as patch:
        if not remember:
            patch.setattr(learner, "_hang", lambda request, stopped: None)
        transport = _Counting(str(target))
        transport.asked = []
        report = grading.grade(
            str(target), TASKS, lambda: Learner(transport, Clock(example=0.05)), "none"
        )
    return report, len(transport.asked)


Graded = Callable[[str, bool], tuple[Report, int]]


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Graded:
    """``graded(name, remember)``: the hang's package graded on every task, its hangs
    remembered or not (the report, and how many requests reached a kernel), once per module:
    both tests of ``create_loops`` read the same two grades, seconds of CPU each."""
    folder = tmp_path_factory.mktemp("hangs")
    grades: dict[tuple[str, bool], tuple[Report, int]] = {}

    def grade(name: str, remember: bool) -> tuple[Report, int]:
        if (name, remember) not in grades:
            target = folder / name
            if not target.exists():
                _package(folder, name)
            grades[name, remember] = _grade(target, remember)
        return grades[name, remember]

    return grade


def _seen(report: Report) -> list[tuple[Any, ...]]:
    return [
        (r.task_id, r.status, r.failure and r.failure.promise, r.failure and r.failure.lines)
        for r in report.results
    ]


@pytest.mark.parametrize("name", sorted(HANGS))
def test_remembering_a_hang_gives_the_grade_the_grader_gives_without(
    graded: Graded, name: str
) -> None:
    remembered, _ = graded(name, True)
    forgotten, _ = graded(name, False)

    assert _seen(remembered) == _seen(forgotten)
    assert Status.TIMED_OUT in {result.status for result in remembered.results}


def test_a_first_call_that_never_returns_reaches_a_kernel_a_few_times_in_all(
    graded: Graded,
) -> None:
    report, asked = graded("create_loops", True)
    _, asked_without = graded("create_loops", False)

    assert [result.status for result in report.results] == [Status.TIMED_OUT] * len(TASKS)
    # The probe's, the first example's and the first shrinking step's (each mode and limit
    # once), and the calls before them: the other tasks meet the hang without a kernel.
    assert asked < asked_without / 2
