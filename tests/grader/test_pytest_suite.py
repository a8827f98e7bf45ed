"""The same grade under plain pytest: ``pytest grader/suite --target T`` or $GRADER_TARGET."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.grader.conftest import CLI_TIMEOUT, KIT_ROOT
from tests.implementations.corpus import write_mutant
from tests.implementations.mutants import MUTANTS


def run_suite(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "grader/suite", "-q", "-p", "no:cacheprovider", *args],
        cwd=KIT_ROOT,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT,
        check=False,
    )


def test_the_target_option_selects_what_the_suite_grades() -> None:
    finished = run_suite("--target", "solutions", "-k", "list_sessions or read_and_resume")
    assert finished.returncode == 0, finished.stdout
    assert "2 passed" in finished.stdout


def test_the_environment_variable_is_the_fallback_and_failures_show_the_counterexample(
    tmp_path: Path,
) -> None:
    (mutant,) = [m for m in MUTANTS if m.name == "sessions_sorted"]
    wrong = write_mutant(mutant, tmp_path)
    finished = run_suite(
        "-k", "list_sessions", "-rN", "--tb=line", env={"GRADER_TARGET": str(wrong)}
    )
    assert finished.returncode == 1
    assert "list_sessions(log" in finished.stdout
    assert "Broken property:" in finished.stdout
