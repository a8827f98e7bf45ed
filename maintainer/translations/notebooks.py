"""The notebooks' markdown cells and their Chinese, as catalogs (see ``notebooks/src/zh/``).

The notebook tools are scripts in ``notebooks/``, not a package: they are imported the way
``python notebooks/build.py`` imports them, with ``notebooks/`` and ``notebooks/src/`` on
the path.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

from grader.i18n import fingerprint
from maintainer.translations.catalogs import Catalog
from maintainer.translations.docstrings import KIT_ROOT

NOTEBOOKS_DIR = KIT_ROOT / "notebooks"


def notebook_tool(name: str) -> ModuleType:
    """``build``, ``diagrams`` or ``render_diagrams``, imported as the scripts import them."""
    for folder in (NOTEBOOKS_DIR / "src", NOTEBOOKS_DIR):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    return importlib.import_module(name)


def notebook_catalog(module: ModuleType) -> Catalog:
    """One notebook's markdown cells (keyed by fingerprint) and the Chinese of each."""
    build = notebook_tool("build")
    english = [cell.source for cell in module.CELLS if cell.kind == "markdown"]
    numbers = {fingerprint(source): number for number, source in enumerate(english, start=1)}
    chinese = build.translations(module, "zh")

    def describe(key: str) -> str:
        if key in numbers:
            first_line = english[numbers[key] - 1].splitlines()[0][:60]
            return f"markdown cell {numbers[key]} ({first_line!r}, fingerprint {key!r})"
        return f"the translation keyed {key!r}"

    return Catalog(
        f"notebooks/src/zh/{module.__name__}.py",
        {fingerprint(source): source for source in english},
        {key: (key, text) for key, text in chinese.items()},
        describe,
    )


def notebook_catalogs() -> list[Catalog]:
    """A catalog per notebook, in the chapter's order."""
    return [notebook_catalog(module) for module in notebook_tool("build").cell_modules()]
