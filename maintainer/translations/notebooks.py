"""The notebooks' markdown cells and their Chinese, as catalogs (see ``notebooks/src/zh/``),
and the code cells whose comments and strings hold English prose, with theirs.

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
from maintainer.translations.prose import code_prose

NOTEBOOKS_DIR = KIT_ROOT / "notebooks"


def notebook_tool(name: str) -> ModuleType:
    """``build``, ``diagrams`` or ``render_diagrams``, imported as the scripts import them."""
    for folder in (NOTEBOOKS_DIR / "src", NOTEBOOKS_DIR):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    return importlib.import_module(name)


#: The prefix of a code cell's key: its fingerprint keys its translation in ``CODE``.
CODE = "code:"


def notebook_catalog(module: ModuleType) -> Catalog:
    """One notebook's markdown cells (keyed by fingerprint) and the Chinese of each, and its
    code cells with English prose, or a translation (keyed ``code:`` and their fingerprint),
    and theirs."""
    build = notebook_tool("build")
    english = [cell.source for cell in module.CELLS if cell.kind == "markdown"]
    numbers = {fingerprint(source): number for number, source in enumerate(english, start=1)}
    code = [cell.source for cell in module.CELLS if cell.kind == "code"]
    code_numbers = {fingerprint(source): number for number, source in enumerate(code, start=1)}
    chinese = build.translations(module, "zh")
    code_chinese = build.code_translations(module, "zh")

    def describe(key: str) -> str:
        if key in numbers:
            first_line = english[numbers[key] - 1].splitlines()[0][:60]
            return f"markdown cell {numbers[key]} ({first_line!r}, fingerprint {key!r})"
        cell = key.removeprefix(CODE)
        if key.startswith(CODE) and cell in code_numbers:
            first_line = code[code_numbers[cell] - 1].splitlines()[0][:60]
            return f"code cell {code_numbers[cell]} ({first_line!r}, fingerprint {cell!r})"
        return f"the translation keyed {key!r}"

    worded = [source for source in code
              if code_prose(source) or fingerprint(source) in code_chinese]  # fmt: skip
    return Catalog(
        f"notebooks/src/zh/{module.__name__}.py",
        {
            **{fingerprint(source): source for source in english},
            **{CODE + fingerprint(source): source for source in worded},
        },
        {
            **{key: (key, text) for key, text in chinese.items()},
            **{CODE + key: (key, text) for key, text in code_chinese.items()},
        },
        describe,
    )


def notebook_catalogs() -> list[Catalog]:
    """A catalog per notebook, in the chapter's order."""
    return [notebook_catalog(module) for module in notebook_tool("build").cell_modules()]
