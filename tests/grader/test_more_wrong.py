"""Bugs beyond the corpus, each made by one text substitution in a correct file.

Each must cost the points of the task that owns the broken clause, and only those.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from grader import messages
from grader.grading import grade_task
from grader.loading import load_target
from grader.tasks import TASKS
from tests.grader.conftest import CORPUS

BASE = CORPUS / "correct" / "c07_tuple_log.py"
READ_FILTER = "e.session_id == session_id and e.event_id > after_event_id"
# name: (text in the correct file, its replacement, the task that must lose its points)
MUTANTS = {
    "tool_call_message_with_empty_content": (
        '{"role": "assistant", "content": None, "tool_calls": [call]}',
        '{"role": "assistant", "content": "", "tool_calls": [call]}',
        "replay",
    ),
    "runs_split_by_other_sessions_events": (
        "        p = event.payload\n",
        "        p = event.payload\n"
        "        if log[event.event_id - 2].session_id != session_id:\n"
        "            previous = None\n",
        "replay",
    ),
    "answered_call_id_reusable": (
        'return earlier == [] if event_type == "tool_call"',
        'return earlier[-1:] != ["tool_call"] if event_type == "tool_call"',
        "reject_bad_input",
    ),
    "results_counted_across_sessions": (
        "        if e.session_id == session_id\n",
        '        if (e.session_id == session_id or e.type == "tool_result")\n',
        "reject_bad_input",
    ),
    "negative_after_id_reads_nothing": (
        f"return tuple(e for e in log if {READ_FILTER})",
        f"return () if after_event_id < 0 else tuple(e for e in log if {READ_FILTER})",
        "read_and_resume",
    ),
    "session_ids_compared_without_case": (
        "e.session_id == session_id and",
        "e.session_id.lower() == session_id.lower() and",
        "read_and_resume",
    ),
    "sessions_listed_without_case": (
        "dict.fromkeys(e.session_id for e in log)",
        "dict.fromkeys(e.session_id.lower() for e in log)",
        "list_sessions",
    ),
    "payload_values_copied_one_level": (
        "items = tuple((key, copy.deepcopy(value))",
        "items = tuple((key, copy.copy(value))",
        "append_and_ids",
    ),
}


@pytest.mark.parametrize("mutant", MUTANTS.values(), ids=list(MUTANTS))
def test_a_one_line_bug_costs_exactly_the_task_that_owns_the_clause(
    mutant: tuple[str, str, str], write_target: Callable[[str, str], Path]
) -> None:
    old, new, task_id = mutant
    source = BASE.read_text(encoding="utf-8")
    assert source.count(old) == 1, "the correct file changed: update this mutant"
    target = load_target(str(write_target("mutant.py", source.replace(old, new))))
    results = [grade_task(task, target) for task in TASKS]
    assert {r.task_id for r in results if r.status != messages.STATUS_PASSED} == {task_id}


def test_arguments_re_serialised_as_json_cost_points(
    write_target: Callable[[str, str], Path],
) -> None:
    # "arguments" must be stored to the letter; json.dumps(json.loads(...)) changes spacing,
    # key order and escapes. Both the payload and the replay show it, so two tasks may lose.
    old = "items = tuple((key, copy.deepcopy(value)) for key, value in payload.items())"
    new = "items = tuple((key, _reserialised(key, value)) for key, value in payload.items())"
    helper = (
        "\n\ndef _reserialised(key, value):\n"
        "    import json\n"
        "    try:\n"
        "        if key == 'arguments':\n"
        "            return json.dumps(json.loads(value))\n"
        "    except ValueError:\n"
        "        pass\n"
        "    return copy.deepcopy(value)\n"
    )
    source = BASE.read_text(encoding="utf-8")
    assert source.count(old) == 1, "the correct file changed: update this mutant"
    target = load_target(str(write_target("mutant.py", source.replace(old, new) + helper)))
    lost = {r.task_id for r in (grade_task(t, target) for t in TASKS) if r.status != "passed"}
    assert lost == {"append_and_ids", "replay"}
