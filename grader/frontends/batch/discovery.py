"""Find the submissions in a folder, name each one, and copy every one before any is graded.

A submission is a ``.py`` file directly in the folder, or a folder (graded the way
``python -m grader --target FOLDER`` grades one). Its id is its name (a file's without
``.py``), made printable: a name that is not UTF-8 shows its odd bytes as escapes, control
characters as escapes too. Two entries whose ids would read the same (a folder ``x/`` beside
a file ``x.py``, names that differ only by case or Unicode form) each keep a row: the later
gets a ``~2`` suffix and a note saying whom it collides with. Symbolic links are never
followed; an entry that holds nothing to grade gets a row saying why.

The copies are made first, all of them, into a private folder, by a loop that refuses what
is too large or too deep: from then on nothing a submission does can reach another one's
original or copy, and nothing in the class folder can crash the batch.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from grader.engine.outcomes import Said
from grader.frontends.report import printable
from grader.transport.workspace import IGNORED, Budget, TargetError, copy_file, copy_tree, resolve

_SAFE = re.compile(r"[^A-Za-z0-9._-]")


@dataclass(frozen=True)
class Submission:
    """One learner's work: its id, the file names its outputs get, and the copy to grade.

    ``copy`` is None when the entry holds nothing to grade; ``problem`` then says why.
    ``notes`` are what the instructor should know about its name.
    """

    id: str
    slug: str
    copy: Path | None
    problem: Said | None = None
    notes: tuple[Said, ...] = ()


def readable_name(raw: bytes) -> str:
    """A file name as printable text: odd bytes and control characters as escapes."""
    decoded = raw.decode("utf-8", "surrogateescape")
    return "".join(
        f"\\x{ord(char) - 0xDC00:02x}" if 0xDC80 <= ord(char) <= 0xDCFF else printable(char)
        for char in decoded
    )


def slug(submission_id: str) -> str:
    """A file name for the submission's outputs: its id when that is plain, else a plain
    version of it with a short hash (so two odd ids never share a file)."""
    plain = _SAFE.sub("_", submission_id).strip("._") or "submission"
    if plain == submission_id and not submission_id.startswith("-"):
        return submission_id
    digest = hashlib.sha256(submission_id.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{plain[:60]}-{digest}"


def find_entries(root: Path) -> list[bytes]:
    """The raw names of the entries of ``root`` that are submissions (``.py`` files, folders,
    and links, which are refused later), sorted.

    Raises:
        NotADirectoryError: ``root`` is not a folder.
    """
    if not root.is_dir():
        raise NotADirectoryError(root)
    names = []
    for raw in sorted(os.listdir(os.fsencode(root))):
        name = raw.decode("utf-8", "surrogateescape")
        if name.startswith(".") or name in IGNORED:
            continue
        mode = os.lstat(os.path.join(os.fsencode(root), raw)).st_mode
        # A link is never followed, but it gets a row: a learner whose folder is a link to
        # somewhere else must not silently vanish from the gradebook.
        if raw.endswith(b".py") or stat.S_ISDIR(mode) or stat.S_ISLNK(mode):
            names.append(raw)
    return names


def stage(root: Path, staging: Path) -> list[Submission]:
    """Copy every submission in ``root`` into ``staging``; return them in name order."""
    submissions: list[Submission] = []
    taken: dict[str, str] = {}
    for number, raw in enumerate(find_entries(root), start=1):
        source = Path(os.fsdecode(os.path.join(os.fsencode(root), raw)))
        name = readable_name(raw[:-3] if raw.endswith(b".py") and _is_file(source) else raw)
        submission_id, notes = _unique(name, readable_name(raw), taken)
        submissions.append(_copy(submission_id, source, staging / f"{number:04d}", notes))
    return submissions


def _is_file(path: Path) -> bool:
    return stat.S_ISREG(path.lstat().st_mode)


def _unique(name: str, shown: str, taken: dict[str, str]) -> tuple[str, tuple[Said, ...]]:
    """``name``, or ``name~2``... when an earlier entry's id reads the same."""
    key = unicodedata.normalize("NFC", name).casefold()
    if key not in taken:
        taken[key] = shown
        return name, ()
    suffix = 2
    while f"{key}~{suffix}" in taken:
        suffix += 1
    taken[f"{key}~{suffix}"] = shown
    return f"{name}~{suffix}", (
        Said("batch.note.same_name", {"entry": shown, "other": taken[key]}),
    )


def _copy(
    submission_id: str, entry: Path, destination: Path, notes: tuple[Said, ...]
) -> Submission:
    named = slug(submission_id)
    mode = entry.lstat().st_mode
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        return Submission(submission_id, named, None, Said("batch.ungraded.not_a_file"), notes)
    budget = Budget(submission_id)
    try:
        if stat.S_ISREG(mode):
            destination.mkdir(parents=True)
            target = destination / "submission.py"  # whatever its own name: it may not be UTF-8
            copy_file(entry, target, budget)
            return Submission(submission_id, named, target, None, notes)
        copy_tree(entry, destination, budget=budget)
        resolve(str(destination))
    except TargetError as error:
        return Submission(submission_id, named, None, _problem(error), notes)
    except (OSError, UnicodeError) as error:
        return Submission(
            submission_id,
            named,
            None,
            Said("batch.ungraded.unreadable", {"error": str(error)[:200]}),
            notes,
        )
    return Submission(submission_id, named, destination, None, notes)


def _problem(error: TargetError) -> Said:
    if error.reason == "too_large":
        files, size = cast(tuple[int, int], error.detail)
        return Said("load.too_large", {"files": files, "size": size})
    if error.reason == "too_deep":
        return Said("load.too_deep", {"depth": error.detail})
    if error.reason == "unreadable":
        return Said("load.unreadable", {"name": printable(str(error.detail))})
    return Said("batch.ungraded.no_submission")
