"""Fixtures for the browser site: built once per run, served on 127.0.0.1, opened in
Debian's Chromium with every host but 127.0.0.1 unresolvable.

Where npm, Chromium or Playwright is missing the tests skip and say which; with
``REQUIRE_BROWSER=1`` (set by ``.ci/run``) they fail instead.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

# OFFLINE (only 127.0.0.1 resolves) and the hang guards LOAD_MS and GRADE_MS are the
# benchmark's too: they live with the browser's launch in benchmarks.browser.
from benchmarks.browser import CHROMIUM, GRADE_MS, LAUNCH_FLAGS, LOAD_MS, OFFLINE
from grader.frontends.site.serve import Server


def _why_not() -> str | None:
    if importlib.util.find_spec("playwright") is None:
        return "Playwright for Python is not installed (it is in the dev extra)"
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if shutil.which("npm") is None:
        return "no npm to build the site with (apt-get install nodejs npm)"
    return None


def require_browser() -> None:
    missing = _why_not()
    if missing is not None:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1, but {missing}")
        pytest.skip(missing)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_browser()
    # Imported here, not at the top: the build reads the tasks, whose strategies hypothesis
    # would warn about being built while pytest is still loading conftest files.
    from grader.frontends.site.build import build

    return build(tmp_path_factory.mktemp("site") / "site").folder


@pytest.fixture(scope="session")
def served(site: Path) -> Iterator[Server]:
    with Server(site) as server:
        yield server


@dataclass
class Session:
    """One browser profile on the site: its page, and what went wrong while it ran."""

    page: Any
    url: str
    off_origin: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def wait_ready(self) -> None:
        from playwright.sync_api import expect

        expect(self.page.locator("#status")).to_have_attribute("data-state", "ready",
                                                               timeout=LOAD_MS)  # fmt: skip

    def grade(self, files: dict[str, str], **options: Any) -> dict[str, Any]:
        """``window.kit.grade(files, options)``'s answer."""
        result: dict[str, Any] = self.page.evaluate(
            "([files, options]) => window.kit.grade(files, options)", [files, options]
        )
        return result


@pytest.fixture(scope="module")
def browser(served: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    """One page session on the site, shared by a module's tests (Pyodide loads once)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=CHROMIUM,
            headless=True,
            args=[*LAUNCH_FLAGS, OFFLINE],
            viewport={"width": 1600, "height": 1000},
        )
        context.set_default_timeout(GRADE_MS)
        session = Session(context.new_page(), served.url)
        context.on(
            "request",
            lambda request: (
                None
                if request.url.startswith(served.url) or request.url.startswith(("data:", "blob:"))
                else session.off_origin.append(request.url)
            ),
        )
        session.page.on(
            "console",
            lambda message: (
                session.errors.append(message.text)
                if message.type == "error"
                else session.warnings.append(message.text)
                if message.type == "warning"
                else None
            ),
        )
        session.page.on("pageerror", lambda error: session.errors.append(str(error)))
        session.page.goto(served.url)
        session.wait_ready()
        try:
            yield session
        finally:
            context.close()
