"""Find the submissions in a folder, and copy every one of them before any is graded.

A submission is a ``.py`` file directly in the folder, or a folder (graded the way
``python -m grader --target FOLDER`` grades a folder: a package, a folder of exercise files,
or a folder holding a single ``.py`` file or package). Symbolic links are never followed: a
link could point at a classmate's submission, so a linked entry counts as no submission, and
links inside a folder are left out of its copy.

The copies are made first, all of them, into a private folder: from then on nothing a
submission does while it is graded can reach another one's original, or its copy.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path

from grader.sandbox.workspace import IGNORED, Budget, TargetError, copy_file, copy_tree, resolve


@dataclass(frozen=True, slots=True)
class Submission:
    """One learner's work: its id (file stem or folder name) and the private copy to grade.

    ``copy`` is None when the entry holds nothing to grade; ``error`` then says why, when
    there is more to say than "no single submission" (a submission that is too large).
    """

    id: str
    copy: Path | None
    error: str | None = None


def find_entries(root: Path) -> list[Path]:
    """The entries of ``root`` that are submissions: visible ``.py`` files and folders.

    Raises:
        NotADirectoryError: when ``root`` is not a folder.
    """
    if not root.is_dir():
        raise NotADirectoryError(root)
    return [
        entry
        for entry in sorted(root.iterdir())
        if not entry.name.startswith(".")
        and entry.name not in IGNORED
        and (entry.suffix == ".py" or stat.S_ISDIR(entry.lstat().st_mode))
    ]


def stage(root: Path, staging: Path) -> list[Submission]:
    """Copy every submission in ``root`` into ``staging``; return them sorted by id."""
    submissions = []
    for entry in find_entries(root):
        submission_id = entry.stem if entry.suffix == ".py" else entry.name
        submissions.append(_copy(submission_id, entry, staging / submission_id))
    return submissions


def _copy(submission_id: str, entry: Path, destination: Path) -> Submission:
    mode = entry.lstat().st_mode
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        return Submission(submission_id, None)
    budget = Budget(submission_id)
    try:
        if stat.S_ISREG(mode):
            destination.mkdir(parents=True)
            copy_file(entry, destination / entry.name, budget)
            return Submission(submission_id, destination / entry.name)
        copy_tree(entry, destination, budget=budget)
    except TargetError as too_large:
        return Submission(submission_id, None, str(too_large))
    try:
        resolve(str(destination))
    except TargetError:
        return Submission(submission_id, None)
    return Submission(submission_id, destination)
