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

A copy in another language (``release DEST --lang zh``) is the same list with the learner's
words in that language: :data:`TRANSLATED` names the committed files written in place of the
English ones (the READMEs, the exercises with their docstrings translated, the notebooks
built in that language, and the ``edition.py`` that makes the grader, the demo and the live
page speak it by default).
"""

from __future__ import annotations

from collections.abc import Iterable
from fnmatch import fnmatchcase

from grader.i18n import text
from grader.transport.workspace import EXERCISE_MODULES

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


#: Language -> {path in the copy: the committed file written there instead}. Each notebook
#: ``notebooks/NAME.ipynb`` of the copy comes from ``notebooks/<language>/NAME.ipynb``.
TRANSLATED: dict[str, dict[str, str]] = {
    "zh": {
        "README.md": "docs/learner/zh/README.md",
        "notebooks/README.md": "docs/learner/zh/notebooks-README.md",
        # The Chinese stubs, one for each exercise module the grader knows.
        **{
            f"exercises/{name}": f"docs/learner/zh/exercises/{name}"
            for name in ("__init__.py", *EXERCISE_MODULES)
        },
        "grader/i18n/edition.py": "docs/learner/zh/edition.py",
    },
}
ENGLISH = "en"
LANGUAGES = (ENGLISH, *TRANSLATED)


class ManifestError(ValueError):
    """The manifest names something the commit does not hold."""


def matches(entry: str, path: str) -> bool:
    """Tell whether a committed ``path`` (``/``-separated) falls under one ``COPIED`` entry."""
    if entry.endswith("/"):
        return path.startswith(entry)
    folder, _, pattern = entry.rpartition("/")
    parent, _, name = path.rpartition("/")
    return parent == folder and fnmatchcase(name, pattern)


def in_manifest(path: str, language: str = ENGLISH) -> bool:
    """Tell whether a kit path (committed or not) would be part of a learner's copy."""
    translated = TRANSLATED.get(language, {})
    notebook = bool(translated) and matches(f"notebooks/{language}/*.ipynb", path)
    if path in translated.values() or notebook:
        return True
    return path in WRITTEN_FOR_LEARNERS.values() or any(matches(e, path) for e in COPIED)


def learner_files(committed: Iterable[str], language: str = ENGLISH) -> dict[str, str]:
    """Map each file of the learner's copy to the committed file it is written from.

    Args:
        committed: every file path in the commit being released.
        language: the copy's language; English, or one of :data:`TRANSLATED`.

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
    files.update(translated_files(files, set(committed), language))
    return dict(sorted(files.items()))


def translated_files(files: dict[str, str], committed: set[str], language: str) -> dict[str, str]:
    """The files of an English copy that a copy in ``language`` takes from elsewhere.

    Raises:
        ManifestError: a translation the commit does not hold (a notebook not built in that
            language, say).
    """
    if language == ENGLISH:
        return {}
    chosen = dict(TRANSLATED[language])
    for path in files:
        if matches("notebooks/*.ipynb", path):
            chosen[path] = f"notebooks/{language}/{path.removeprefix('notebooks/')}"
    missing = sorted(source for source in chosen.values() if source not in committed)
    if missing:
        raise ManifestError(text("release.refused.manifest", paths=", ".join(missing)))
    return chosen
