"""Find the submissions in a folder: each ``.py`` file, and each folder holding one.

A submission is installed in its sandbox as the module ``exercises``, the name the grader
grades by default, so a learner's whole ``exercises/`` package works unchanged, including its
absolute imports such as ``from exercises.event_log import append_event``.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

SUBMISSION_MODULE = "exercises"
IGNORED_NAMES = ("__pycache__",)


@dataclass(frozen=True, slots=True)
class Submission:
    """One learner's work: its id (file stem or folder name) and the code to grade.

    ``source`` is a ``.py`` file or a package folder; it is None when a folder holds no
    single submission, which the batch records as a row of its own rather than skipping.
    """

    id: str
    source: Path | None


def is_visible(path: Path) -> bool:
    """Tell whether ``path`` is neither hidden nor a cache folder."""
    return not path.name.startswith(".") and path.name not in IGNORED_NAMES


def code_in_folder(folder: Path) -> Path | None:
    """Return the code a folder submits: itself when it is a package, else its one entry.

    Returns:
        The folder (when it has ``__init__.py``), its only ``.py`` file, its only package
        folder, or None when there is no single candidate.
    """
    if (folder / "__init__.py").is_file():
        return folder
    candidates = [
        entry
        for entry in sorted(folder.iterdir())
        if is_visible(entry)
        and (
            (entry.is_file() and entry.suffix == ".py")
            or (entry.is_dir() and (entry / "__init__.py").is_file())
        )
    ]
    return candidates[0] if len(candidates) == 1 else None


def find_submissions(root: Path) -> list[Submission]:
    """List the submissions directly inside ``root``, sorted by id.

    Raises:
        NotADirectoryError: when ``root`` is not a folder.
    """
    if not root.is_dir():
        raise NotADirectoryError(root)
    submissions = []
    for entry in sorted(root.iterdir()):
        if not is_visible(entry):
            continue
        if entry.is_file() and entry.suffix == ".py":
            submissions.append(Submission(entry.stem, entry))
        elif entry.is_dir():
            submissions.append(Submission(entry.name, code_in_folder(entry)))
    return submissions


def install_submission(source: Path, sandbox: Path) -> None:
    """Copy a submission into ``sandbox`` as the module ``exercises`` (file or package)."""
    if source.is_dir():
        shutil.copytree(
            source,
            sandbox / SUBMISSION_MODULE,
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
        )
    else:
        shutil.copy2(source, sandbox / f"{SUBMISSION_MODULE}.py")
