"""How the report reads: columns that line up in every language, mismatches laid out alike,
and a task that can be passed as soon as its own function is written."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from grader import messages
from grader.failures import Failure, PropertyFailure
from grader.grading import TaskResult
from grader.harness import Trial
from grader.i18n import using_language
from grader.report import display_width, task_lines
from tests.grader.conftest import CORPUS, run_grader

STUBBED = "    raise NotImplementedError\n"


def result(task_id: str, number: int, status: str) -> TaskResult:
    failure = None if status == messages.STATUS_PASSED else Failure("x", status=status)
    return TaskResult(task_id, number, messages.TASK_NAMES[task_id], 20, status, failure)


def test_the_chinese_report_aligns_points_and_status_by_display_width() -> None:
    with using_language("zh"):
        lines = [
            next(task_lines(result(task_id, number, status)))[0]
            for task_id, number, status in (
                ("append_and_ids", 1, messages.STATUS_PASSED),
                ("list_sessions", 3, messages.STATUS_FAILED),
            )
        ]
    # The points end at the same column on every line, counting CJK characters as two.
    ends = [display_width(line[: line.index("/20") + 3]) for line in lines]
    assert len(set(ends)) == 1, lines
    assert all(any(ord(char) > 0x2E80 for char in line) for line in lines)


def test_returned_and_expected_are_laid_out_the_same_way_when_either_is_long() -> None:
    trial = Trial.__new__(Trial)
    trial.lines = []
    short, long = ["1"], [f"item{index}" for index in range(30)]
    with pytest.raises(PropertyFailure) as found:
        trial.fail_mismatch("sentence", "call()", short, long)
    returned, expected = found.value.failure.outcome
    assert returned.count("\n") == 2 and expected.count("\n") == 31
    with pytest.raises(PropertyFailure) as found:
        trial.fail_mismatch("sentence", "call()", short, ["2"])
    assert [line.count("\n") for line in found.value.failure.outcome] == [0, 0]


def stubs(source: str, names: tuple[str, ...]) -> str:
    """``source`` with the functions ``names`` redefined as not implemented."""
    redefined = "".join(f"\n\ndef {name}(*args, **kwargs):\n{STUBBED}" for name in names)
    return source + redefined


def test_task_one_passes_as_soon_as_its_two_functions_are_written(
    write_target: Callable[[str, str], Path],
) -> None:
    source = (CORPUS / "correct" / "c07_tuple_log.py").read_text(encoding="utf-8")
    readers = ("get_events_for_session", "list_sessions", "replay_session")
    path = write_target("only_task_one.py", stubs(source, readers))
    finished = run_grader("--target", str(path), "--lang", "en")
    assert "1. Appending and event ids                            20/20  passed" in finished.stdout
    assert finished.stdout.count("0/20  not implemented yet") == 4


def test_a_later_task_says_which_earlier_task_its_missing_functions_belong_to(
    write_target: Callable[[str, str], Path],
) -> None:
    source = (CORPUS / "correct" / "c07_tuple_log.py").read_text(encoding="utf-8")
    path = write_target("no_append.py", stubs(source, ("append_event",)))
    finished = run_grader("--target", str(path), "--task", "3", "--lang", "en")
    assert "append_event not implemented yet" in finished.stdout
    assert "written in task 1, Appending and event ids, which comes first" in finished.stdout


def test_each_missing_function_is_sent_to_the_task_that_introduces_it(
    write_target: Callable[[str, str], Path],
) -> None:
    source = (CORPUS / "correct" / "c07_tuple_log.py").read_text(encoding="utf-8")
    missing = ("append_event", "get_events_for_session")
    path = write_target("two_missing.py", stubs(source, missing))
    finished = run_grader("--target", str(path), "--task", "5", "--lang", "en")
    assert "(append_event: written in task 1, Appending and event ids" in finished.stdout
    assert "(get_events_for_session: written in task 2, Reading a session" in finished.stdout
