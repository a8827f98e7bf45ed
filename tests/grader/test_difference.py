"""Where a wrong answer first differs from the expected one, and how a loop reads in one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from grader.engine import transcript
from grader.engine.answers import EventView
from grader.engine.difference import find, first_change, first_difference
from grader.engine.outcomes import Failure, Said, Status, TaskResult
from grader.engine.programs import Block
from grader.frontends.report import said, task_lines
from grader.frontends.site import page
from grader.i18n import using_language
from grader.run import grade_in_process
from grader.tasks import select
from tests.grader.conftest import run_grader
from tests.implementations.corpus import write_mutant
from tests.implementations.mutants import MUTANTS


def event(event_id: int, content: Any, session: str = "a") -> EventView:
    return EventView(event_id, session, "user_message", {"content": content})


def call(arguments: str) -> dict[str, Any]:
    function = {"name": "search", "arguments": arguments}
    return {"role": "assistant", "content": None, "tool_calls": [{"id": "c", "function": function}]}


@pytest.mark.parametrize(
    ("got", "expected", "path", "sides"),
    [
        (
            [event(1, "x"), event(2, "hello world")],
            [event(1, "x"), event(2, "hello there")],
            '[1].payload["content"][6:]',
            ('"world"', '"there"'),
        ),
        (
            [{"role": "user", "content": "q"}, call("{}")],
            [{"role": "user", "content": "q"}, call('{"a": 1}')],
            '[1]["tool_calls"][0]["function"]["arguments"][1:]',
            ('"}"', '"\\"a\\": 1}"'),
        ),
        ([event(1, "x")], [event(1, "x", "A")], "[0].session_id", ('"a"', '"A"')),
        ([1, True], [1, 1], "[1]", ("True", "1")),
        ({"a": 1.0}, {"a": 1}, '["a"]', ("1.0", "1")),
    ],
)
def test_the_first_difference_is_the_path_and_both_sides_there(
    got: Any, expected: Any, path: str, sides: tuple[str, str]
) -> None:
    assert first_difference(got, expected) == Said(
        "outcome.differs_at", {"path": path, "first": sides[0], "second": sides[1]}
    )


def test_a_missing_item_or_key_and_an_extra_one_are_said_so() -> None:
    missing = first_difference(["a"], ["a", "b"])
    extra = first_difference({"a": 1, "b": 2}, {"a": 1})
    assert (missing.message, missing.args["path"]) == ("outcome.missing_at", "[1]")  # type: ignore[union-attr]
    assert (extra.message, extra.args["path"]) == ("outcome.extra_at", '["b"]')  # type: ignore[union-attr]


def test_equal_answers_and_answers_that_differ_as_a_whole_need_no_path() -> None:
    assert first_difference([event(1, "x")], [event(1, "x")]) is None
    assert first_difference(1, 2) is None  # "returned 1, expected 2" says it all
    assert find(1, 2) is not None


def test_a_read_that_changed_says_where_it_first_changed() -> None:
    change = first_change([event(1, [])], [event(1, ["changed"])])
    assert change == Said(
        "outcome.added_at",
        {"path": '[0].payload["content"][0]', "first": "None", "second": '"changed"'},
    )


def test_the_difference_reads_in_both_languages() -> None:
    found = first_difference(["ab"], ["ac"])
    assert found is not None
    with using_language("en"):
        english = said(found)
    with using_language("zh"):
        chinese = said(found)
    assert "[0][1:]" in english and '"b"' in english and '"c"' in english
    assert "[0][1:]" in chinese and english != chinese


def test_a_long_side_is_cut() -> None:
    found = first_difference(["x" * 5000 + "a"], ["x" * 5000 + "b"])
    assert found is not None and found.args["path"] == "[0][5000:]"
    far = first_difference(["a" + "x" * 5000], ["b" + "x" * 5000])
    assert far is not None and len(far.args["first"]) < 200


def test_a_loop_in_one_line_is_still_a_loop() -> None:
    block = Block("filler", 1005, ("a",), "loop0")
    assert transcript.loop_summary(block, "log1") == (
        '1,005 \u00d7 append_event(log1, "a", "user_message", {"content": "x"})'
    )
    pairs = transcript.loop_summary(Block("pairs", 40, ("a",), "l"), "log1")
    assert pairs.startswith('40 \u00d7 (append_event(log1, "a", "tool_call"') and "; " in pairs
    assert transcript.loop(block, "log1").startswith("for i in range(1005):")


def test_the_report_shows_the_difference_in_bold_below_the_two_values() -> None:
    difference = first_difference(["ab"], ["ac"])
    assert difference is not None
    outcome = (
        Said("outcome.returned", {"value": '["ab"]'}),
        Said("outcome.expected", {"value": '["ac"]'}),
        difference,
    )
    failure = Failure("replay.mapping", lines=("replay_session(log0, 'a')",), outcome=outcome)
    result = TaskResult("replay", 4, 20, Status.FAILED, failure)
    with using_language("en"):
        lines = list(task_lines(result))
    styles = [style for line, style in lines if "first differ" in line]
    assert styles == ["bold"] and next(s for line, s in lines if "-> expected" in line) == ""


@pytest.fixture(scope="module")
def camel_case_replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A replay that names the tool message's key ``toolCallId``: its answer differs from the
    expected one in one key of one message."""
    mutant = next(mutant for mutant in MUTANTS if mutant.name == "replay_camelcase_key")
    return write_mutant(mutant, tmp_path_factory.mktemp("camel"))


#: Where that replay first differs, as both front ends show it.
CAMEL_DIFFERENCE = 'they first differ at [1]["tool_call_id"]: nothing came back there, expected'


def test_the_command_line_shows_where_a_wrong_replay_first_differs(
    camel_case_replay: Path,
) -> None:
    finished = run_grader(
        "--target", str(camel_case_replay), "--task", "replay", "--isolation", "none"
    )
    assert finished.returncode == 1, finished.stderr
    assert CAMEL_DIFFERENCE in finished.stdout, finished.stdout


def test_the_page_shows_where_a_wrong_replay_first_differs_in_bold(
    camel_case_replay: Path,
) -> None:
    # The page renders the report the engine worker graded (kept as data) into styled lines;
    # its script gives a line styled "bold" the class line-bold.
    with using_language("en"):
        page._last["report"] = grade_in_process(str(camel_case_replay), select(["replay"]))
    try:
        # The page chooses the language for its whole worker (use_language): inside the block,
        # so that the choice ends with this test, not in whichever test runs next here.
        with using_language("en"):
            lines = page.answer("en")["lines"]
    finally:
        page._last.clear()
    assert [style for line, style in lines if CAMEL_DIFFERENCE in line] == ["bold"], lines
