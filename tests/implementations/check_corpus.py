"""Load the corpus of standalone implementations, and list it.

Each file under ``correct/`` and ``wrong/`` is a learner-style submission: one module that
defines the five functions and imports only the standard library. ``wrong/`` files also
carry ``BREAKS_TASK`` (the grader task that must lose points) and ``BASED_ON`` (the correct
file they were copied from).

Run ``python -m tests.implementations.check_corpus`` to print the corpus as a table.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path
from types import ModuleType

CORPUS_DIR = Path(__file__).resolve().parent
CORRECT_DIR = CORPUS_DIR / "correct"
WRONG_DIR = CORPUS_DIR / "wrong"
TASK_IDS = ("append_and_ids", "read_and_resume", "list_sessions", "replay", "reject_bad_input")
FUNCTION_NAMES = (
    "create_event_log",
    "append_event",
    "get_events_for_session",
    "list_sessions",
    "replay_session",
)

_load_counter = itertools.count(1)


def load_implementation(path: Path | str) -> ModuleType:
    """Import the file at ``path`` as a fresh module under a name no other load uses.

    Every call returns a new module object, so state a file keeps at module level (a cache,
    a counter) never carries over from one load to the next.

    Raises:
        ImportError: if the file cannot be loaded as a module.
    """
    path = Path(path)
    name = f"corpus_{path.parent.name}_{path.stem}_{next(_load_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path} as a module")
    module = importlib.util.module_from_spec(spec)
    # dataclasses look their module up in sys.modules while building the class.
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.py") if p.name != "__init__.py")


def correct_files() -> list[Path]:
    """Return the paths of the correct implementations, sorted by name."""
    return _files(CORRECT_DIR)


def wrong_files() -> list[Path]:
    """Return the paths of the subtly wrong implementations, sorted by name."""
    return _files(WRONG_DIR)


def describe(path: Path) -> str:
    """Return one line: the file's stem, its ``BREAKS_TASK`` (or ``-``) and its first paragraph."""
    module = load_implementation(path)
    summary = " ".join((module.__doc__ or "").strip().split("\n\n")[0].split())
    return f"{path.stem:45} {getattr(module, 'BREAKS_TASK', '-'):17} {summary}"


def main() -> None:
    """Print every file of the corpus, correct ones first."""
    for path in [*correct_files(), *wrong_files()]:
        print(describe(path))


if __name__ == "__main__":
    main()
