"""What a learner's copy holds: the one list to read, and to edit, to change it.

A learner gets the exercises, the whole grader, the shared rule module, the SQLite demo, the
built notebooks and the licence, each file exactly as committed. Four files are written for
learners instead of the kit's own, because the kit's talk about what learners do not get:
``README.md`` (the instructors' README points to ``solutions/``, ``tests/``, ``.ci/run`` and the
benchmarks), ``notebooks/README.md`` (it explains ``src/`` and ``build.py``),
``pyproject.toml`` (it installs, type-checks and configures those) and ``.gitignore`` (it
names the benchmarks' output). Their learner versions live in ``docs/learner/``. Anything
not named here (``solutions/``, ``tests/``, ``benchmarks/``, ``docs/``, ``.ci/``, the
notebooks' sources and tools) never reaches a learner.
"""

from __future__ import annotations

from collections.abc import Iterable
from fnmatch import fnmatchcase

from grader.i18n import text

# Committed files copied unchanged. "folder/" takes every file below it; "folder/*.ext" the
# matching files directly in that folder; anything else is one file.
COPIED: tuple[str, ...] = (
    "LICENSE",
    "eventlog/",
    "exercises/",
    "grader/",
    "sqlite_demo/",
    "notebooks/*.ipynb",
)

# Path in the copy -> the committed file written there in place of the kit's own.
WRITTEN_FOR_LEARNERS: dict[str, str] = {
    ".gitignore": "docs/learner/gitignore",
    "README.md": "docs/learner/README.md",
    "notebooks/README.md": "docs/learner/notebooks-README.md",
    "pyproject.toml": "docs/learner/pyproject.toml",
}


class ManifestError(ValueError):
    """The manifest names something the commit does not hold."""


def matches(entry: str, path: str) -> bool:
    """Tell whether a committed ``path`` (``/``-separated) falls under one ``COPIED`` entry."""
    if entry.endswith("/"):
        return path.startswith(entry)
    folder, _, pattern = entry.rpartition("/")
    parent, _, name = path.rpartition("/")
    return parent == folder and fnmatchcase(name, pattern)


def in_manifest(path: str) -> bool:
    """Tell whether a kit path (committed or not) would be part of a learner's copy."""
    return path in WRITTEN_FOR_LEARNERS.values() or any(matches(e, path) for e in COPIED)


def learner_files(committed: Iterable[str]) -> dict[str, str]:
    """Map each file of the learner's copy to the committed file it is written from.

    Args:
        committed: every file path in the commit being released.

    Returns:
        ``{path in the copy: committed path}``, sorted by path in the copy.

    Raises:
        ManifestError: when an entry matches no committed file, or a learner file is missing,
            so a renamed folder cannot silently drop out of every release.
    """
    committed = sorted(committed)
    files = {path: path for path in committed if any(matches(e, path) for e in COPIED)}
    unmatched = [entry for entry in COPIED if not any(matches(entry, p) for p in committed)]
    missing = [source for source in WRITTEN_FOR_LEARNERS.values() if source not in committed]
    if unmatched or missing:
        raise ManifestError(text("release.refused.manifest", paths=", ".join(unmatched + missing)))
    files.update(WRITTEN_FOR_LEARNERS)
    return dict(sorted(files.items()))
