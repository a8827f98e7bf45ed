"""The ``--target`` option (falling back to ``$GRADER_TARGET``, then ``exercises``)."""

from __future__ import annotations

import os

import pytest

from grader.frontends.cli import TARGET_ENV
from grader.i18n import text


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--target", default=None, help=text("cli.pytest_target", env=TARGET_ENV))


@pytest.fixture(scope="session")
def target(request: pytest.FixtureRequest) -> str:
    """What to grade, as ``python -m grader --target`` takes it."""
    return str(request.config.getoption("--target") or os.environ.get(TARGET_ENV) or "exercises")
