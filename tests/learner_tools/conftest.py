"""Helpers for the learner tools' tests: run the command line as a learner does, from any
folder, with the locale under the test's control."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from grader.i18n import LOCALE_VARIABLES
from grader.i18n.choice import LANGUAGE_VARIABLE

KIT_ROOT = Path(__file__).resolve().parents[2]
# Generous: one grading takes seconds, but the machine may be busy.
CLI_TIMEOUT = 300


def environment(**variables: str) -> dict[str, str]:
    """This process's environment without its locale variables (nor a language passed on in
    ``KIT_LANGUAGE``), plus ``variables``.

    The kit comes first on the path: the environment may hold an editable install of another
    checkout of the kit, which a command run outside this folder would otherwise import.
    """
    dropped = (*LOCALE_VARIABLES, LANGUAGE_VARIABLE)
    clean = {key: value for key, value in os.environ.items() if key not in dropped}
    clean["PYTHONPATH"] = os.pathsep.join(
        [str(KIT_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    return {**clean, **variables}


def grader_cli(
    *args: str, cwd: Path = KIT_ROOT, locale: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m grader ARGS`` in ``cwd`` with the locale variables ``locale`` only."""
    return subprocess.run(
        [sys.executable, "-m", "grader", *args],
        cwd=cwd,
        env=environment(**(locale or {})),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=CLI_TIMEOUT,
        check=False,
    )
