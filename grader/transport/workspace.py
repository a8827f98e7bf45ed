"""From what the user names (``exercises``, a folder, a file) to a private copy to grade.

The trusted side never imports learner code, so a target is found by looking at files only:
a module name is resolved without executing it (only the import system's finders run), a
folder or a file is taken as it is. Then its Python files are copied, folders and regular
``.py`` files only, into a private workspace: the child sees only that copy, not the
original (which it could change) and not the kit (whose answers it could import). Nothing
but ``.py`` files is copied: a ``.pyc`` or a zip shipped with a submission could carry
hand-made bytecode.

What a folder means:

* a package (it has ``__init__.py``): imported by its own name, and reachable as
  ``exercises`` too, so a copy of ``exercises/`` under any name whose modules import
  ``exercises.event_log`` grades its own code, never the installed one;
* the exercise modules without ``__init__.py`` (``event_log.py``, ``sessions.py``,
  ``replay.py``, as uploaded to Gradescope): graded as the ``exercises`` package;
* a folder holding one ``.py`` file that defines the five functions (whatever its name, also
  ``event_log.py``): graded as that single file;
* otherwise, its single package.
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

#: The modules of ``exercises/``; a folder holding two or more of them is that package.
EXERCISE_MODULES = ("event_log.py", "sessions.py", "replay.py")
EXERCISES = "exercises"
#: The kit itself (the folder holding ``grader``, and ``solutions`` where it exists).
KIT_ROOT = Path(__file__).resolve().parents[2]
EXERCISES_INIT = KIT_ROOT / "exercises" / "__init__.py"
#: A submission bigger than this is refused before anything is copied.
MAX_FILES = 500
MAX_BYTES = 20 * 1024 * 1024
#: Folders deeper than this are not followed (a submission nested 1,200 deep is refused).
MAX_DEPTH = 24
IGNORED = ("__pycache__",)


class TargetError(Exception):
    """The target cannot be found or copied; ``reason`` says why, ``detail`` fills it in.

    Reasons: ``not_found``, ``too_large``, ``too_deep``, ``unreadable``.
    """

    def __init__(self, reason: str, target: str, detail: object = "") -> None:
        super().__init__(reason, target, detail)
        self.reason, self.target, self.detail = reason, target, detail


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
    """A private folder holding ``submission/`` (the copy) and ``scratch/`` (its temp folder)."""

    folder: Path
    source: Source

    @property
    def submission(self) -> Path:
        return self.folder / "submission"

    @property
    def scratch(self) -> Path:
        return self.folder / "scratch"

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def give_to(self, uid: int) -> None:
        """Let ``uid`` (and nobody else but root) read the copy and write the scratch folder.

        The workspace's own folder stays root's (others may only pass through it), so the
        sweep of what a uid left in ``/tmp`` never takes the workspace with it.
        """
        self.folder.chmod(0o711)
        for path in (self.submission, *self.submission.rglob("*")):
            os.chown(path, uid, uid, follow_symlinks=False)
            if not path.is_symlink():
                path.chmod(0o500 if path.is_dir() else 0o400)
        os.chown(self.scratch, uid, uid)
        self.scratch.chmod(0o700)


def resolve(spec: str) -> Source:
    """Find the code ``spec`` names, without running any of it.

    Raises:
        TargetError: nothing by that name, or a folder with no single submission in it.
    """
    if spec.endswith(".py") or os.sep in spec or (os.altsep and os.altsep in spec):
        return _from_path(spec, Path(spec).resolve())
    location = _locate_module(spec)
    if location is None:
        raise TargetError("not_found", spec)
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
        raise TargetError("not_found", spec)
    if (path / "__init__.py").is_file():
        name = module or path.name
        return Source(spec, path, name if name.isidentifier() else "submission")
    inner = single_entry(path)
    if inner is not None and inner.is_file():
        return Source(spec, inner, None)  # one file: whatever it is called, it is the answer
    if sum((path / name).is_file() for name in EXERCISE_MODULES) >= 1:
        return Source(spec, path, EXERCISES, exercise_folder=True)
    if inner is None:
        raise TargetError("not_found", spec)
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
    """Copy ``source`` into a new private folder (mode 0700).

    Raises:
        TargetError: the submission is too large or too deep.
    """
    folder = Path(tempfile.mkdtemp(prefix="grader-", dir=parent))
    workspace = Workspace(folder, source)
    try:
        _copy_submission(source, workspace.submission)
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
        self.size += path.lstat().st_size
        if self.files > MAX_FILES or self.size > MAX_BYTES:
            raise TargetError("too_large", self.label, (MAX_FILES, MAX_BYTES // 2**20))


def copy_tree(
    source: Path, destination: Path, suffix: str = ".py", budget: Budget | None = None
) -> None:
    """Copy folders and regular ``suffix`` files only, at most :data:`MAX_DEPTH` deep.

    No symlink is followed (it could point at a classmate's submission or at the kit), no
    FIFO is opened (reading one would block), and the walk is a loop, not a recursion, so a
    very deep tree costs a refusal, never a crash.
    """
    pending = [(source, destination, 0)]
    while pending:
        here, there, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise TargetError("too_deep", budget.label if budget else str(source), MAX_DEPTH)
        there.mkdir(parents=True, exist_ok=depth == 0)
        for entry in sorted(here.iterdir()):
            mode = entry.lstat().st_mode
            if entry.name in IGNORED or stat.S_ISLNK(mode):
                continue
            if stat.S_ISDIR(mode):
                pending.append((entry, there / entry.name, depth + 1))
            elif stat.S_ISREG(mode) and entry.suffix == suffix:
                copy_file(entry, there / entry.name, budget)


def copy_file(source: Path, destination: Path, budget: Budget | None = None) -> None:
    """Copy one regular file (never a link, a FIFO or a device), counting it in ``budget``.

    A file with several hard links is refused: a link planted in a class folder can point at
    a file the learner could not read (the grader, running as root, could).
    """
    info = source.lstat()
    if not stat.S_ISREG(info.st_mode):
        raise OSError(f"{source} is not a regular file")
    if info.st_nlink > 1:
        raise TargetError("unreadable", budget.label if budget else str(source), source.name)
    if budget is not None:
        budget.take(source)
    shutil.copyfile(source, destination, follow_symlinks=False)
    destination.chmod(0o644)
