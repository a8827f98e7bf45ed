"""The case a property shows is the code's alone, whatever ran before it in its kernel.

Here the "learner's code" is a fake kernel with state of its own (what the examples run in it
so far left behind), and the examples are texts: a text fails when it is too long, and code
that keeps state fails shorter ones too once something ran before them. The shrinker itself
is tested in ``test_shrink``; this is how a grade drives it (:func:`smallest_failure`).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from grader.engine.outcomes import Failure, Said, Status
from grader.engine.smallest import smallest_failure

LONG = "abcdefghijklmnop"
#: The smallest the shrinker makes of it that is still 3 characters long or more (each half
#: of it, "ab" and "cd", is shorter).
SMALLEST = "abcd"


@dataclass
class Kernel:
    """A kernel of fake learner code: a text of ``limit`` characters or more fails; with
    ``polluting``, one character is enough once an example ran before (a shared list);
    with ``only_after``, nothing fails on a fresh kernel (a cache of an earlier answer)."""

    limit: int = 3
    polluting: bool = False
    only_after: bool = False
    ran: int = 0
    fresh_kernels: int = 0

    def run(self, text: str) -> Failure | None:
        before, self.ran = self.ran, self.ran + 1
        if self.only_after:
            cached = Failure("p.cached", outcome=(Said("x", {"before": before}),))
            return cached if before and len(text) >= self.limit else None
        if self.polluting and before and text:
            return Failure("p.shared", outcome=(Said("x", {"before": before}),))
        return Failure("p.long") if len(text) >= self.limit else None

    def fresh(self) -> None:
        self.ran, self.fresh_kernels = 0, self.fresh_kernels + 1


def test_each_candidate_runs_on_a_fresh_kernel_so_a_shared_list_cannot_shrink_the_case() -> None:
    kernel = Kernel(polluting=True)
    kernel.ran = 40  # the examples before the failing one, in the same kernel
    found = smallest_failure("p", LONG, Failure("p.shared"), kernel.run, kernel.fresh, True)
    assert found.example is not None and found.example.value == SMALLEST
    assert found.promise == "p.long" and Said("note.flaky") not in found.notes
    assert kernel.fresh_kernels == found.example.attempts + 1  # the first, then each candidate


def test_the_promise_shown_is_the_one_the_case_breaks_on_a_fresh_kernel() -> None:
    # Judged after other examples, the text broke "p.shared"; alone it breaks "p.long".
    kernel = Kernel(polluting=True)
    kernel.ran = 3
    found = smallest_failure("p", LONG, Failure("p.shared"), kernel.run, kernel.fresh, True)
    assert found.promise == "p.long"


@pytest.mark.parametrize("start", [LONG, SMALLEST])
def test_a_case_that_fails_only_after_another_is_shrunk_after_itself_and_noted(
    start: str,
) -> None:
    shown = []
    for ran_before in (1, 30):  # by digest and in full, other examples ran before it
        kernel = Kernel(only_after=True, ran=ran_before)
        first = kernel.run(start)
        assert first is not None
        found = smallest_failure("p", start, first, kernel.run, kernel.fresh, True)
        assert found.promise == "p.cached" and Said("note.flaky") in found.notes
        assert found.example is not None
        shown.append((found, found.example.value, found.example.attempts))
    assert shown[0] == shown[1] and shown[0][1] == SMALLEST


def test_where_kernels_are_dear_the_candidates_share_one_and_the_case_is_run_alone() -> None:
    kernel = Kernel()
    kernel.ran = 12
    found = smallest_failure("p", LONG, Failure("p.long"), kernel.run, kernel.fresh, False)
    assert found.example is not None and found.example.value == SMALLEST
    assert kernel.fresh_kernels == 2  # one to start shrinking on, one to run the case alone
    assert Said("note.flaky") not in found.notes


def test_a_hang_is_shrunk_without_fresh_kernels() -> None:
    def hangs(text: str) -> Failure | None:
        return Failure("cause.timed_out", Status.TIMED_OUT) if len(text) >= 2 else None

    kernel = Kernel()
    first = Failure("cause.timed_out", Status.TIMED_OUT)
    found = smallest_failure("p", LONG, first, hangs, kernel.fresh, True)
    assert found.example is not None and found.example.value == "ab"
    assert kernel.fresh_kernels == 0
