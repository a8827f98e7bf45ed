"""Work done once per test run, shared by every pytest-xdist worker.

A session fixture is per worker: with two workers, the mutant corpus (a minute of CPU) was
graded twice, and each test file asking for it on a worker of its own paid again.
:func:`once_per_run` does a piece of work once per run: the first worker to ask does it and
keeps the result in the run's shared folder (pytest's own base folder for the run, which
pytest cleans up with its old runs), and a worker asking meanwhile waits for it.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")

_folder: list[Path] = []


@pytest.fixture(scope="session", autouse=True)
def _run_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Under xdist, each worker's base folder is ``<run>/popen-gwN``: share ``<run>``."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = tmp_path_factory.getbasetemp().parent / "shared"
        shared.mkdir(exist_ok=True)
        _folder[:] = [shared]


def run_folder() -> Path | None:
    """The folder every worker of this run shares; None when there is one process."""
    return _folder[0] if _folder else None


def once_per_run(key: object, work: Callable[[], T]) -> T:
    """``work()``, done once per test run for ``key`` (anything picklable that names the
    work and all it depends on); without xdist, simply ``work()``."""
    folder = run_folder()
    if folder is None:
        return work()
    name = hashlib.sha256(pickle.dumps(key)).hexdigest()[:32]
    kept = folder / f"{name}.pickle"
    with (folder / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if kept.exists():
            result: T = pickle.loads(kept.read_bytes())
            return result
        result = work()
        partial = kept.with_suffix(".partial")
        partial.write_bytes(pickle.dumps(result))
        partial.replace(kept)
        return result
