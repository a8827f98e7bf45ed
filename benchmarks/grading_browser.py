"""The browser site's costs: its first report cold and warm, and two gradings from the page.

The site is built, served on 127.0.0.1 and opened in Debian's Chromium (see
:mod:`benchmarks.browser`) with every other host unresolvable. Timed:

* the first report, cold (an empty profile) and warm (the same profile again, five visits): from
  opening the page to the report of "Check all tasks" on the stubs;
* ``window.kit.grade(files, {})`` of the reference, every task;
* the same of a ``while True:`` submission: the reference with ``create_event_log``
  redefined as a loop, which the page stops by ending its worker (the browser's limits are
  wall-clock time).

Where Playwright or Chromium is missing, the part says why and the run goes on.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.browser import (
    first_result,
    offline_chromium,
    ready,
    reference_files,
    why_no_browser,
)

#: Warm visits timed, one after the other with the same profile: one visit's figure moves by
#: half a second from run to run on this machine.
WARM_VISITS = 5
#: What turns the reference into a ``while True:`` submission (appended to ``event_log.py``).
LOOP = "\n\ndef create_event_log():\n    while True:\n        pass\n"


@dataclass(frozen=True, slots=True)
class BrowserTiming:
    """One timed step: seconds, the load before and after, and the score (when graded)."""

    what: str
    seconds: float
    load: tuple[float, float]
    score: str = ""


@dataclass(frozen=True, slots=True)
class BrowserFigures:
    """The browser part's timings, or why it did not run."""

    timings: list[BrowserTiming]
    skipped: str | None = None


def loop_files() -> dict[str, str]:
    """The reference's three files, ``create_event_log`` redefined as ``while True: pass``."""
    files = reference_files()
    files["event_log.py"] += LOOP
    return files


def run_browser_benchmark(wanted: bool, progress: Callable[[str], None]) -> BrowserFigures:
    """Time the page, or say why not (``wanted`` False: the plan leaves it out)."""
    if not wanted:
        return BrowserFigures([], "skipped: left out of --quick (the page's first load alone"
                                  " takes tens of seconds here)")  # fmt: skip
    missing = why_no_browser()
    if missing is not None:
        return BrowserFigures([], f"skipped: {missing}")
    try:
        return BrowserFigures(_measure(progress))
    except Exception as error:  # a browser that will not start is a skip, not a failed run
        return BrowserFigures([], f"skipped: the browser failed: {type(error).__name__}: {error}")


def _measure(progress: Callable[[str], None]) -> list[BrowserTiming]:
    from playwright.sync_api import sync_playwright

    from grader.frontends.site.build import build
    from grader.frontends.site.serve import Server

    timings: list[BrowserTiming] = []

    def timed(what: str, action: Callable[[], Any]) -> Any:
        load_before = os.getloadavg()[0]
        started = time.monotonic()
        answer = action()
        seconds = time.monotonic() - started
        timing = BrowserTiming(what, seconds, (load_before, os.getloadavg()[0]))
        if isinstance(answer, dict):
            timing = BrowserTiming(what, seconds, timing.load, _score(answer))
        timings.append(timing)
        progress(f"grading: browser, {what}: {seconds:.1f} s {timing.score};"
                 f" load {timing.load[0]:.2f}-{timing.load[1]:.2f}")  # fmt: skip
        return answer

    with tempfile.TemporaryDirectory() as folder:
        built = build(Path(folder) / "site")
        with Server(built.folder) as server, sync_playwright() as playwright:
            context = offline_chromium(playwright, Path(folder) / "profile")
            try:
                timed("first report, cold", lambda: first_result(context, server.url))
                for visit in range(1, WARM_VISITS + 1):
                    timed(f"first report, warm, visit {visit} of {WARM_VISITS}",
                          lambda: first_result(context, server.url))  # fmt: skip
                page = context.new_page()
                page.goto(server.url)
                ready(page)
                grade = "([f, o]) => window.kit.grade(f, o)"
                files = reference_files()
                timed("the reference, all tasks", lambda: page.evaluate(grade, [files, {}]))
                looping = loop_files()
                timed("while True: in create_event_log, all tasks",
                      lambda: page.evaluate(grade, [looping, {}]))  # fmt: skip
            finally:
                context.close()
    return timings


def _score(results: dict[str, Any]) -> str:
    """A Gradescope results object's total, as ``earned/possible``."""
    tests = results.get("tests", [])
    earned = sum(test.get("score", 0) for test in tests)
    possible = sum(test.get("max_score", 0) for test in tests)
    return f"{earned:g}/{possible:g}"
