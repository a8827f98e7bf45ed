"""A uid child's own view of the folders anyone may write: one small tmpfs over all of them.

Where the grader is root and ``unshare --mount`` works, a child with a uid of its own starts
as ``unshare --mount --ipc [--net] -- /bin/sh -c SCRIPT sh PYTHON...``: the script, still
root, mounts one tmpfs the size of the write budget in the workspace (``budget/``), gives
each folder any user may write a folder of it (same mode, same owner), binds each over its
folder, binds the budget's ``scratch/`` over the child's scratch folder, makes every file any
user may write read-only, and then runs the interpreter, which drops to the uid before any
learner code runs.

So whatever learner code writes, by any route (SQLite, a FIFO, a file in ``/dev/shm``), lands
in that tmpfs: at most the budget in bytes and in files (the kernel refuses the rest, with
``ENOSPC``), never on the machine, never seen by another submission, and gone with the
namespace when the child's last process ends. Its own IPC namespace takes SysV and POSIX
message queues with it. The paths stay the same: the workspace (which lives in ``/tmp``) is
bound back at its own path inside the new ``/tmp``.
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

from grader.transport.writable import Budget, Writable, outermost

#: What the tmpfs holds beyond the budget: its own folders (one per covered folder, the
#: scratch folder, the path to the workspace), and room for a submission that goes past the
#: budget to be seen doing it (the ledger reports more than the budget; the kernel stops it
#: a little further on).
SPARE_FILES = 8
SPARE_BYTES = 1024 * 1024


@functools.cache
def private_mounts_work() -> bool:
    """Whether a child can get a mount namespace with a tmpfs of its own (root, ``unshare``
    and ``mount`` working here; tried once per process)."""
    if os.getuid() != 0 or shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    with tempfile.TemporaryDirectory(prefix="grader-mounts-") as folder:
        probe = ["unshare", "--mount", "--ipc", "--", "mount", "-t", "tmpfs", "-o", "size=4k",
                 "grader-probe", folder]  # fmt: skip
        try:
            finished = subprocess.run(probe, capture_output=True, timeout=10, check=False)
        except (OSError, subprocess.SubprocessError):
            return False
    return finished.returncode == 0


def prefix(workspace: Path, scratch: Path, writable: Writable, budget: Budget,
           own_network: bool) -> list[str]:  # fmt: skip
    """What goes before the interpreter's command line to give it the private folders."""
    namespaces = ["--mount", "--ipc", *(["--net"] if own_network else [])]
    return ["unshare", *namespaces, "--", "/bin/sh", "-c",
            script(workspace, scratch, writable, budget), "sh"]  # fmt: skip


def script(workspace: Path, scratch: Path, writable: Writable, budget: Budget) -> str:
    """The shell script (run as root in the new namespace) that mounts, then runs ``"$@"``."""
    folders = outermost(writable.folders)
    holder = next((folder for folder in folders if _holds(folder, workspace)), None)
    inodes = budget.files + len(folders) + len(workspace.parts) + SPARE_FILES
    lines = [
        "set -eu",
        f"budget={_q(workspace / 'budget')}",
        'mkdir -p -m 0700 "$budget"',  # the workspace's next child finds it made
        f"mount -t tmpfs -o size={budget.size + SPARE_BYTES},nr_inodes={inodes},mode=0711,"
        'nosuid,nodev,noexec grader-writes "$budget"',
        'mkdir -m 0700 "$budget/scratch"',
        f'chown {_owner(scratch)} "$budget/scratch"',
    ]
    for number, folder in enumerate(folders):
        lines += _copy_of(folder, f'"$budget/{number}"')
    for number, folder in enumerate(folders):
        if folder != holder:
            lines.append(f'mount --bind "$budget/{number}" {_q(folder)}')
    if holder is None:
        lines.append(f'mount --bind "$budget/scratch" {_q(scratch)}')
    else:
        # The workspace is inside a folder about to be covered: make its path in the copy,
        # bind it there (its scratch folder the budget's), then cover the folder, last.
        copy = f'"$budget/{folders.index(holder)}"/{_q(str(workspace.relative_to(holder)))}'
        lines += [
            f"mkdir -p {copy}",
            f"chmod {_mode(workspace)} {copy}",
            f"mount --bind {_q(workspace)} {copy}",
            f'mount --bind "$budget/scratch" {copy}/{_q(scratch.name)}',
            # --rbind: the new folder brings the two binds just made inside it along.
            f'mount --rbind "$budget/{folders.index(holder)}" {_q(holder)}',
        ]
    for path in writable.files:
        lines += [f"mount --bind {_q(path)} {_q(path)}",
                  f"mount -o remount,bind,ro {_q(path)}"]  # fmt: skip
    lines.append('exec "$@"')
    return "\n".join(lines)


def _copy_of(folder: str, copy: str) -> list[str]:
    return [f"mkdir {copy}", f"chmod {_mode(Path(folder))} {copy}",
            f"chown {_owner(Path(folder))} {copy}"]  # fmt: skip


def _holds(folder: str, path: Path) -> bool:
    return str(path).startswith(folder.rstrip("/") + "/")


def _mode(path: Path) -> str:
    return format(path.stat().st_mode & 0o7777, "o")


def _owner(path: Path) -> str:
    info = path.stat()
    return f"{info.st_uid}:{info.st_gid}"


def _q(path: object) -> str:
    return shlex.quote(str(path))
