"""The shrinker on its own: valid candidates, every kind of reduction, the same answer every
time, and a failure that needs a size shrunk to that size (no learner code runs here: a
failure is a predicate on the example)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from grader.engine.checks import Branching
from grader.engine.oracle import ModelLog
from grader.engine.outcomes import Failure, Status
from grader.engine.programs import Append, Block, Program, features_of
from grader.engine.reduce_data import depth
from grader.engine.shrink import Shrunk, StopShrinking, reductions, shrink
from grader.engine.sizes import key, measure
from grader.engine.smallest import same_way
from grader.tasks import TASKS
from grader.tasks.append_and_ids.properties import LONG, ODD_PAYLOADS, SIBLINGS, TAKING_TURNS
from grader.values import Text

FAILED = Failure("some.promise")


def boundary_examples() -> list[tuple[str, Any]]:
    """Every example a property always runs, each once (several properties run the same
    sweep), named by the first property that runs it."""
    found: dict[Any, tuple[str, Any]] = {}
    for task in TASKS:
        for prop in task.properties:
            for number, value in enumerate(prop.explicit):
                found.setdefault(key(value), (f"{task.id}/{prop.name}/{number}", value))
    return list(found.values())


EXPLICIT = boundary_examples()
#: Enough of each example's reductions to cover every kind (a big one has thousands).
CHECKED = 300


def failing_when(predicate: Callable[[Any], bool]) -> Callable[[Any], Failure | None]:
    return lambda value: FAILED if predicate(value) else None


def programs_in(value: Any) -> Iterator[tuple[Program, list[tuple[int, Append]]]]:
    """The programs an example holds, each with the branches off it."""
    if isinstance(value, Program):
        yield value, []
    elif isinstance(value, Branching):
        yield value.program, list(value.branches)
    elif isinstance(value, tuple):
        for item in value:
            yield from programs_in(item)


def invalid_appends(program: Program, branches: list[tuple[int, Append]]) -> list[str]:
    """What the oracle refuses in a program and its branches, and any stale trait name."""
    wrong, model, logs = [], ModelLog(), [ModelLog()]
    for segment in program.segments:
        appends = segment.appends() if isinstance(segment, Block) else [segment]
        for append in appends:
            refusal = model.refusal(append.session_id, append.event_type, append.payload)
            if refusal is not None:
                wrong.append(f"{append}: {refusal}")
            if isinstance(segment, Append) and segment.features != features_of(model, segment):
                wrong.append(f"{segment}: traits {segment.features}")
            model, _ = model.append(append.session_id, append.event_type, append.payload)
        logs.append(model)
    for base, append in branches:
        if logs[base].refusal(append.session_id, append.event_type, append.payload) is not None:
            wrong.append(f"branch {base}: {append}")
    return wrong


def appends_of(value: Any) -> int:
    return measure(value)[0]


# --- every candidate is a valid example, and smaller ------------------------------------------
@pytest.mark.slow  # every reduction of every boundary example built and measured: over a minute
@pytest.mark.parametrize(("name", "value"), EXPLICIT, ids=[name for name, _ in EXPLICIT])
def test_every_reduction_of_a_boundary_example_is_valid_and_smaller(name: str, value: Any) -> None:
    size, checked = measure(value), 0
    for candidate in reductions(value):
        assert measure(candidate) < size, name
        for program, branches in programs_in(candidate):
            assert invalid_appends(program, branches) == [], name
        checked += 1
        if checked == CHECKED:
            break
    assert checked > 0 or appends_of(value) == 0  # only an empty program is the smallest


def test_removing_a_call_removes_its_result_too() -> None:
    program = Program(
        ("a",),
        (
            Append("a", "tool_call", {"call_id": "c", "name": "search", "arguments": "{}"}),
            Append("a", "user_message", {"content": "hi"}),
            Append("a", "tool_result", {"call_id": "c", "content": "ok"}),
        ),
    )
    without_call = [p for p in reductions(program) if p.segments[:1] == program.segments[1:2]]
    assert without_call and all(
        all(a.event_type != "tool_result" for a in p.appends()) for p in without_call
    )


def test_a_shorter_call_id_renames_its_result_with_it() -> None:
    program = Program(
        ("a",),
        (
            Append("a", "tool_call", {"call_id": "call_1", "name": "n", "arguments": "{}"}),
            Append("a", "tool_result", {"call_id": "call_1", "content": ""}),
        ),
    )
    renamed = [
        p
        for p in reductions(program)
        if len(p.segments) == 2 and p.segments[0].payload["call_id"] == "cal"
    ]
    assert [p.segments[1].payload["call_id"] for p in renamed] == ["cal"]


def test_a_reduction_never_makes_an_append_more_unusual() -> None:
    call = Append("a", "tool_call", {"call_id": "c", "name": "n", "arguments": "{}"})
    found = [p.segments[0] for p in reductions(Program(("a",), (call,))) if p.segments]
    shorter = [append.payload["arguments"] for append in found]
    assert "{" not in shorter and "}" not in shorter  # "{}" halved is not JSON: a new trait
    message = Append("a", "user_message", {"content": "h"})
    found = [p.segments[0] for p in reductions(Program(("a",), (message,))) if p.segments]
    contents = [append.payload["content"] for append in found]
    assert "" not in contents  # empty content is a trait of its own


def test_a_branch_follows_its_log_when_the_program_shrinks() -> None:
    for candidate in reductions(SIBLINGS):
        assert invalid_appends(candidate.program, list(candidate.branches)) == []
    dropped_first = [
        c for c in reductions(SIBLINGS) if c.program.segments == SIBLINGS.program.segments[1:]
    ]
    assert dropped_first and all(
        [base for base, _ in c.branches] == [0, 0, 0] for c in dropped_first
    )


# --- every kind of reduction is there -----------------------------------------------------------
def test_each_append_and_each_loop_can_go() -> None:
    sizes = {appends_of(candidate) for candidate in reductions(TAKING_TURNS)}
    whole = appends_of(TAKING_TURNS)
    for segment in TAKING_TURNS.segments:
        alone = appends_of(Program(("a",), (segment,)))
        assert whole - alone in sizes


def test_a_loop_is_halved_and_cut_down_to_one_round_less() -> None:
    counts = {
        c.segments[0].count
        for c in reductions(Program(("a",), (Block("filler", 1005, ("a",), "loop0"),)))
        if c.segments and isinstance(c.segments[0], Block)
    }
    assert {502, 1004} <= counts


def test_texts_ids_and_nesting_are_halved() -> None:
    payload = {"content": "abcdefgh", "meta": [[[["leaf"]]]]}
    program = Program(("session",), (Append("session", "user_message", payload),))
    found = list(reductions(program))
    contents = {c.segments[0].payload["content"] for c in found if c.segments}
    sessions = {str(c.segments[0].session_id) for c in found if c.segments}
    depths = {depth(c.segments[0].payload.get("meta")) for c in found if c.segments}
    assert {"abcd", "efgh"} <= contents and {"ses", "sion"} <= sessions and 2 in depths


def test_plainer_values_are_offered() -> None:
    append = Append(Text("a"), "user_message", {"content": Text("x"), "n": 2**70}, "proxy")
    found = [c.segments[0] for c in reductions(Program(("a",), (append,))) if c.segments]
    assert any(a.wrapper == "dict" for a in found)
    assert any(type(a.session_id) is str for a in found)
    assert any(type(a.payload["content"]) is str for a in found)
    assert any(a.payload.get("n") == 2**34 for a in found)  # 71 bits halved


def test_a_table_loses_rows_and_a_mask_loses_flags() -> None:
    mask_values = {mask for _, mask in reductions((Program(("a",), ()), 0b1011))}
    assert {0, 0b0011, 0b1001, 0b1010} <= mask_values


# --- the search -----------------------------------------------------------------------------------
def test_a_failure_that_needs_n_appends_shrinks_to_exactly_n() -> None:
    shrunk = shrink(LONG, failing_when(lambda p: appends_of(p) >= 257), failure=FAILED)
    assert (appends_of(shrunk.value), shrunk.minimal) == (257, True)


def test_a_failure_that_needs_a_long_text_shrinks_to_just_past_the_limit() -> None:
    def long_content(program: Program) -> bool:
        return any(len(str(a.payload.get("content", ""))) > 4096 for a in program.appends())

    shrunk = shrink(ODD_PAYLOADS, failing_when(long_content), failure=FAILED)
    (append,) = shrunk.value.appends()
    assert (len(append.payload["content"]), set(append.payload), append.wrapper) == (
        4097,
        {"content"},
        "dict",
    )


def test_a_failure_that_needs_one_unusual_trait_keeps_that_trait_alone() -> None:
    def text_session(program: Program) -> bool:
        return any(type(a.session_id) is not str for a in program.appends())

    shrunk = shrink(ODD_PAYLOADS, failing_when(text_session), failure=FAILED)
    (append,) = shrunk.value.appends()
    assert append.wrapper == "dict" and append.features[0] == "text_subclass"


def test_shrinking_is_deterministic() -> None:
    def fails(program: Program) -> Failure | None:
        kinds = [a.event_type for a in program.appends()]
        return FAILED if kinds.count("tool_call") >= 2 and "tool_result" in kinds else None

    first = shrink(TAKING_TURNS, fails, failure=FAILED)
    again = shrink(replace(TAKING_TURNS), fails, failure=FAILED)
    assert (key(first.value), first.attempts) == (key(again.value), again.attempts)


def test_a_shrunk_example_is_one_minimal() -> None:
    def fails(program: Program) -> Failure | None:
        return FAILED if len({str(a.session_id) for a in program.appends()}) >= 2 else None

    shrunk = shrink(TAKING_TURNS, fails, failure=FAILED)
    assert shrunk.minimal and all(fails(c) is None for c in reductions(shrunk.value))


def test_the_budget_is_a_count_of_attempts() -> None:
    calls: list[Any] = []

    def fails(value: Any) -> Failure | None:
        calls.append(value)
        return FAILED

    shrunk = shrink(LONG, fails, budget=3, failure=FAILED)
    assert (len(calls), shrunk.attempts, shrunk.minimal) == (3, 3, False)


def test_a_fails_function_can_stop_the_search_and_keep_the_smallest_so_far() -> None:
    seen: list[Any] = []

    def fails(value: Any) -> Failure | None:
        if seen:
            raise StopShrinking()
        seen.append(value)
        return FAILED

    shrunk = shrink(LONG, fails, failure=FAILED)
    assert (shrunk.value, shrunk.minimal) == (seen[0], False)


def test_only_a_failing_example_can_be_shrunk() -> None:
    with pytest.raises(ValueError, match="only a failing example"):
        shrink(LONG, lambda value: None)


def test_a_short_loop_is_unrolled_only_when_that_takes_fewer_calls() -> None:
    spread = Program(("s",), (Block("spread", 11, ("s",), "loop0"),))

    def out_of_order(program: Program) -> Failure | None:
        sessions = list(dict.fromkeys(str(a.session_id) for a in program.appends()))
        return FAILED if sessions != sorted(sessions) else None

    unrolled = shrink(spread, out_of_order, failure=FAILED)
    assert appends_of(unrolled.value) == 2
    kept: Shrunk = shrink(spread, failing_when(lambda p: appends_of(p) >= 11), failure=FAILED)
    assert [type(s) for s in kept.value.segments] == [Block]


# --- which failures count as the same -------------------------------------------------------
def test_a_smaller_failure_counts_only_with_the_same_status_and_promise() -> None:
    first = Failure("append.event_ids")
    assert same_way(first, Failure("append.event_ids"))
    assert not same_way(first, Failure("append.branches"))
    assert not same_way(first, Failure("append.event_ids", Status.TIMED_OUT))


def test_a_refused_append_may_come_to_name_another_of_its_traits() -> None:
    assert same_way(Failure("accept.mapping_payload"), Failure("accept.text_subclass"))
