"""The contract's promises as the exercises state them, read from their docstrings."""

from __future__ import annotations

import ast
from pathlib import Path

from grader.transport.workspace import EXERCISE_MODULES

KIT_ROOT = Path(__file__).resolve().parents[2]
EXERCISE_FILES = EXERCISE_MODULES


def docstrings(folder: Path) -> dict[str, str]:
    """Each function's docstring in the exercise files of ``folder``, read without importing."""
    found: dict[str, str] = {}
    for name in EXERCISE_FILES:
        tree = ast.parse((folder / name).read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                found[node.name] = ast.get_docstring(node) or ""
    return found


def bullets(docstring: str, heading: str = "Promises:") -> list[str]:
    """The bullets under ``heading``, each on one line."""
    lines = docstring.splitlines()
    starts = [index for index, line in enumerate(lines) if line.strip() == heading]
    if not starts:
        return []
    found: list[str] = []
    for line in lines[starts[0] + 1 :]:
        if not line.strip():
            break
        if line.lstrip().startswith("- "):
            found.append(line.lstrip()[2:].strip())
        elif found:
            found[-1] += " " + line.strip()
    return found
