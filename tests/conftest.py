"""Fixtures shared across test folders, registered once for the whole suite."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

# The service's and the live page's tests both start real servers on real files; the
# PostgreSQL tests share one throwaway cluster; the tiers mark each test by what it starts.
# The workers of a run share what is done once per run (tests/run_once.py), and take the
# dearest files first (tests/scheduling.py).
pytest_plugins = [
    "tests.server_fixtures",
    "tests.postgres_cluster",
    "tests.tiers",
    "tests.run_once",
    "tests.scheduling",
]

KIT_ROOT = Path(__file__).resolve().parents[1]


def write_committed_stubs(folder: Path) -> Path:
    """Write the exercises as the last commit holds them (the stubs) into ``folder``,
    whatever a learner has written in the working copy since.

    Raises:
        OSError, subprocess.CalledProcessError: this copy is not a git checkout.
    """
    listing = subprocess.run(
        ["git", "ls-tree", "--name-only", "HEAD", "exercises/"],
        cwd=KIT_ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    folder.mkdir(parents=True)
    for name in listing:
        blob = subprocess.run(
            ["git", "show", f"HEAD:{name}"], cwd=KIT_ROOT, capture_output=True, check=True
        ).stdout
        (folder / Path(name).name).write_bytes(blob)
    return folder


@pytest.fixture(scope="session")
def committed_stubs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The stubs, as the last commit holds them, in a folder named ``exercises``."""
    try:
        return write_committed_stubs(tmp_path_factory.mktemp("committed") / "exercises")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("the stubs are read from the last commit: this copy is not a git checkout")
