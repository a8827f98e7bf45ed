"""The ``--target`` option (falling back to ``$GRADER_TARGET``, then ``exercises``)."""

from __future__ import annotations

import os

import pytest

from grader import messages
from grader.loading import Target, TargetError, load_target

TARGET_ENV = "GRADER_TARGET"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--target",
        default=None,
        help=messages.PYTEST_TARGET.format(env=TARGET_ENV),
    )


@pytest.fixture(scope="session")
def target(request: pytest.FixtureRequest) -> Target:
    """The loaded target; a target that cannot load fails every test with the reason."""
    spec = request.config.getoption("--target") or os.environ.get(TARGET_ENV) or "exercises"
    try:
        return load_target(spec)
    except TargetError as error:
        pytest.fail(str(error), pytrace=False)
