"""Debian's Chromium, headless, driven by Playwright: how the benchmarks and the page's tests
open the browser site, and the files of a submission as the page takes them.

The tests (``tests/live``, ``tests/site``) take their launch from here, so the benchmark
measures the very browser they check.
"""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path
from typing import Any

from grader.transport.workspace import EXERCISE_MODULES, KIT_ROOT

CHROMIUM = "/usr/bin/chromium"
#: What works in a container without a GPU, a sandbox or a network beyond the registries.
LAUNCH_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Only the site's own address resolves: a request anywhere else fails (and is recorded).
OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
#: Hang guards, not speed requirements: Pyodide's first load on a busy 2-core machine, and
#: one grading of every task.
LOAD_MS = 300_000
GRADE_MS = 600_000


def why_no_browser() -> str | None:
    """Why the browser cannot be opened here; None when it can."""
    if importlib.util.find_spec("playwright") is None:
        return "Playwright for Python is not installed (it is in the dev extra)"
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


def reference_files() -> dict[str, str]:
    """The kit's solutions as the page takes them: three files importing each other as the
    ``exercises`` package does."""
    return {
        name: (KIT_ROOT / "solutions" / name).read_text("utf-8").replace("solutions.", "exercises.")
        for name in EXERCISE_MODULES
    }


def offline_chromium(playwright: Any, profile: Path) -> Any:
    """Debian's Chromium, headless, with ``profile`` as its profile and every host but
    127.0.0.1 unresolvable: a page's context whose waits end at :data:`GRADE_MS`."""
    context = playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, headless=True, args=[*LAUNCH_FLAGS, OFFLINE]
    )
    context.set_default_timeout(GRADE_MS)
    return context


def first_result(context: Any, url: str) -> float:
    """Seconds from opening the page to the report of "Check all tasks" on the stubs."""
    page = context.new_page()
    started = time.monotonic()
    page.goto(url)
    ready(page)
    page.click("#check-all")
    # Waited for as the page changes (Playwright checks the selector on each animation
    # frame), not by an assertion that polls at 100, 250, 500 then 1,000 ms: that slack
    # was up to a second of every figure.
    page.wait_for_selector('#report[data-score="0"]', state="attached", timeout=GRADE_MS)
    seconds = time.monotonic() - started
    page.close()
    return seconds


def ready(page: Any) -> None:
    """Wait until the page says it is ready to grade (Pyodide loaded)."""
    page.wait_for_selector('#status[data-state="ready"]', state="attached", timeout=LOAD_MS)
