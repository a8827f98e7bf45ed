"""Finding the code to grade: the exercises, the solutions, a module name or a .py file.

A file is loaded under a unique module name, so grading several files in one process never
mixes them up in ``sys.modules``. Loading failures become :class:`TargetError` with a message
a learner can act on (for a syntax error: the file and line), never a traceback.
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import os
import sys
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from grader import messages

FUNCTION_NAMES = (
    "create_event_log",
    "append_event",
    "get_events_for_session",
    "list_sessions",
    "replay_session",
)
READERS = frozenset(FUNCTION_NAMES[2:])
_unique = itertools.count(1)


class TargetError(Exception):
    """The target could not be loaded; ``str()`` is the message for the learner."""


@dataclass(frozen=True)
class Target:
    """The five learner functions and where their source lives.

    Attributes:
        label: what the user asked for (``exercises``, a path, ...), for the report.
        functions: the five functions by name.
        roots: absolute paths (files or folders) whose code counts as the learner's.
        readers: the read functions that are implemented (set after probing them).
    """

    label: str
    functions: Mapping[str, Callable[..., Any]]
    roots: tuple[str, ...] = ()
    readers: frozenset[str] = field(default=READERS)

    def owns(self, filename: str) -> bool:
        """Whether a traceback frame's file is learner code."""
        path = os.path.abspath(filename)
        return any(path == root or path.startswith(root + os.sep) for root in self.roots)


def load_target(spec: str) -> Target:
    """Load ``exercises``, ``solutions``, a dotted module name or a path to a .py file.

    Raises:
        TargetError: the module cannot be found or imported, or lacks one of the functions.
    """
    module = _load_file(spec) if _is_path(spec) else _import_module(spec)
    return Target(spec, _functions(module, spec), _roots(module))


def _is_path(spec: str) -> bool:
    return spec.endswith(".py") or os.sep in spec or (os.altsep or os.sep) in spec


def _load_file(spec: str) -> ModuleType:
    path = os.path.abspath(spec)
    if os.path.isdir(path):
        path = os.path.join(path, "__init__.py")
    if not os.path.isfile(path):
        raise TargetError(_heading(spec) + "\n" + messages.LOAD_NOT_FOUND.format(target=spec))
    stem = os.path.splitext(os.path.basename(path))[0]
    name = f"_graded_{next(_unique)}_{stem}"
    location = [os.path.dirname(path)] if path.endswith("__init__.py") else None
    module_spec = importlib.util.spec_from_file_location(
        name, path, submodule_search_locations=location
    )
    if module_spec is None or module_spec.loader is None:
        raise TargetError(_heading(spec) + "\n" + messages.LOAD_NOT_FOUND.format(target=spec))
    module = importlib.util.module_from_spec(module_spec)
    # Registered under its unique name while it runs: dataclasses and typing look it up there.
    sys.modules[name] = module
    _run_guarded(spec, lambda: module_spec.loader.exec_module(module))  # type: ignore[union-attr]
    return module


def _import_module(spec: str) -> ModuleType:
    try:
        found = importlib.util.find_spec(spec)
    except (ImportError, ValueError):
        found = None
    if found is None:
        raise TargetError(_heading(spec) + "\n" + messages.LOAD_NOT_FOUND.format(target=spec))
    modules: list[ModuleType] = []
    _run_guarded(spec, lambda: modules.append(importlib.import_module(spec)))
    return modules[0]


def _run_guarded(spec: str, load: Callable[[], object]) -> None:
    try:
        load()
    except SyntaxError as error:
        where = f"{_short(error.filename or spec)}:{error.lineno}"
        detail = messages.LOAD_SYNTAX.format(where=where, message=error.msg)
        if error.text:
            detail += "\n    " + error.text.rstrip("\n")
        raise TargetError(_heading(spec) + "\n" + detail) from None
    except SystemExit as error:
        raise TargetError(
            _heading(spec) + "\n" + messages.LOAD_EXIT.format(code=error.code)
        ) from None
    except Exception as error:
        detail = messages.LOAD_RAISED.format(kind=type(error).__name__, message=error)
        frames = traceback.extract_tb(error.__traceback__)
        own = [f for f in frames if not _is_machinery(f.filename)]
        if own:
            detail += f" ({_short(own[-1].filename)}:{own[-1].lineno})"
        raise TargetError(_heading(spec) + "\n" + detail) from None


def _is_machinery(filename: str) -> bool:
    """Frames of the import system or of the grader itself, not of the code being loaded."""
    grader_dir = os.path.dirname(os.path.abspath(__file__))
    return filename.startswith("<frozen") or os.path.abspath(filename).startswith(grader_dir)


def _functions(module: ModuleType, spec: str) -> dict[str, Callable[..., Any]]:
    missing = [n for n in FUNCTION_NAMES if not callable(getattr(module, n, None))]
    if missing:
        names = ", ".join(missing)
        raise TargetError(_heading(spec) + "\n" + messages.LOAD_MISSING.format(names=names))
    return {name: getattr(module, name) for name in FUNCTION_NAMES}


def _roots(module: ModuleType) -> tuple[str, ...]:
    file = getattr(module, "__file__", None)
    if not file:
        return ()
    file = os.path.abspath(file)
    if os.path.basename(file) == "__init__.py":
        return (os.path.dirname(file),)
    return (file,)


def _heading(spec: str) -> str:
    return messages.LOAD_HEADING.format(target=spec)


def _short(path: str) -> str:
    relative = os.path.relpath(path) if os.path.isabs(path) else path
    return path if relative.startswith("..") else relative
