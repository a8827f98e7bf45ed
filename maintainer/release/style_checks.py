"""The proof that a learner's copy passes its own style and type checks: ``ruff check``,
``ruff format --check`` and ``mypy``, each with the copy's ``pyproject.toml``.

A learner who runs the checks the copy's README names must find them clean; the kit's own
checks do not show it, because the copy's settings are its own (they once lacked the line
that lets mypy pass the browser worker's ``pyodide`` imports).
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

from grader.i18n import text
from maintainer.release.isolation import run_python
from maintainer.release.proofs import FAILED, PASSED, SKIPPED, ProofResult, tail

CHECK_SECONDS = 600.0
#: Each check, as ``python -m`` runs it in the copy (mypy's cache goes elsewhere).
CHECKS: tuple[tuple[str, ...], ...] = (
    ("ruff", "check", "--no-cache", "."),
    ("ruff", "format", "--check", "--no-cache", "."),
    ("mypy",),
)


def prove_checks_pass(
    copy_dir: Path, environment: dict[str, str], scratch: Path, mypy_cache: Path | None = None
) -> ProofResult:
    """Run every check of :data:`CHECKS` in ``copy_dir``; the first that fails fails the proof.

    Args:
        mypy_cache: a mypy cache to start from (the kit's, which spares re-reading the
            libraries' types); it is copied, never written to.
    """
    name = "release.proof.checks"
    missing = [tool for tool in ("ruff", "mypy") if importlib.util.find_spec(tool) is None]
    if missing:
        return ProofResult(
            name, SKIPPED, text("release.skip.no_checkers", tools=", ".join(missing))
        )
    cache = scratch / "mypy-cache"
    if mypy_cache is not None and mypy_cache.is_dir() and not cache.exists():
        shutil.copytree(mypy_cache, cache)
    for check in CHECKS:
        arguments = ["-m", *check] + (["--cache-dir", str(cache)] if check[0] == "mypy" else [])
        try:
            done = run_python(arguments, environment, copy_dir, CHECK_SECONDS)
        except subprocess.TimeoutExpired:
            return ProofResult(name, FAILED, text("release.fail.timeout", seconds=CHECK_SECONDS))
        if done.returncode != 0:
            detail = text("release.fail.check", command=" ".join(check))
            return ProofResult(name, FAILED, detail + tail(done.stdout + done.stderr))
    return ProofResult(name, PASSED)
