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

import pytest

from grader.engine.outcomes import Report
from tests.grader.conftest import CORRECT_FILES, grade_all
from tests.implementations.corpus import write_mutant
from tests.implementations.mutants import MUTANTS

#: The corpus graded twice, every failure shrunk both times: minutes of CPU time, and far
#: more of the wall clock on a busy machine (beside two busy loops and other tests, grading
#: the mutants in full took more than 1,200 s), so each test gets an hour.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]


def _shown(report: Report) -> list[tuple[object, ...]]:
    return [
        (result.task_id, result.status, result.failure, result.output) for result in report.results
    ]


def test_every_correct_file_gets_the_same_report_by_digest_and_in_full(
    graded_correct: dict[str, Report],
) -> None:
    in_full = grade_all([(path, ()) for path in CORRECT_FILES], full=True)
    differing = [
        path.stem
        for path, report in zip(CORRECT_FILES, in_full, strict=True)
        if _shown(report) != _shown(graded_correct[path.stem])
    ]
    assert differing == []


def test_every_mutant_gets_the_same_report_by_digest_and_in_full(
    graded_mutants: Callable[[str], Report],
    mutant_jobs: list[tuple[Path, tuple[str, ...]]],
) -> None:
    mutants_in_full = grade_all(mutant_jobs, full=True)
    differing = [
        mutant.name
        for mutant, report in zip(MUTANTS, mutants_in_full, strict=True)
        if _shown(report) != _shown(graded_mutants(mutant.name))
    ]
    assert differing == []


#: The tasks that judge what a read gives against the learner's own appends, as they came: a
#: digest covers a whole answer, so a bug in what an append stores makes their digests differ
#: from a correct implementation's, and their judges in full find nothing wrong.
READING = ("read_and_resume", "list_sessions", "replay")


def test_a_bug_in_what_an_append_stores_is_judged_alike_both_ways_by_the_tasks_about_reading(
    tmp_path: Path,
) -> None:
    """Once, a content whose line breaks the append changed failed "listing sessions" by
    digest, as code that answers differently each time, and passed it in full."""
    storing = [mutant for mutant in MUTANTS if mutant.task == "append_and_ids"]
    jobs = [(write_mutant(mutant, tmp_path), READING) for mutant in storing]
    by_digest, in_full = grade_all(jobs), grade_all(jobs, full=True)
    differing = [
        mutant.name
        for mutant, digest, full in zip(storing, by_digest, in_full, strict=True)
        if _shown(digest) != _shown(full)
    ]
    assert differing == []
