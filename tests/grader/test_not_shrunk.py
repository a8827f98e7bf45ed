"""A grade that does not shrink (``shrink=False``, for tests that read only statuses and
scores, such as the red sets') gives the statuses and the score a grade that shrinks gives,
and shows no smallest case: it never claims one it did not look for."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.i18n import using_language
from grader.run import grade_in_process
from grader.tasks import select
from tests.implementations.corpus import Mutant, write_mutant
from tests.implementations.mutants import MUTANTS

#: One mutant of each task: a few seconds of CPU in all.
ONE_PER_TASK = list({mutant.task: mutant for mutant in reversed(MUTANTS)}.values())


@pytest.mark.parametrize("mutant", ONE_PER_TASK, ids=lambda mutant: mutant.name)
def test_not_shrinking_keeps_the_verdict_and_shows_no_smallest_case(
    mutant: Mutant, tmp_path: Path
) -> None:
    path = str(write_mutant(mutant, tmp_path))
    tasks = select([mutant.task])
    with using_language("en"):
        shrunk = grade_in_process(path, tasks)
        as_found = grade_in_process(path, tasks, shrink=False)
    assert [r.status for r in as_found.results] == [r.status for r in shrunk.results]
    assert as_found.score == shrunk.score < shrunk.max_score
    failure, smallest = as_found.results[0].failure, shrunk.results[0].failure
    assert failure is not None and smallest is not None
    assert smallest.example is not None and smallest.example.minimal
    assert failure.example is None
