"""A grade by digest is a grade in full: the same verdicts, reports and smallest cases.

By digest, each example's answers are compared with a correct implementation's by short
digests, and only an example that differs is asked again in full and judged; in full, every
answer is judged as it comes. The corpus is graded both ways here, every correct file on
every task and every mutant on the task it must lose, and the reports must be identical
(what is shown, line for line, not only the points).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from grader.engine.outcomes import Report
from tests.grader.conftest import CORRECT_FILES, grade_all
from tests.implementations.mutants import MUTANTS


def _shown(report: Report) -> list[tuple[object, ...]]:
    return [
        (result.task_id, result.status, result.failure, result.output) for result in report.results
    ]


def test_the_corpus_gets_the_same_reports_by_digest_and_in_full(
    graded_correct: dict[str, Report],
    graded_mutants: Callable[[str], Report],
    mutant_jobs: list[tuple[Path, tuple[str, ...]]],
) -> None:
    in_full = grade_all([(path, ()) for path in CORRECT_FILES], full=True)
    for path, report in zip(CORRECT_FILES, in_full, strict=True):
        assert _shown(report) == _shown(graded_correct[path.stem]), path.stem
    mutants_in_full = grade_all(mutant_jobs, full=True)
    differing = [
        mutant.name
        for mutant, report in zip(MUTANTS, mutants_in_full, strict=True)
        if _shown(report) != _shown(graded_mutants(mutant.name))
    ]
    assert differing == []
