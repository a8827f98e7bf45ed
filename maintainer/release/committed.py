"""Read the kit as it was last committed, through git, never from the working tree.

A release built from the working tree once carried an instructor's own edits of
``exercises/`` to learners. Reading blobs from a commit rules that out: what a learner gets is
what ``git show COMMIT:path`` shows, and an uncommitted edit cannot reach the copy.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from grader.i18n import text

# Modes of ordinary files in a git tree; links and submodules have others.
REGULAR_MODES = {"100644": 0o644, "100755": 0o755}


class NotACheckout(ValueError):
    """The kit is not a git checkout with a commit to release."""


@dataclass(frozen=True, slots=True)
class CommittedFile:
    """One entry of the commit's tree: its path, git mode and blob id."""

    path: str
    mode: str
    blob: str


def git(kit_root: Path, *arguments: str, stdin: bytes | None = None) -> bytes:
    """Run ``git ARGUMENTS`` in ``kit_root`` and return its output.

    Raises:
        NotACheckout: when git is missing or ``kit_root`` is not inside a git checkout.
        subprocess.CalledProcessError: when git fails for another reason.
    """
    try:
        done = subprocess.run(
            ["git", *arguments], cwd=kit_root, input=stdin, capture_output=True, check=True
        )
    except FileNotFoundError:
        raise NotACheckout(text("release.refused.no_git")) from None
    except subprocess.CalledProcessError as error:
        if b"not a git repository" in error.stderr:
            raise NotACheckout(text("release.refused.not_a_checkout", path=kit_root)) from None
        raise
    return done.stdout


def head_commit(kit_root: Path) -> str:
    """The full id of the commit checked out in ``kit_root``.

    Raises:
        NotACheckout: outside a checkout, or in one without any commit yet.
    """
    try:
        return git(kit_root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}").decode().strip()
    except subprocess.CalledProcessError:
        raise NotACheckout(text("release.refused.no_commit", path=kit_root)) from None


def committed_files(kit_root: Path, commit: str) -> list[CommittedFile]:
    """Every entry of the commit's tree below ``kit_root``, with paths relative to it."""
    # ls-tree run in a subfolder lists that subfolder, paths relative to it: the kit may sit
    # inside a larger repository.
    listing = git(kit_root, "ls-tree", "-r", "-z", commit).decode("utf-8")
    entries = []
    for line in filter(None, listing.split("\0")):
        meta, path = line.split("\t", 1)
        mode, _, blob = meta.split(" ")
        entries.append(CommittedFile(path, mode, blob))
    return entries


def read_blobs(kit_root: Path, blobs: list[str]) -> list[bytes]:
    """The contents of the given blobs, in order, from one ``git cat-file --batch`` run."""
    output = git(kit_root, "cat-file", "--batch", stdin="".join(f"{b}\n" for b in blobs).encode())
    contents, offset = [], 0
    for _ in blobs:
        header_end = output.index(b"\n", offset)
        size = int(output[offset:header_end].split(b" ")[2])
        contents.append(output[header_end + 1 : header_end + 1 + size])
        offset = header_end + 1 + size + 1  # the content is followed by one newline
    return contents


def uncommitted_changes(kit_root: Path, folder: str = ".") -> list[str]:
    """What differs from the commit below ``folder``: edits, staged changes, deletions and
    untracked files (ignored files such as caches do not count).

    Returns:
        ``git status --short`` lines (``" M exercises/replay.py"``), paths relative to the kit.
    """
    # Porcelain output gives paths from the repository's top, whatever folder git runs in.
    prefix = git(kit_root, "rev-parse", "--show-prefix").decode("utf-8").strip()
    status = git(kit_root, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", folder)
    entries, lines = iter(status.decode("utf-8").split("\0")), []
    for entry in entries:
        if entry:
            lines.append(entry[:3] + entry[3:].removeprefix(prefix))
            if entry[0] in "RC":
                next(entries, None)  # a rename or copy is followed by its original path
    return lines
