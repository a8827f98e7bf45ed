"""Folders other users cannot enter while a class is graded with uid isolation.

With a uid of its own but no sandbox (no bubblewrap: a Gradescope container), learner code
sees the whole file system. The guard refuses to read anything but the standard library and
the submission; the file system's own permissions refuse it too, below the guard: while a
batch runs, the kit's grader and reference, the class folder and the outputs are closed to
every user but their owner (root, who grades). Closing a folder's own permission bits is
enough: nothing under a folder others cannot enter is reachable for them.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path


@contextlib.contextmanager
def closed_to_others(
    folders: Iterable[Path], keep_open: Iterable[str] = ()
) -> Iterator[list[Path]]:
    """Remove group and other permissions from each folder, and put them back afterwards.

    Args:
        folders: what to close (missing ones are skipped).
        keep_open: paths that must stay reachable (the interpreter the child runs): a folder
            holding one of them is left as it is.

    Yields:
        The folders closed.
    """
    keep = [os.path.realpath(path) for path in keep_open]
    closed: list[tuple[Path, int]] = []
    try:
        for folder in folders:
            real = Path(os.path.realpath(folder))
            if not real.is_dir() or any(
                path == str(real) or path.startswith(str(real) + "/") for path in keep
            ):
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
