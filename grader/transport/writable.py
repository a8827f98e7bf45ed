"""Where learner code running as a uid of its own could write, and what it left there.

With bubblewrap the child sees one writable folder, a private 16 MiB ``/tmp`` that dies with
the sandbox. With a uid of its own it sees the machine's file system, and any user may
write in the folders anyone may write: ``/tmp``, ``/var/tmp``, ``/dev/shm``, ``/run/lock``
(``/var/lock``), a mounted ``/dev/mqueue``, whatever this machine adds. :func:`found` walks
every mount once per process (the batch hands its list to its grading processes) and keeps
those folders. Then, for each child:

* where root may mount (``unshare --mount`` works), the child gets a mount namespace of its
  own with one small tmpfs over every one of those folders and its scratch folder
  (:mod:`.mounts`): whatever it writes, however, lands there, the kernel refuses what goes
  past the budget, and it all goes with the namespace;
* where it may not, the folders are shared: what the child's uid holds in them is measured
  after every request, and every 0.1 s while one runs (:class:`Ledger`), and removed when
  the child stops (:func:`remove_files_of`).

Either way a submission whose uid holds more than the write budget (the guard's 16 files,
each capped by the file size limit) gets a report, and its grade is ``tampered``: past the
guard's count, only a route around the guard writes that much.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

#: How many files and folders learner code may make, as the guard counts them
#: (``MAX_WRITES`` in :mod:`grader.kernel.guard`; a test keeps the two equal).
WRITE_FILES = 16
#: File systems that hold no files a user could leave behind (or that only root may write).
PSEUDO_FILE_SYSTEMS = frozenset({
    "proc", "sysfs", "cgroup", "cgroup2", "devpts", "securityfs", "debugfs", "tracefs", "bpf",
    "pstore", "configfs", "fusectl", "binfmt_misc", "autofs", "rpc_pipefs", "nsfs", "efivarfs",
    "selinuxfs",
})  # fmt: skip
#: Where the batch hands its list to its grading processes (each would walk again).
ENVIRONMENT = "GRADER_WRITABLE"
#: What a report of a budget overrun is called (the engine makes its submission tampered).
OVER_BUDGET = "write_budget"


@dataclass(frozen=True)
class Writable:
    """What any user may write: folders (``folders``), and files (``files``, writable in place:
    a channel no cleaning empties, made read-only where mounts are private)."""

    folders: tuple[str, ...]
    files: tuple[str, ...] = ()


@dataclass(frozen=True)
class Budget:
    """What one child may hold: files and folders, and bytes in all."""

    files: int
    size: int


@dataclass(frozen=True)
class Holding:
    """What a uid holds: how many entries, how many bytes, and in which of the roots."""

    files: int = 0
    size: int = 0
    where: tuple[str, ...] = ()

    def over(self, budget: Budget) -> bool:
        return self.files > budget.files or self.size > budget.size


@functools.cache
def found() -> Writable:
    """The folders and files any user may write here: the batch's list when it gave one,
    else :func:`find` (once per process)."""
    given = os.environ.get(ENVIRONMENT)
    if given:
        data = json.loads(given)
        return Writable(tuple(data["folders"]), tuple(data["files"]))
    return find()


def handed_down(writable: Writable) -> dict[str, str]:
    """The environment that gives ``writable`` to the batch's grading processes."""
    return {ENVIRONMENT: json.dumps({"folders": writable.folders, "files": writable.files})}


def find() -> Writable:
    """Walk every mount that holds real files, and keep what a user with no groups of its
    own may write: folders with the write bit for others, on a path whose every folder lets
    others pass (a folder others cannot enter hides what is inside it). Symbolic links are
    not followed (``/var/lock`` is ``/run/lock``); access control lists are not read."""
    folders: list[str] = []
    files: list[str] = []
    for point in _mount_points():
        try:
            info = os.stat(point)
        except OSError:
            continue
        if not _passable(point):
            continue
        if info.st_mode & stat.S_IWOTH:
            folders.append(point)
        _walk(point, info.st_dev, folders, files)
    return Writable(tuple(sorted(set(folders))), tuple(sorted(set(files))))


def _mount_points() -> list[str]:
    """Every mount of a file system that holds files, writable, outermost first."""
    points = set()
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return ["/"]
    for line in lines:
        mount, _, system = line.partition(" - ")
        fields, kind = mount.split(), system.split()[0]
        if kind in PSEUDO_FILE_SYSTEMS or "ro" in fields[5].split(","):
            continue
        points.add(_unescape(fields[4]))
    return sorted(points, key=lambda point: (point.count("/"), point))


def _unescape(field: str) -> str:
    """A mountinfo path, whose spaces and tabs are written as octal escapes."""
    for code in ("\\040", "\\011", "\\012", "\\134"):
        field = field.replace(code, chr(int(code[1:], 8)))
    return field


def _passable(path: str) -> bool:
    """Whether others may pass through every folder on the way to ``path``."""
    parts = Path(path).parts
    for end in range(1, len(parts)):
        try:
            if not os.stat(os.path.join(*parts[:end])).st_mode & stat.S_IXOTH:
                return False
        except OSError:
            return False
    return True


def _walk(root: str, device: int, folders: list[str], files: list[str]) -> None:
    """Below ``root`` on its own file system, into folders others may pass only."""
    for path, info in _tree(root, lambda info: info.st_dev == device and _others_may_pass(info)):
        if info.st_dev != device:
            continue  # another mount: walked from its own mount point
        if stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_IWOTH:
            folders.append(path)
        elif stat.S_ISREG(info.st_mode) and info.st_mode & stat.S_IWOTH:
            files.append(path)


def _others_may_pass(info: os.stat_result) -> bool:
    return bool(info.st_mode & stat.S_IXOTH)


def _tree(
    root: str, enter: Callable[[os.stat_result], bool]
) -> Iterator[tuple[str, os.stat_result]]:
    """Every entry below ``root`` with its ``lstat``, by a loop (trees nest deep), going into
    the folders ``enter`` admits; what cannot be read is passed over."""
    pending = [root]
    while pending:
        try:
            entries = os.scandir(pending.pop())
        except OSError:
            continue
        with entries:
            for entry in entries:
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                yield entry.path, info
                if stat.S_ISDIR(info.st_mode) and enter(info):
                    pending.append(entry.path)


def outermost(folders: tuple[str, ...]) -> tuple[str, ...]:
    """``folders`` without those inside another of them (covering one covers both)."""
    return tuple(
        folder
        for folder in folders
        if not any(folder != other and _inside(folder, other) for other in folders)
    )


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


class Ledger:
    """What one uid holds under ``roots``, measured after every request.

    Every folder it may have written is read each time (cheap), but an entry is looked at
    (``stat``) only when it is new, or belongs to a sandbox uid (``sandbox_from`` and above:
    this one, or another child's that may change its modes): a busy ``/tmp`` costs a listing,
    not a ``stat`` of each of its files.
    """

    def __init__(
        self, uid: int, roots: tuple[str, ...], sandbox_from: int, through: str = ""
    ) -> None:
        """``through``: where the roots are seen from (``/proc/PID/root`` for a child with
        folders of its own); the holding names them as the child sees them."""
        self.uid, self.roots, self._sandbox_from = uid, roots, sandbox_from
        self._through = through
        self._settled: dict[tuple[str, int], bool] = {}  # (path, inode) -> a folder to enter

    def measure(self) -> Holding:
        files = size = 0
        where = []
        for root in self.roots:
            found_here, bytes_here = self._measure(self._through + root)
            files, size = files + found_here, size + bytes_here
            if found_here:
                where.append(root)
        return Holding(files, size, tuple(where))

    def _measure(self, root: str) -> tuple[int, int]:
        files = size = 0
        pending = [root]
        while pending:
            try:
                entries = os.scandir(pending.pop())
            except OSError:
                continue
            with entries:
                for entry in entries:
                    key = (entry.path, entry.inode())
                    settled = self._settled.get(key)
                    if settled is not None:
                        if settled:
                            pending.append(entry.path)
                        continue
                    try:
                        info = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    if info.st_uid == self.uid:
                        files += 1
                        size += info.st_size if stat.S_ISREG(info.st_mode) else 0
                    enter = stat.S_ISDIR(info.st_mode) and _may_hold(info, self.uid)
                    if enter:
                        pending.append(entry.path)
                    if info.st_uid < self._sandbox_from:
                        self._settled[key] = enter
        return files, size


def _may_hold(info: os.stat_result, uid: int) -> bool:
    """Whether a folder may hold what ``uid`` made: its own, or one anyone may write."""
    return info.st_uid == uid or bool(info.st_mode & stat.S_IWOTH)


def _entries_of(uid: int, root: str) -> list[tuple[str, os.stat_result]]:
    """Every entry ``uid`` owns under ``root`` (not crossing into other mounts). Only a
    folder ``uid`` owns, or one anyone may write, can hold something it made: the walk
    goes into those alone, and so never through the rest of a busy ``/tmp``."""
    try:
        device = os.lstat(root).st_dev
    except OSError:
        return []
    return [
        (path, info)
        for path, info in _tree(root, lambda info: info.st_dev == device and _may_hold(info, uid))
        if info.st_uid == uid
    ]


def remove_files_of(uid: int, roots: tuple[str, ...]) -> None:
    """Delete everything ``uid`` owns under ``roots`` (a folder of its, whole)."""
    for root in roots:
        for path, info in _entries_of(uid, root):
            try:
                if stat.S_ISDIR(info.st_mode):
                    shutil.rmtree(path, ignore_errors=True)
                elif os.path.lexists(path):
                    os.unlink(path)
            except OSError:
                continue


def over_budget(holding: Holding, budget: Budget) -> dict[str, str]:
    """The report of a uid holding more than ``budget`` (the engine reads it as tampering)."""
    return {
        "event": OVER_BUDGET,
        "detail": f"{holding.files} files, {holding.size} bytes > "
        f"{budget.files} files, {budget.size} bytes",
        "where": ", ".join(holding.where)[:200],
        "files": str(holding.files),
        "size": str(holding.size),
        "max_files": str(budget.files),
        "max_size": str(budget.size),
    }
