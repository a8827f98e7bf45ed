"""Importing the submission inside the child, and saying exactly why it did not import.

The submission is a private copy under one root folder. A package is imported by its own
name with only that root on ``sys.path``, so its absolute imports (``from exercises.replay
import ...``) find the copy and nothing else: the kit is not there. A single file is loaded
from its path under the name ``submission``.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import traceback
from collections.abc import Callable
from types import ModuleType
from typing import Any

from .text import sanitize


class LoadError(Exception):
    """The submission did not load; ``details`` is the answer for the trusted side."""

    def __init__(self, details: dict[str, Any]) -> None:
        super().__init__(details.get("kind"))
        self.details = details


def load_functions(config: dict[str, Any]) -> dict[str, Callable[..., Any]]:
    """Import the submission and return its graded functions by name.

    Raises:
        LoadError: it raised, exited or ran out of memory while importing, or lacks a function.
    """
    root = config["root"]
    try:
        module = _import(config)
    except SyntaxError as error:
        where = f"{shorten(error.filename or '?', root)}:{error.lineno}"
        text = (error.text or "").rstrip("\n")
        raise LoadError(
            {"kind": "syntax", "where": where, "message": error.msg, "text": text}
        ) from None
    except SystemExit as error:
        raise LoadError({"kind": "exit", "code": sanitize(repr(error.code))}) from None
    except MemoryError:
        raise LoadError({"kind": "memory"}) from None
    except BaseException as error:
        raise LoadError({"kind": "raised", **describe(error, root)}) from None
    functions = {name: getattr(module, name, None) for name in config["functions"]}
    missing = [name for name, function in functions.items() if not callable(function)]
    if missing:
        raise LoadError({"kind": "missing", "names": missing})
    return functions  # type: ignore[return-value]


def _import(config: dict[str, Any]) -> ModuleType:
    if config.get("file"):
        spec = importlib.util.spec_from_file_location("submission", config["file"])
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        # Registered while it runs: dataclasses and typing look the module up there.
        sys.modules["submission"] = module
        spec.loader.exec_module(module)
        return module
    sys.path.insert(0, config["root"])
    return importlib.import_module(config["module"])


def describe(error: BaseException, root: str) -> dict[str, str]:
    """The exception's type, message and the last line of learner code it passed through."""
    described = {"type": type(error).__name__, "message": sanitize(_message(error))}
    if isinstance(error, ModuleNotFoundError) and error.name:
        described["module"] = error.name
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if frame.filename.startswith(root + os.sep)
    ]
    if frames:
        described["where"] = f"{shorten(frames[-1].filename, root)}:{frames[-1].lineno}"
    return described


def _message(error: BaseException) -> str:
    try:
        return str(error)
    except Exception:
        return ""


def shorten(path: str, root: str) -> str:
    """A path inside the submission, written from the submission's root."""
    return path[len(root) + 1 :] if path.startswith(root + os.sep) else path
