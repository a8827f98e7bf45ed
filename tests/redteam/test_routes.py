"""Each route to the kernel, tried by buggy code, earns no more than the bug alone.

The base keeps the caller's payload dict as the event's payload: a bug the aliasing property
of task 1 catches. Each route, if it worked, would switch the guard off and make that probe
find nothing; so each attack is graded on that task beside the bug alone. The routes do not
depend on the sandbox (the kernel and its guard are the same in every isolation), so these
run everywhere, without one; the class batch runs them again under bubblewrap.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.engine.outcomes import Report, Status, Verdict
from grader.run import grade
from grader.settings import Settings
from grader.tasks import TASKS, select
from tests.redteam.hostile import BASE, REACHED, ROUTES, mutant, with_every_route, with_route

TASK = "append_and_ids"  # where the base's bug shows
SETTINGS = Settings(isolation="none", example_seconds=10, task_seconds=120, submission_seconds=600)


def graded(source: str, folder: Path) -> tuple[Report, str]:
    """The report on :data:`TASK`, and what the submission wrote to its log."""
    target, log = folder / "submission.py", folder / "submission.log"
    target.write_text(source)
    return grade(str(target), select([TASK]), SETTINGS, log=log), log.read_text()


@pytest.fixture(scope="module")
def the_bug_alone(tmp_path_factory: pytest.TempPathFactory) -> Report:
    report, _ = graded(mutant(BASE), tmp_path_factory.mktemp("control"))
    assert report.verdict is Verdict.GRADED
    assert report.score < report.max_score, "the control must show the bug"
    return report


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_a_route_to_the_kernel_reaches_nothing_and_earns_no_more_than_the_bug_alone(
    route: str, the_bug_alone: Report, tmp_path: Path
) -> None:
    report, log = graded(with_route(mutant(BASE), ROUTES[route]), tmp_path)
    assert REACHED not in log, log[-3000:]
    assert report.score <= the_bug_alone.score


def test_every_route_at_once_is_reported_as_tampering(tmp_path: Path) -> None:
    report, log = graded(with_every_route(mutant(BASE)), tmp_path)
    assert REACHED not in log, log[-3000:]
    assert (report.verdict, report.score) == (Verdict.TAMPERED, 0)


#: Appended to a submission: every call of create_event_log says so on stdout.
CALLS_SAY_SO = """

_create_event_log = create_event_log


def create_event_log():
    print("create_event_log was called")
    return _create_event_log()
"""


def test_once_the_guard_caught_it_the_tasks_left_are_not_graded(tmp_path: Path) -> None:
    """Every task of a submission the guard caught scores nothing, so its code is not run
    for the tasks after the one that caught it (shrinking its failures there, on fresh
    kernels, once cost a class of 100 tens of seconds for nothing)."""
    target = tmp_path / "submission.py"
    target.write_text(with_every_route(mutant(BASE)) + CALLS_SAY_SO)
    report = grade(str(target), TASKS, SETTINGS, log=tmp_path / "submission.log")
    assert (report.verdict, report.score) == (Verdict.TAMPERED, 0)
    assert [result.status for result in report.results] == [Status.TAMPERED] * len(TASKS)
    ran = ["create_event_log was called" in result.output for result in report.results]
    assert ran == [True] + [False] * (len(TASKS) - 1)
