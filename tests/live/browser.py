"""A page in Debian's Chromium, headless, driven by Playwright: the live page's browser tests.

Where Chromium or Playwright is missing a test that asks for a page skips and says which;
with ``REQUIRE_BROWSER=1`` (set by ``.ci/run``) it fails instead, so CI cannot pass by
skipping. ``tests/live/conftest.py`` registers the fixture.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.browser import CHROMIUM, LAUNCH_FLAGS, why_no_browser

__all__ = ["CHROMIUM", "LAUNCH_FLAGS", "page"]

VIEWPORT = {"width": 1600, "height": 900}
TIMEOUT_MS = 15_000  # a hang guard for each wait, not a speed requirement
#: Why the browser cannot be opened here (None: it can); the launch lives in benchmarks.browser,
#: so the benchmark measures the very browser these tests check.
_why_no_browser = why_no_browser


@pytest.fixture
def page(tmp_path: Path) -> Iterator[Any]:
    """A page in a fresh headless Chromium with an empty profile."""
    missing = _why_no_browser()
    if missing is not None:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1, but {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"),
            executable_path=CHROMIUM,
            headless=True,
            args=LAUNCH_FLAGS,
            viewport=VIEWPORT,
        )
        context.set_default_timeout(TIMEOUT_MS)
        try:
            yield context.new_page()
        finally:
            context.close()
