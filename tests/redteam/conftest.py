"""What the red team needs of the machine (bubblewrap, root), and how it says so.

Where bubblewrap or root is missing (a learner's laptop), the tests that need them are
skipped, saying why; CI sets ``REQUIRE_SANDBOX=1`` and then a missing sandbox is a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from grader.transport import isolation

REQUIRED = bool(os.environ.get("REQUIRE_SANDBOX"))


def need(condition: bool, reason: str) -> None:
    """Skip (or, under REQUIRE_SANDBOX, fail) unless ``condition`` holds."""
    if condition:
        return
    if REQUIRED:
        pytest.fail(f"REQUIRE_SANDBOX is set, but {reason}")
    pytest.skip(reason)


def need_bwrap() -> None:
    need(
        isolation.bwrap_works(),
        "bubblewrap is not installed or cannot sandbox here (sudo apt install bubblewrap)",
    )


def need_root() -> None:
    need(os.getuid() == 0, "a uid of its own for learner code needs root")


def uid_usable() -> bool:
    """Whether uid isolation can run here (root, and an interpreter others can read)."""
    try:
        isolation.choose("uid")
    except isolation.Unavailable:
        return False
    return True


@pytest.fixture(scope="module")
def autograder() -> Iterator[dict[str, Any]]:
    """The Gradescope autograder, unpacked (see :mod:`tests.redteam.gradescope`)."""
    from tests.redteam.gradescope import unpacked

    need_root()
    yield from unpacked()
