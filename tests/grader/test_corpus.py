"""The corpus graded: every correct file in an unusual style gets full marks, and every
mutant loses the task its bug belongs to."""

from __future__ import annotations

import pytest

from grader.engine.outcomes import Status
from tests.grader.conftest import CORRECT_FILES, DEAR_CORRECT_FILES, graded_correct_file
from tests.implementations.mutants import MUTANTS
from tests.tiers import SHARED_WORK_SECONDS


@pytest.mark.parametrize(
    "stem",
    [
        pytest.param(path.stem, marks=pytest.mark.slow)
        if path.stem in DEAR_CORRECT_FILES
        else path.stem
        for path in CORRECT_FILES
    ],
)
@pytest.mark.timeout(SHARED_WORK_SECONDS)  # the first to ask grades the ten others too
def test_a_correct_file_gets_full_marks(stem: str) -> None:
    report = graded_correct_file(stem)
    failing = {r.task_id: r.failure.promise for r in report.results if r.failure is not None}
    assert (report.load_problem, report.score, failing) == (None, 100, {})


@pytest.mark.parametrize("name", [mutant.name for mutant in MUTANTS])
def test_a_mutant_loses_its_task(name: str, graded_mutants) -> None:  # type: ignore[no-untyped-def]
    mutant = next(m for m in MUTANTS if m.name == name)
    report = graded_mutants(name)
    assert report.load_problem is None
    (result,) = report.results
    assert result.task_id == mutant.task
    assert result.status is Status.FAILED, (result.status, result.failure)
