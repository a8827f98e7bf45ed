"""Every implementation in the corpus is graded as its row says.

Correct files, in unusual styles, get full marks. Each mutant loses the points of the task
it names, and of no other task unless its row says why (``spills``). Its report names a
broken property in one sentence and shows the calls that break it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader import messages
from grader.report import Report
from tests.grader.conftest import CORRECT_FILES
from tests.implementations.corpus import Mutant
from tests.implementations.mutants import MUTANTS


def lost_tasks(report: Report) -> set[str]:
    return {result.task_id for result in report.results if result.status != messages.STATUS_PASSED}


@pytest.mark.parametrize("path", CORRECT_FILES, ids=[p.stem for p in CORRECT_FILES])
def test_a_correct_implementation_gets_full_marks(
    path: Path, graded_corpus: dict[str, Report]
) -> None:
    report = graded_corpus[path.stem]
    assert (report.load_error, report.score, report.max_score) == (None, 100, 100), report.text()


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_a_mutant_loses_the_points_of_its_task_only(
    mutant: Mutant, graded_corpus: dict[str, Report]
) -> None:
    report = graded_corpus[mutant.name]
    assert report.load_error is None, report.load_error
    assert mutant.task in lost_tasks(report), f"{mutant.name} was not caught:\n{report.text()}"
    assert lost_tasks(report) <= {mutant.task} | mutant.spills, report.text()


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_a_mutant_is_told_which_property_it_broke_and_the_calls_that_show_it(
    mutant: Mutant, graded_corpus: dict[str, Report]
) -> None:
    (result,) = [r for r in graded_corpus[mutant.name].results if r.task_id == mutant.task]
    assert result.status == messages.STATUS_FAILED
    assert result.failure is not None and result.failure.sentence
    assert result.failure.lines, "no calls to reproduce it"
    assert result.failure.lines[0].startswith(("log0 = create_event_log()", "from "))
