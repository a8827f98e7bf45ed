"""A page in Debian's Chromium, headless, driven by Playwright: the live page's browser tests.

Where Chromium or Playwright is missing a test that asks for a page skips and says which;
with ``REQUIRE_BROWSER=1`` (set by ``.ci/run``) it fails instead, so CI cannot pass by
skipping. ``tests/live/conftest.py`` registers the fixture.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
# What works in a container without a GPU, a sandbox or a network beyond the registries.
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
VIEWPORT = {"width": 1600, "height": 900}
TIMEOUT_MS = 15_000  # a hang guard for each wait, not a speed requirement


def _why_no_browser() -> str | None:
    if importlib.util.find_spec("playwright") is None:
        return "Playwright for Python is not installed (it is in the dev extra)"
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


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
