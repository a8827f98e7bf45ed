"""Write every notebook in this folder from its cell module in ``notebooks/src``.

Usage: ``python notebooks/build.py`` rewrites all ``.ipynb`` files, stored without outputs and
validated with nbformat. The notebook test checks the stored files match what this script
writes, so edit the modules in ``src/`` and rebuild; never edit an ``.ipynb`` by hand.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import nbformat
from nbformat import NotebookNode

NOTEBOOKS_DIR = Path(__file__).resolve().parent
SOURCE_DIR = NOTEBOOKS_DIR / "src"

KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def cell_modules() -> list[ModuleType]:
    """Import every ``nbNN_*.py`` module in ``src/``, in file name (= chapter) order."""
    if str(SOURCE_DIR) not in sys.path:
        sys.path.insert(0, str(SOURCE_DIR))
    names = sorted(path.stem for path in SOURCE_DIR.glob("nb[0-9][0-9]_*.py"))
    return [importlib.import_module(name) for name in names]


def build_notebook(module: ModuleType) -> NotebookNode:
    """Turn one cell module into a validated notebook with no outputs.

    Cell ids are derived from the module name and the cell's position, so rebuilding an
    unchanged module gives a byte-identical file (random ids would churn every diff).
    """
    prefix = module.__name__.split("_")[0]
    notebook = nbformat.v4.new_notebook()
    notebook.metadata = {"kernelspec": KERNELSPEC, "language_info": {"name": "python"}}
    for index, cell in enumerate(module.CELLS):
        new_cell = nbformat.v4.new_code_cell
        if cell.kind == "markdown":
            new_cell = nbformat.v4.new_markdown_cell
        notebook.cells.append(new_cell(cell.source, id=f"{prefix}-{index:02d}"))
    nbformat.validate(notebook)
    return notebook


def notebook_text(notebook: NotebookNode) -> str:
    """The exact text a notebook is stored as (nbformat's own JSON layout plus a newline)."""
    return nbformat.writes(notebook) + "\n"


def build_all(out_dir: Path = NOTEBOOKS_DIR) -> list[Path]:
    """Write every notebook into ``out_dir`` and return the paths written."""
    written = []
    for module in cell_modules():
        path = out_dir / module.FILENAME
        path.write_text(notebook_text(build_notebook(module)), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in build_all():
        print(f"wrote {path.relative_to(NOTEBOOKS_DIR.parent)}")
