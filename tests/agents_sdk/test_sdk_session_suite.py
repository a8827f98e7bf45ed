"""The OpenAI Agents SDK's own session tests, run against ``EventLogSession``.

The tests come from the pinned sdist (:mod:`tests.agents_sdk.sdk_sources`), are run by the
SDK's own pytest configuration in a process of their own (their package is named ``tests``,
like ours), with :mod:`eventlog_session_plugin` putting the adapter in ``SQLiteSession``'s
place. Every test that exercises the protocol must pass; the ones that do not apply are
listed in :mod:`tests.agents_sdk.not_applicable`, and checked here.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.agents_sdk.not_applicable import (
    DIVERGES_ON_PURPOSE,
    NOT_APPLICABLE,
    SQLITE_SESSION_INTERNALS,
)
from tests.agents_sdk.sdk_sources import SESSION_TEST_FILES, sdk_sources

#: What the four files of openai-agents 0.24.0 hold, and what must pass of them: a change in
#: the list of tests that do not apply has to change these too.
COLLECTED = 113
PASSING = COLLECTED - 21
#: A bound on a hang, not a speed requirement: the run takes a few seconds.
HANG_GUARD_SECONDS = 600


@pytest.fixture(scope="module")
def sources() -> Path:
    """The unpacked sdist of the pinned SDK."""
    return sdk_sources()


@pytest.fixture(scope="module")
def outcomes(sources: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every SDK session test's outcome with the adapter as ``SQLiteSession``, by node id."""
    report = tmp_path_factory.mktemp("sdk-run") / "outcomes.json"
    environment = {
        **os.environ,
        "PYTHONPATH": str(Path(__file__).parent),
        "EVENTLOG_SDK_REPORT": str(report),
        "EVENTLOG_SDK_DESELECT": "\n".join(NOT_APPLICABLE),
    }
    # Without schemathesis's plugin, which the SDK's tests do not use: half a second to load.
    command = [sys.executable, "-m", "pytest", "-q", "-p", "eventlog_session_plugin",
               "-p", "no:cacheprovider", "-p", "no:schemathesis", "--timeout=120",
               *SESSION_TEST_FILES]  # fmt: skip
    done = subprocess.run(command, cwd=sources, env=environment, capture_output=True,
                          text=True, timeout=HANG_GUARD_SECONDS)  # fmt: skip
    assert report.is_file(), f"the SDK's tests did not run:\n{done.stdout[-3000:]}{done.stderr}"
    outcome_by_test: dict[str, str] = json.loads(report.read_text(encoding="utf-8"))
    if done.returncode not in (0, 1):  # 1: some failed, reported below by the tests
        pytest.fail(f"pytest exited {done.returncode}:\n{done.stdout[-3000:]}{done.stderr}")
    return outcome_by_test


def test_every_sdk_session_test_that_exercises_the_protocol_passes(
    outcomes: dict[str, str],
) -> None:
    not_passed = {
        test: outcome
        for test, outcome in outcomes.items()
        if outcome != "passed" and test not in NOT_APPLICABLE
    }
    assert not_passed == {}
    assert sum(outcome == "passed" for outcome in outcomes.values()) == PASSING


def test_every_test_listed_as_not_applicable_exists_and_was_left_out(
    outcomes: dict[str, str],
) -> None:
    assert len(outcomes) == COLLECTED
    assert {test for test, outcome in outcomes.items() if outcome == "deselected"} == set(
        NOT_APPLICABLE
    )


@pytest.mark.parametrize(
    "test_id", sorted(NOT_APPLICABLE), ids=lambda test_id: test_id.partition("::")[2]
)
def test_each_test_that_does_not_apply_touches_what_its_reason_names(
    sources: Path, test_id: str
) -> None:
    touches = NOT_APPLICABLE[test_id].touches
    assert touches in _test_source(sources, test_id)
    if test_id in SQLITE_SESSION_INTERNALS:
        # An internal: a private name, or one of SQLiteSession's own tables or messages.
        assert re.search(r'\._\w|"_\w|agent_(sessions|messages)|SQLiteSession', touches)
    else:
        assert test_id in DIVERGES_ON_PURPOSE and touches.startswith("assert ")


def _test_source(sources: Path, test_id: str) -> str:
    path, _, name = test_id.partition("::")
    text = (sources / path).read_text(encoding="utf-8")
    function = name.partition("[")[0]
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == function:
            return ast.get_source_segment(text, node) or ""
    raise AssertionError(f"{path} has no test {function}")
