"""The case a report shows is the smallest that shows the bug: for every mutant of the corpus,
no one-step reduction of it (a call removed; a loop, a text, an id or a nesting halved; a
payload key dropped) still fails the same way; a bug that needs no size is shown in a dozen
calls at most; and the case shown fails again when it is run again.

Every mutant is graded once (without a sandbox, one per core: the corpus's grade, which
other tests read too), then its case and each reduction of it are run through the same path
as a grade (see :mod:`tests.grader.smallest`); a few are graded again, each in a fresh
process, to see the same case.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from grader.engine.outcomes import Report, Said
from grader.run import grade_in_process
from grader.tasks import TASKS_BY_ID
from tests.grader.smallest import BY_NAME, Shown, calls_shown, examine_all
from tests.implementations.corpus import Mutant, write_mutant
from tests.implementations.mutants import MUTANTS

#: Grading the corpus and running every reduction, each on a fresh kernel, takes minutes of
#: CPU time, and far more of the wall clock on a busy machine.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]
NAMES = [mutant.name for mutant in MUTANTS]
#: The most calls a case may take to show a bug that needs no size.
DOZEN = 12
#: Mutants whose case has a reduction that fails, but breaking another promise: the judge
#: names the promise by the step that fails first, and in a smaller example another step
#: does. The case shown keeps the promise its first failure named (see ``same_way``).
OTHER_PROMISE = {
    "ids_start_at_zero": "without an append of its own, the first wrong id is a probe's, "
    "which the property judges as a branch's (append.branches)",
    "ids_per_session": "as single appends, the first wrong id is the probe between them, "
    "judged as a branch's",
    "ids_wrap_at_256": "with 255 appends in the loop, the 256th event is the probe after it, "
    "judged as a branch's",
    "ids_wrap_at_1024": "with 1,023 appends before it, the 1,024th event is the probe after "
    "them, judged as a branch's",
    "reads_sorted_by_text_id": "with 11 events, a read after an id fails first (read.after)",
    "a_refused_tool_event_lets_its_retry_through": "with no append at all, the probe that "
    "tries a result without its call twice is let through the second time "
    "(refuse.result_without_call)",
    "tool_call_message_with_empty_content": "with a single call, the wrong content is no "
    "run's: the replay breaks replay.mapping",
}
#: Mutants whose shown case fails only after other examples ran (their code keeps state).
KEEPS_STATE = ("replay_cached_by_length",)
#: Mutants graded twice, to see the same case both times.
TWICE = ("sessions_by_last_event", "replay_leaks_other_sessions", "nested_extras_shallow")


@pytest.fixture(scope="module")
def shown(
    graded_mutants: Callable[[str], Report], mutant_jobs: list[tuple[Path, tuple[str, ...]]]
) -> dict[str, Shown]:
    """Every mutant's case, from the corpus's one grade (shared with the other tests)."""
    paths = [path for path, _ in mutant_jobs]
    graded = {name: (path, graded_mutants(name)) for name, path in zip(NAMES, paths, strict=True)}
    return {case.name: case for case in examine_all(NAMES, graded)}


@pytest.mark.parametrize("name", NAMES)
def test_no_reduction_of_the_case_shown_fails_the_same_way(
    name: str, shown: dict[str, Shown]
) -> None:
    case = shown[name]
    assert (case.minimal, case.same_way) == (True, ()), case


@pytest.mark.parametrize("name", NAMES)
def test_a_reduction_of_the_case_shown_passes_unless_another_promise_is_known_to_break(
    name: str, shown: dict[str, Shown]
) -> None:
    assert bool(shown[name].other_way) == (name in OTHER_PROMISE), shown[name].other_way


@pytest.mark.parametrize("name", [name for name in NAMES if not BY_NAME[name].needs_size])
def test_a_bug_that_needs_no_size_is_shown_in_a_dozen_calls_at_most(
    name: str, shown: dict[str, Shown]
) -> None:
    assert shown[name].calls <= DOZEN, shown[name]


@pytest.mark.parametrize("name", NAMES)
def test_the_case_shown_fails_again_on_its_own_or_the_report_says_it_does_not(
    name: str, shown: dict[str, Shown]
) -> None:
    # A mutant that caches replays across calls fails only after other examples filled the
    # cache: its report must say so, since the case pasted on its own passes.
    assert shown[name].again != shown[name].flaky, shown[name]
    assert shown[name].flaky == (name in KEEPS_STATE)


def test_the_same_code_gets_the_same_case_every_time(shown: dict[str, Shown]) -> None:
    again = {case.name: case for case in examine_all(list(TWICE))}
    for name in TWICE:
        assert (again[name].case, again[name].attempts) == (shown[name].case, shown[name].attempts)


def test_a_refused_subclass_of_str_is_named_so_not_after_the_mapping_passed_beside_it(
    tmp_path: Path,
) -> None:
    # Issue 27: a boundary program holds an append with a Text session id and a read-only
    # mapping payload; refused, it was blamed on the mapping (its first unusual trait).
    edit = ("    if not isinstance(session_id, str) or not session_id:\n",
            "    if type(session_id) is not str or not session_id:\n")  # fmt: skip
    mutant = Mutant("refuses_str_subclasses", "c07_tuple_log", "append_and_ids", "", (edit,))
    path = write_mutant(mutant, tmp_path)
    report = grade_in_process(str(path), (TASKS_BY_ID["append_and_ids"],))
    failure = report.results[0].failure
    assert failure is not None and failure.promise == "accept.text_subclass", failure


def test_the_calls_of_a_transcript_count_each_round_of_a_loop() -> None:
    lines: tuple[str | Said, ...] = (
        "log0 = create_event_log()",
        "log2 = log0",
        "for i in range(40):",
        '    log2, _ = append_event(log2, "a", "tool_call", {})',
        '    log2, _ = append_event(log2, "a", "tool_result", {})',
        "for i in reversed(range(3)):",
        '    log2, _ = append_event(log2, "a", "tool_result", {})',
        Said("note.flaky"),
        '_ = replay_session(log2, "a")',
    )
    assert calls_shown(lines) == (1 + 80 + 3 + 1, (40, 3))
