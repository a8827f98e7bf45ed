"""The ``--target`` option (falling back to ``$GRADER_TARGET``, then ``exercises``)."""

from __future__ import annotations

import os

import pytest

from grader import messages
from grader.cli import TARGET_ENV


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--target",
        default=None,
        help=messages.PYTEST_TARGET.format(env=TARGET_ENV),
    )


@pytest.fixture(scope="session")
def target(request: pytest.FixtureRequest) -> str:
    """What to grade, as ``python -m grader --target`` takes it."""
    return str(request.config.getoption("--target") or os.environ.get(TARGET_ENV) or "exercises")
