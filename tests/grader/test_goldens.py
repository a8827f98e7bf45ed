"""What the grader writes, pinned case by case: each golden case's report (data, no
grading) rendered as each results format and as the printed report, in both languages,
compared byte for byte with the files beside it (see :mod:`tests.grader.golden_files`, which
also says how to rewrite them after a deliberate change).

The same files are then held to what they promise: the results files validate against the
exercism and Gradescope schemas, and a report in Chinese gives the points and broken promise
the English one does.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from grader.frontends.results import MAX_BYTES, document
from grader.i18n import using_language
from tests.grader.golden_files import GOLDENS, OUTPUTS, case_report, cases

SCHEMAS = Path(__file__).parent / "schemas"
CASES = cases()


def schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    return loaded


def golden(case: str, name: str) -> bytes:
    return (GOLDENS / case / name).read_bytes()


def test_the_cases_cover_every_status_a_load_error_and_each_isolation_worth_a_note() -> None:
    reports = [case_report(case) for case in CASES]
    statuses = {result.status.value for report in reports for result in report.results}
    assert {"passed", "failed", "not_implemented", "timed_out"} <= statuses
    assert any(report.load_problem is not None for report in reports)
    assert {"bwrap", "none"} <= {report.isolation for report in reports}
    assert any(result.output for report in reports for result in report.results)


@pytest.mark.parametrize("output", sorted(OUTPUTS))
@pytest.mark.parametrize("case", CASES)
def test_each_output_of_each_case_is_the_golden_one(case: str, output: str) -> None:
    rendered = OUTPUTS[output](case_report(case))

    assert rendered.decode("utf-8") == golden(case, output).decode("utf-8"), (
        f"goldens/{case}/{output} differs: rewrite with python -m tests.grader.golden_files"
        " if the change is meant, and read the diff"
    )


@pytest.mark.parametrize("case", CASES)
def test_the_results_files_validate_against_their_formats_schemas(case: str) -> None:
    # Imported here: jsonschema takes a second to import (its format checkers build their
    # grammars), which every worker would pay to collect this module.
    import jsonschema

    exercism = json.loads(golden(case, "exercism.json"))
    gradescope = json.loads(golden(case, "gradescope.json"))

    jsonschema.validate(exercism, schema("exercism_v3"))
    jsonschema.validate(gradescope, schema("gradescope_results"))
    report = case_report(case)
    assert gradescope["score"] == report.score
    assert len(gradescope["tests"]) == len(report.asked)


@pytest.mark.parametrize("case", CASES)
def test_chinese_feedback_gives_the_same_points_statuses_and_promises(case: str) -> None:
    report = case_report(case)
    by_language = {}
    for language in ("en", "zh"):
        with using_language(language):
            graded = document(report, "gradescope")
        by_language[language] = [graded["score"]] + [
            (test["score"], test["status"], test["extra_data"]["broken_promise"])
            for test in graded["tests"]
        ]
    assert by_language["zh"] == by_language["en"]
    assert golden(case, "report.zh.txt") != golden(case, "report.en.txt")


def test_a_broken_promise_is_named_in_both_results_formats() -> None:
    exercism = json.loads(golden("broken_promise", "exercism.json"))
    gradescope = json.loads(golden("broken_promise", "gradescope.json"))

    (test,) = exercism["tests"]
    assert test["status"] == "fail" and "replay_session(" in test["test_code"]
    assert gradescope["tests"][0]["extra_data"]["broken_promise"] == "replay.merge"


def test_a_load_error_gives_every_task_asked_zero_in_gradescope_and_an_error_in_exercism() -> None:
    exercism = json.loads(golden("syntax_error", "exercism.json"))
    gradescope = json.loads(golden("syntax_error", "gradescope.json"))

    assert (exercism["status"], exercism["tests"]) == ("error", [])
    assert "SyntaxError in broken.py:" in exercism["message"]
    assert gradescope["score"] == 0 and len(gradescope["tests"]) == 5


def test_the_stubs_report_names_where_each_missing_function_is_written() -> None:
    printed = golden("stubs", "report.en.txt").decode("utf-8")

    assert printed.count("not implemented yet") >= 5
    assert "get_events_for_session is written in task 2" in printed
    assert "append_event is written in task 1" in printed


def test_what_learner_code_printed_reaches_no_file_as_a_control_character() -> None:
    for name in OUTPUTS:
        written = golden("noisy_output", name).decode("utf-8")
        assert "\x1b" not in written and "\u202e" not in written and "\x07" not in written, name
        assert "\\x1b[2J" in written or "\\\\x1b[2J" in written, name


def test_a_results_file_stays_small_whatever_learner_code_printed() -> None:
    report = case_report("noisy_output")
    flood = "\ud800\x1b[2J\u202e" * 100_000
    results = tuple(replace(result, output=flood) for result in report.results)
    flooded = replace(report, results=results)
    for form in ("exercism.json", "gradescope.json"):
        written = OUTPUTS[form](flooded)
        assert len(written) < MAX_BYTES, form
        text = written.decode("utf-8")
        assert "\u202e" not in text and "\x1b" not in text, form
