"""The page in Chromium, as a learner and a script use it: the same grades as the command line.

One page session for the module (Pyodide loads once); the tests run in file order, as a
learner would: stubs, a solution typed in, a reload, the other language, a runaway loop, a
hint, then CI's fixed sample of the corpus graded both ways. The whole corpus is
``python -m tests.site.corpus_benchmark``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from grader.frontends.hints import reveal_next_hint
from grader.i18n import text
from grader.transport.workspace import EXERCISE_MODULES
from tests.site.conftest import GRADE_MS, Session
from tests.site.submissions import (
    Files,
    cli_grade,
    correct,
    per_task,
    report_per_task,
    sample,
    solution,
    stubs,
)

#: pytest's per-test guard (300 s) is too short for a grading in a browser on a busy machine;
#: conftest's GRADE_MS is the hang guard here.
pytestmark = pytest.mark.timeout(GRADE_MS // 1000 + 60)

LOOPING = "\n\ndef list_sessions(log):\n    while True:\n        pass\n"
#: Looks for the bridges where a module stays after its import (returning their names, a
#: wrong answer), then imports one.
REACHING_FOR_JS = """

def list_sessions(log):
    import sys

    bridges = ("js", "pyodide", "_pyodide", "pyodide_js", "_pyodide_core")
    reached = [name for name in sys.modules if name.split(".")[0] in bridges]
    if reached:
        return reached
    import js

    js.postMessage("progress 9 9")
    return []
"""


def test_the_stubs_are_reported_not_implemented_yet(browser: Session) -> None:
    from playwright.sync_api import expect

    results = browser.grade(stubs())
    assert results["score"] == 0
    statuses = {test["extra_data"]["grader_status"] for test in results["tests"]}
    assert statuses == {"not_implemented"}, results["output"]  # the report says what happened
    report = browser.page.locator("#report")
    expect(report).to_contain_text(text("status.not_implemented", language="en"))
    expect(browser.page.locator("#status")).to_have_text(
        text("site.graded", earned=0, possible=100, language="en")
    )


def test_a_correct_solution_typed_into_the_editor_scores_full_marks(browser: Session) -> None:
    from playwright.sync_api import expect

    page = browser.page
    for name, source in solution().items():
        page.locator("#files button", has_text=name).click()
        page.locator(".cm-content").click()
        page.keyboard.press("Control+A")
        page.keyboard.insert_text(source)
    page.click("#check-all")
    expect(page.locator("#report")).to_have_attribute("data-score", "100", timeout=GRADE_MS)
    expect(page.locator("#report")).to_contain_text(
        text("report.total", earned=100, possible=100, language="en")
    )


def test_a_reload_keeps_the_code(browser: Session) -> None:
    browser.page.reload()
    browser.wait_ready()
    assert browser.page.evaluate("window.kit.files()") == solution()


def test_the_language_switch_renders_the_page_and_the_report_in_chinese(
    browser: Session,
) -> None:
    from playwright.sync_api import expect

    page = browser.page
    page.click("#check-task")  # task 1, in English
    expect(page.locator("#report")).to_have_attribute("data-score", "20", timeout=GRADE_MS)
    page.select_option("#language", "zh")
    expect(page.locator("#title")).to_have_text(text("site.title", language="zh"))
    expect(page.locator("#check-all")).to_have_text(text("site.check_all", language="zh"))
    expect(page.locator("#report")).to_contain_text(
        text("report.total", earned=20, possible=20, language="zh")
    )
    page.select_option("#language", "en")
    expect(page.locator("#report")).to_contain_text(
        text("report.total", earned=20, possible=20, language="en")
    )


#: Answers with the names of any of the engine's modules in the kernel's Python (a wrong
#: answer), else as the correct file does.
LOOKING_FOR_THE_ENGINE = """

_list_sessions = list_sessions


def list_sessions(log):
    import sys

    engine = ("grader", "hypothesis", "_hypothesis_pytestplugin")
    found = sorted(name for name in sys.modules if name.split(".")[0] in engine)
    return found or _list_sessions(log)
"""


@pytest.mark.sandbox  # beside the page, the command line grades the same file
def test_a_runaway_loop_times_out_as_on_the_command_line_and_the_next_check_passes(
    browser: Session,
) -> None:
    looping = correct("c01_namedtuple_events")
    looping["event_log.py"] += LOOPING
    results = browser.grade(looping, task="list_sessions")
    (test,) = results["tests"]
    assert test["extra_data"]["grader_status"] == "timed_out"
    assert per_task(results) == report_per_task(cli_grade(looping, "list_sessions"))
    again = browser.grade(correct("c01_namedtuple_events"), task="list_sessions")
    assert again["tests"][0]["extra_data"]["grader_status"] == "passed"


def test_a_kernel_starts_from_a_python_with_nothing_of_the_engine_in_it(browser: Session) -> None:
    """Every kernel restores the snapshot the engine takes of its own Python as soon as it has
    loaded: taken any later, the kernel would start with the grader and hypothesis imported."""
    looking = correct("c01_namedtuple_events")
    looking["event_log.py"] += LOOKING_FOR_THE_ENGINE
    results = browser.grade(looking, task="list_sessions")
    assert results["tests"][0]["extra_data"]["grader_status"] == "passed"


def test_the_bridges_to_javascript_are_missing_as_on_the_command_line(browser: Session) -> None:
    """``import js`` would let learner code post to its worker's channel, end its worker or
    reach the site; it fails as it does on the command line, with the same grade."""
    reaching = correct("c01_namedtuple_events")
    reaching["event_log.py"] += REACHING_FOR_JS
    results = browser.grade(reaching, task="list_sessions")
    (test,) = results["tests"]
    assert "No module named 'js'" in test["output"]
    assert per_task(results) == report_per_task(cli_grade(reaching, "list_sessions"))
    assert per_task(results)["list_sessions"][0] == 0


def test_hint_shows_the_command_lines_next_hint(browser: Session, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    page = browser.page
    broken = _broken_replay()
    browser.grade(broken, task="replay")
    page.click("#hint")
    expected = reveal_next_hint(cli_grade(broken, "replay"), tmp_path / "hints.json")
    expect(page.locator("#hint-text")).to_have_text(expected)
    if os.environ.get("SITE_SCREENSHOT"):  # the README's picture: the failing task beside it
        page.locator("#tasks button", has_text="4.").click()
        page.screenshot(path=os.environ["SITE_SCREENSHOT"])


@pytest.mark.parametrize(("name", "task", "files"), sample(), ids=[item[0] for item in sample()])
def test_the_browser_grades_the_sample_as_the_command_line_does(
    browser: Session, name: str, task: str, files: Files
) -> None:
    assert per_task(browser.grade(files, task=task)) == report_per_task(cli_grade(files, task))


def test_nothing_was_asked_of_another_origin_and_nothing_logged_an_error(
    browser: Session,
) -> None:
    assert browser.off_origin == []
    assert _unrecovered(browser) == []


#: What the page warns when a kernel worker could not load Python and another was started
#: (static/kernels.js): the learner's code never reached that worker.
RELOADED = "did not load: failed Failed to fetch"
#: Where a kernel worker loads Python (static/kernel.js), as a stack in an error names it.
LOADING_PYTHON = ("loadPyodide", "/kernel.js:")


def _unrecovered(browser: Session) -> list[str]:
    """The errors logged, but for a fetch that failed while a kernel worker loaded Python.

    Such a worker has run none of the learner's code, and the page starts another in its
    place (up to three times, static/kernels.js); a spare that failed and was never used
    costs nothing at all. On a machine many times busier than its cores, CI once saw one
    such fetch fail, and every grade of that run still matched the command line's, which
    the other tests of this module check. A failed fetch counts as that only when the page
    said so: a warning that it started another worker, or the error's own stack in the
    kernel worker's load.
    """
    loading = any(RELOADED in warning for warning in browser.warnings) or any(
        all(place in error for place in LOADING_PYTHON) for error in browser.errors
    )
    if not loading:
        return browser.errors
    return [error for error in browser.errors if "Failed to fetch" not in error]


def _broken_replay() -> Files:
    files = solution()
    files["replay.py"] = files["replay.py"].replace('"tool_call_id"', '"call_id"', 1)
    assert files["replay.py"] != solution()["replay.py"]
    return files


def test_bad_input_to_kit_grade_is_refused_with_a_reason(browser: Session) -> None:
    with pytest.raises(Exception, match="unknown files"):
        browser.grade({**stubs(), "evil.py": "x = 1"})
    with pytest.raises(Exception, match="unknown options"):
        browser.grade(stubs(), colour="red")
    with pytest.raises(Exception, match="missing files"):
        browser.grade({EXERCISE_MODULES[0]: ""})
