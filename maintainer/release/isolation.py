"""Run programs that see the kit's packages only as they are in the learner's copy.

The instructor's kit is usually installed in editable mode, which adds an import hook that
finds ``solutions`` (and every other kit package) in the instructor's checkout from anywhere.
A proof run with that hook would pass even if the copy lacked a file. So each proof runs with
PYTHONPATH = a scratch folder holding the ``sitecustomize`` module below, then the copy. Python
imports ``sitecustomize`` at start-up after the installed hooks, and it removes the editable
ones; the copy's own packages are then found on PYTHONPATH and nothing else of the kit is.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

GUARD_SOURCE = '''\
"""Written by maintainer.release: hide editable installs so only the learner's copy is seen."""
import sys


def _from_editable_install(hook):
    return "__editable__" in (getattr(hook, "__module__", "") or "")


sys.meta_path[:] = [hook for hook in sys.meta_path if not _from_editable_install(hook)]
sys.path_hooks[:] = [hook for hook in sys.path_hooks if not _from_editable_install(hook)]
sys.path[:] = [entry for entry in sys.path if "__editable__" not in entry]
sys.path_importer_cache.clear()
'''


def copy_only_environment(copy_dir: Path, scratch: Path) -> dict[str, str]:
    """Return an environment in which Python finds the kit only in ``copy_dir``.

    Args:
        copy_dir: the learner's copy.
        scratch: a folder outside the copy; the guard module is written into it.

    Returns:
        This process's environment with PYTHONPATH replaced and bytecode caching off, so the
        proofs leave no ``__pycache__`` folders in the copy.
    """
    guard_dir = scratch / "guard"
    guard_dir.mkdir(parents=True, exist_ok=True)
    (guard_dir / "sitecustomize.py").write_text(GUARD_SOURCE, encoding="utf-8")
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join([str(guard_dir), str(copy_dir)])
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    return environment


def run_python(
    arguments: list[str], environment: dict[str, str], cwd: Path, seconds: float
) -> subprocess.CompletedProcess[str]:
    """Run ``python <arguments>`` with this interpreter and capture its output as text.

    Raises:
        subprocess.TimeoutExpired: when it runs longer than ``seconds``.
    """
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=seconds,
        check=False,
    )
