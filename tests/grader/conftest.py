"""Helpers for the grader's own tests: run the CLI, write small targets, find the corpus."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

KIT_ROOT = Path(__file__).resolve().parents[2]
CORPUS = KIT_ROOT / "tests" / "implementations"
CORRECT_FILES = sorted((CORPUS / "correct").glob("c*.py"))
WRONG_FILES = sorted((CORPUS / "wrong").glob("w*.py"))
# Generous: a full grade takes seconds, but CI machines can be slow and busy.
CLI_TIMEOUT = 120


def run_grader(
    *args: str, cwd: Path = KIT_ROOT, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m grader ARGS`` and capture its output (stdout is not a terminal)."""
    return subprocess.run(
        [sys.executable, "-m", "grader", *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT,
        check=False,
    )


@pytest.fixture
def write_target(tmp_path: Path) -> Callable[[str, str], Path]:
    """Write a learner file into a temporary folder and return its path."""

    def write(name: str, source: str) -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        return path

    return write
