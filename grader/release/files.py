"""Which files a learner's copy holds, and copying them there unchanged.

:data:`INSTRUCTOR_ONLY` is the one place that says what never reaches learners.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

# Paths (relative to the kit's root) that never reach learners. A trailing slash names a
# folder; anything else is a prefix of file paths.
INSTRUCTOR_ONLY: tuple[str, ...] = (
    "solutions/",
    "tests/",
    "benchmarks/",
    "docs/bench",
    ".ci/",
    # How the notebooks are authored; learners get the built notebooks themselves.
    "notebooks/build.py",
    "notebooks/src/",
)

# What a release holds when the kit is not a git checkout and there is no file list to use.
FALLBACK_INCLUDE: tuple[str, ...] = (
    "README.md",
    "LICENSE",
    "pyproject.toml",
    ".gitignore",
    "eventlog",
    "exercises",
    "grader",
    "sqlite_demo",
    "notebooks",
)
SKIPPED_PARTS = ("__pycache__", ".ipynb_checkpoints")

KIT_ROOT = Path(__file__).resolve().parents[2]


def is_instructor_only(relative_path: str) -> bool:
    """Tell whether a path (relative, with ``/`` separators) belongs to instructors only."""
    return any(
        relative_path.startswith(prefix) or relative_path == prefix.rstrip("/")
        for prefix in INSTRUCTOR_ONLY
    )


def tracked_files(kit_root: Path) -> list[str]:
    """List the kit's files: git's tracked files, or the fallback list outside a checkout.

    Returns:
        Relative paths with ``/`` separators, sorted, of files that exist on disk.
    """
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z"], cwd=kit_root, capture_output=True, check=True
        ).stdout.decode("utf-8")
        candidates: Iterable[str] = listing.split("\0")
    except (OSError, subprocess.CalledProcessError):
        candidates = fallback_files(kit_root)
    return sorted(path for path in candidates if path and (kit_root / path).is_file())


def fallback_files(kit_root: Path) -> list[str]:
    """List the files under :data:`FALLBACK_INCLUDE`, skipping caches."""
    found = []
    for name in FALLBACK_INCLUDE:
        top = kit_root / name
        paths = [top] if top.is_file() else sorted(top.rglob("*")) if top.is_dir() else []
        for path in paths:
            if path.is_file() and not set(path.relative_to(kit_root).parts) & set(SKIPPED_PARTS):
                found.append(path.relative_to(kit_root).as_posix())
    return found


def release_files(kit_root: Path) -> list[str]:
    """Return the files a learner's copy holds: the kit's files minus instructor-only ones."""
    return [path for path in tracked_files(kit_root) if not is_instructor_only(path)]


def write_copy(out_dir: Path, kit_root: Path = KIT_ROOT) -> list[str]:
    """Copy the learner's files into ``out_dir``, unchanged, and return their paths.

    Raises:
        FileExistsError: when ``out_dir`` exists and is not empty (a release never merges
            into an older one, which could keep files that should be gone).
        ValueError: when ``out_dir`` lies inside the kit, where it would copy itself.
    """
    out_dir = out_dir.resolve()
    if out_dir.is_relative_to(kit_root.resolve()):
        raise ValueError(f"{out_dir} is inside the kit; choose a folder outside it")
    if out_dir.exists() and any(out_dir.iterdir()):
        raise FileExistsError(f"{out_dir} is not empty")
    files = release_files(kit_root)
    for relative_path in files:
        target = out_dir / relative_path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(kit_root / relative_path, target)
    return files
