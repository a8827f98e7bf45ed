"""Folders other users cannot enter while a class is graded with uid isolation.

With a uid of its own but no sandbox (no bubblewrap: a Gradescope container), learner code
sees the whole file system. The guard refuses to read anything but the standard library and
the submission; the file system's own permissions refuse it too, below the guard: while a
batch runs, the whole kit (its reference, its tests' correct implementations, its git
history), the class folder and the outputs are closed to every user but their owner (root,
who grades). Closing a folder's own permission bits is enough: nothing under a folder others
cannot enter is reachable for them.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path


def kit_folders(kit: Path) -> list[Path]:
    """The kit's folder, and its git folder when that lies elsewhere (a ``git worktree``
    keeps the history, every commit of the reference included, in the main checkout)."""
    folders = [kit]
    dot_git = kit / ".git"
    if dot_git.is_file():
        pointer = dot_git.read_text(encoding="utf-8", errors="replace").strip()
        if pointer.startswith("gitdir:"):
            gitdir = (kit / pointer.removeprefix("gitdir:").strip()).resolve()
            common = gitdir / "commondir"
            if common.is_file():
                gitdir = (gitdir / common.read_text(encoding="utf-8").strip()).resolve()
            folders.append(gitdir)
    return folders


@contextlib.contextmanager
def closed_to_others(
    folders: Iterable[Path], keep_open: Iterable[str] = ()
) -> Iterator[list[Path]]:
    """Remove group and other permissions from each folder, and put them back afterwards.

    Args:
        folders: what to close (missing ones are skipped).
        keep_open: paths that must stay reachable (the interpreter the child runs): a folder
            holding one of them is left open, and its sub-folders are closed instead, but
            for those on the way to a kept path.

    Yields:
        The folders closed.
    """
    keep = [os.path.realpath(path) for path in keep_open]
    closed: list[tuple[Path, int]] = []
    try:
        pending = [Path(os.path.realpath(folder)) for folder in folders]
        while pending:
            real = pending.pop()
            if not real.is_dir() or real.is_symlink():
                continue
            if any(path == str(real) or path.startswith(str(real) + "/") for path in keep):
                pending += [entry for entry in real.iterdir() if entry.is_dir()]
                continue
            mode = stat.S_IMODE(real.stat().st_mode)
            if mode & 0o077:
                real.chmod(mode & 0o700)
                closed.append((real, mode))
        yield [path for path, _ in closed]
    finally:
        for path, mode in reversed(closed):
            with contextlib.suppress(OSError):
                path.chmod(mode)
