"""Write every notebook in this folder from its cell module in ``notebooks/src``.

Usage: ``python notebooks/build.py`` rewrites all ``.ipynb`` files, stored without outputs and
validated with nbformat. The notebook test checks the stored files match what this script
writes, so edit the modules in ``src/`` and rebuild; never edit an ``.ipynb`` by hand.

Each Mermaid block becomes an embedded image of the diagram (see ``src/diagrams.py``); after
adding or changing one, run ``python notebooks/render_diagrams.py`` first.
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

# The cell modules and their helpers are plain modules in src/, not an installed package.
if str(SOURCE_DIR) not in sys.path:
    sys.path.insert(0, str(SOURCE_DIR))

from diagrams import DiagramError, embed_diagrams, find_diagrams  # noqa: E402


def cell_modules() -> list[ModuleType]:
    """Import every ``nbNN_*.py`` module in ``src/``, in file name (= chapter) order."""
    names = sorted(path.stem for path in SOURCE_DIR.glob("nb[0-9][0-9]_*.py"))
    return [importlib.import_module(name) for name in names]


def build_notebook(module: ModuleType) -> NotebookNode:
    """Turn one cell module into a validated notebook with no outputs.

    Cell ids are derived from the module name and the cell's position, so rebuilding an
    unchanged module gives a byte-identical file (random ids would churn every diff).

    Raises:
        diagrams.DiagramError: when a Mermaid block has no up-to-date rendered image.
    """
    prefix = module.__name__.split("_")[0]
    markdown_sources = [cell.source for cell in module.CELLS if cell.kind == "markdown"]
    diagrams = iter(find_diagrams(module.__name__, markdown_sources))
    notebook = nbformat.v4.new_notebook()
    notebook.metadata = {"kernelspec": KERNELSPEC, "language_info": {"name": "python"}}
    for index, cell in enumerate(module.CELLS):
        cell_id = f"{prefix}-{index:02d}"
        if cell.kind == "markdown":
            source = embed_diagrams(cell.source, diagrams)
            notebook.cells.append(nbformat.v4.new_markdown_cell(source, id=cell_id))
        else:
            notebook.cells.append(nbformat.v4.new_code_cell(cell.source, id=cell_id))
    nbformat.validate(notebook)
    return notebook


def notebook_text(notebook: NotebookNode) -> str:
    """The exact text a notebook is stored as (nbformat's own JSON layout plus a newline)."""
    return nbformat.writes(notebook) + "\n"


def build_all(out_dir: Path = NOTEBOOKS_DIR) -> list[Path]:
    """Write every notebook into ``out_dir`` and return the paths written.

    Every notebook is built before any is written, so a failure leaves the folder as it was.
    """
    modules = cell_modules()
    texts = {out_dir / module.FILENAME: notebook_text(build_notebook(module)) for module in modules}
    for path, text in texts.items():
        path.write_text(text, encoding="utf-8")
    return list(texts)


if __name__ == "__main__":
    try:
        written = build_all()
    except DiagramError as error:
        raise SystemExit(f"nothing built: {error}") from None
    for path in written:
        print(f"wrote {path.relative_to(NOTEBOOKS_DIR.parent)}")
