"""Tests that wait for the run's shared corpus grades get the time a busy machine needs.

The corpus's grades (``tests/grader/conftest.py``) cost minutes of CPU, paid by the first test
that asks and waited for by the others; the suite's 300 s per test is too little for them
while another job keeps the cores busy. :mod:`tests.tiers` gives each test that uses one of
those fixtures an hour, unless it has more of its own.
"""

from __future__ import annotations

import pytest

from tests.tiers import SHARED_WORK_FIXTURES, SHARED_WORK_SECONDS, allow_at_least, timeout_of


@pytest.mark.timeout(60)
def test_an_hour_replaces_a_shorter_timeout_and_never_a_longer_one(
    request: pytest.FixtureRequest,
) -> None:
    node = request.node
    assert timeout_of(node) == 60
    allow_at_least(node, SHARED_WORK_SECONDS)
    assert timeout_of(node) == SHARED_WORK_SECONDS
    allow_at_least(node, 10)
    assert timeout_of(node) == SHARED_WORK_SECONDS


def test_every_collected_test_that_waits_for_a_corpus_grade_has_an_hour(
    request: pytest.FixtureRequest,
) -> None:
    waiting = [
        item
        for item in request.session.items
        if SHARED_WORK_FIXTURES & set(getattr(item, "fixturenames", ()))
    ]
    short = [item.nodeid for item in waiting if (timeout_of(item) or 0) < SHARED_WORK_SECONDS]
    assert short == []
