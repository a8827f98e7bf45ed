"""From what the user names (``exercises``, a folder, a file) to a private copy to grade.

The trusted side never imports learner code, so a target is found by looking at files only:
a module name is resolved without executing it (only the import system's finders run), a
folder or a file is taken as it is. Then it is copied, regular files and folders only, into a
private workspace next to a copy of the call server. The child sees only that workspace: not
the original (which it could change), not the kit (whose answers it could import).

What a folder means:

* a package (it has ``__init__.py``): imported by its own name, and reachable as
  ``exercises`` too, so a copy of ``exercises/`` under any name whose modules import
  ``exercises.event_log`` grades its own code, never the installed one;
* the exercise modules without ``__init__.py`` (``event_log.py``, ``sessions.py``,
  ``replay.py``, as uploaded to Gradescope): graded as the ``exercises`` package;
* otherwise, its single ``.py`` file or single package.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from grader import messages

#: The modules of ``exercises/``; a folder holding them is graded as that package.
EXERCISE_MODULES = ("event_log.py", "sessions.py", "replay.py")
EXERCISES = "exercises"
#: The kit itself (the folder holding ``grader``, and ``solutions`` where it exists).
KIT_ROOT = Path(__file__).resolve().parents[2]
EXERCISES_INIT = KIT_ROOT / "exercises" / "__init__.py"
CALLSERVER = Path(__file__).resolve().parents[1] / "callserver"
RUNTIME_PACKAGE = "grader_callserver"
#: A submission bigger than this is refused before anything is copied.
MAX_FILES = 500
MAX_BYTES = 20 * 1024 * 1024
IGNORED = ("__pycache__",)


class TargetError(Exception):
    """The target cannot be found or copied; ``str()`` is the message for the learner."""


@dataclass(frozen=True)
class Source:
    """Where a target's code is, and how the child imports it.

    Attributes:
        label: what the user asked for, for the report.
        path: the file or folder to copy.
        module: the package name to import, or None for a single file.
        exercise_folder: a folder of exercise modules without ``__init__.py``.
    """

    label: str
    path: Path
    module: str | None
    exercise_folder: bool = False


@dataclass(frozen=True)
class Workspace:
    """A private folder holding ``submission/`` (the copy) and ``runtime/`` (the call server)."""

    folder: Path
    source: Source

    @property
    def submission(self) -> Path:
        return self.folder / "submission"

    @property
    def runtime(self) -> Path:
        return self.folder / "runtime"

    @property
    def scratch(self) -> Path:
        return self.folder / "scratch"

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def open_to(self, uid: int) -> None:
        """Let ``uid`` read the copy and the call server and write its scratch folder only
        (for a child that runs as a user of its own without a sandbox)."""
        self.folder.chmod(0o711)
        for folder in (self.submission, self.runtime):
            for path in (folder, *folder.rglob("*")):
                path.chmod(0o755 if path.is_dir() else 0o644)
        os.chown(self.scratch, uid, uid)


def _error(spec: str, detail: str) -> TargetError:
    return TargetError(messages.LOAD_HEADING.format(target=spec) + "\n" + detail)


def resolve(spec: str) -> Source:
    """Find the code ``spec`` names, without running any of it.

    Raises:
        TargetError: nothing by that name, or a folder with no single submission in it.
    """
    if spec.endswith(".py") or os.sep in spec or (os.altsep and os.altsep in spec):
        return _from_path(spec, Path(spec).resolve())
    location = _locate_module(spec)
    if location is None:
        raise _error(spec, messages.LOAD_NOT_FOUND.format(target=spec))
    return _from_path(spec, location, module=spec.rsplit(".", 1)[-1])


def _locate_module(name: str) -> Path | None:
    """The file or package folder of a module, found by the import system's finders only."""
    top, *rest = name.split(".")
    try:
        spec = importlib.util.find_spec(top)  # a top-level name: nothing gets executed
    except (ImportError, ValueError):
        return None
    for part in rest:
        if spec is None or not spec.submodule_search_locations:
            return None
        spec = importlib.machinery.PathFinder.find_spec(part, spec.submodule_search_locations)
    if spec is None:
        return None
    if spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return Path(spec.origin) if spec.origin and spec.origin.endswith(".py") else None


def _from_path(spec: str, path: Path, module: str | None = None) -> Source:
    if path.is_file() and path.suffix == ".py":
        return Source(spec, path, None)
    if not path.is_dir():
        raise _error(spec, messages.LOAD_NOT_FOUND.format(target=spec))
    if (path / "__init__.py").is_file():
        name = module or path.name
        return Source(spec, path, name if name.isidentifier() else "submission")
    if any((path / name).is_file() for name in EXERCISE_MODULES):
        return Source(spec, path, EXERCISES, exercise_folder=True)
    inner = single_entry(path)
    if inner is None:
        raise _error(spec, messages.LOAD_NOT_FOUND.format(target=spec))
    return _from_path(spec, inner)


def single_entry(folder: Path) -> Path | None:
    """A folder's only ``.py`` file or only package, ignoring hidden and cache entries."""
    candidates = [
        entry
        for entry in sorted(folder.iterdir())
        if not entry.name.startswith(".")
        and entry.name not in IGNORED
        and not entry.is_symlink()
        and (
            (entry.is_file() and entry.suffix == ".py")
            or (entry.is_dir() and (entry / "__init__.py").is_file())
        )
    ]
    return candidates[0] if len(candidates) == 1 else None


def create(source: Source, parent: Path | None = None) -> Workspace:
    """Copy ``source`` and the call server into a new private folder (mode 0700).

    Raises:
        TargetError: the submission is larger than :data:`MAX_FILES` / :data:`MAX_BYTES`.
    """
    folder = Path(tempfile.mkdtemp(prefix="grader-", dir=parent))
    workspace = Workspace(folder, source)
    try:
        _copy_submission(source, workspace.submission)
        copy_tree(CALLSERVER, workspace.runtime / RUNTIME_PACKAGE, suffix=".py")
        workspace.scratch.mkdir()
    except BaseException:
        workspace.remove()
        raise
    return workspace


def _copy_submission(source: Source, destination: Path) -> None:
    destination.mkdir()
    budget = Budget(source.label)
    if source.module is None:
        copy_file(source.path, destination / source.path.name, budget)
        return
    package = destination / source.module
    copy_tree(source.path, package, budget=budget)
    if source.exercise_folder and not (package / "__init__.py").exists():
        copy_file(EXERCISES_INIT, package / "__init__.py")
    if source.module != EXERCISES:
        # A copy of exercises/ under another name still imports itself as ``exercises``
        # (``from exercises.event_log import ...``): let that name find the same files.
        (destination / EXERCISES).symlink_to(source.module, target_is_directory=True)


class Budget:
    """Counts what is copied and refuses, before copying it, the file that goes over."""

    def __init__(self, label: str) -> None:
        self.label, self.files, self.size = label, 0, 0

    def take(self, path: Path) -> None:
        self.files += 1
        self.size += path.stat().st_size
        if self.files > MAX_FILES or self.size > MAX_BYTES:
            detail = messages.LOAD_TOO_LARGE.format(files=MAX_FILES, size=MAX_BYTES // 2**20)
            raise _error(self.label, detail)


def copy_tree(
    source: Path, destination: Path, suffix: str | None = None, budget: Budget | None = None
) -> None:
    """Copy folders and regular files only: no symlink is followed, no FIFO is opened.

    A symlink could point at a classmate's submission or at the kit, and reading a FIFO would
    block the grader, so both are left out of the copy.
    """
    destination.mkdir(parents=True)
    for entry in sorted(source.iterdir()):
        mode = entry.lstat().st_mode
        if entry.name in IGNORED or stat.S_ISLNK(mode):
            continue
        if stat.S_ISDIR(mode):
            copy_tree(entry, destination / entry.name, suffix, budget)
        elif stat.S_ISREG(mode) and (suffix is None or entry.suffix == suffix):
            copy_file(entry, destination / entry.name, budget)


def copy_file(source: Path, destination: Path, budget: Budget | None = None) -> None:
    """Copy one regular file (never a link, a FIFO or a device), counting it in ``budget``."""
    if not stat.S_ISREG(source.lstat().st_mode):
        raise OSError(f"{source} is not a regular file")
    if budget is not None:
        budget.take(source)
    shutil.copyfile(source, destination, follow_symlinks=False)
    destination.chmod(0o644)
