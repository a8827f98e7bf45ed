"""The two kinds of cell a notebook module declares, written as plain dedented strings.

Each ``nbNN_*.py`` module in this folder defines ``FILENAME`` (the ``.ipynb`` to write) and
``CELLS``, a list built with :func:`md` and :func:`code`. Keeping cells in Python modules makes
a notebook reviewable as an ordinary diff and regenerable with ``python notebooks/build.py``.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class Cell:
    """One notebook cell before it becomes nbformat JSON."""

    kind: Literal["markdown", "code"]
    source: str


def md(text: str) -> Cell:
    """A markdown cell; leading indentation and surrounding blank lines are removed."""
    return Cell("markdown", _clean(text))


def code(text: str) -> Cell:
    """A code cell; write it as ``ruff format`` would, since ruff also checks the notebooks."""
    return Cell("code", _clean(text))


def _clean(text: str) -> str:
    return textwrap.dedent(text).strip("\n")
