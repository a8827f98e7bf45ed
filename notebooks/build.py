"""Write every notebook in this folder from its cell module in ``notebooks/src``, in English
here and in Chinese in ``zh/``.

Usage: ``python notebooks/build.py`` rewrites all ``.ipynb`` files, stored without outputs and
validated with nbformat. The notebook test checks the stored files match what this script
writes, so edit the modules in ``src/`` and rebuild; never edit an ``.ipynb`` by hand.

A Chinese notebook has the Chinese of each markdown cell from ``src/zh/`` (same module name):
``CELLS`` there maps the fingerprint of an English cell (:func:`grader.i18n.fingerprint`) to
its translation, so an English cell edited or added without its Chinese has none, and the
Chinese notebooks are then left as they were. Its code cells are the English ones, with the
comments, the printed words and the charts' labels in Chinese where ``CODE`` there has a
cell's translation (keyed the same way); the same code runs, in other words.

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
#: Where each language's notebooks are written, and its cells' translations read from.
OUT_DIRS = {"en": NOTEBOOKS_DIR, "zh": NOTEBOOKS_DIR / "zh"}

KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}

# The cell modules and their helpers are plain modules in src/, not an installed package.
if str(SOURCE_DIR) not in sys.path:
    sys.path.insert(0, str(SOURCE_DIR))

from diagrams import DiagramError, embed_diagrams, find_diagrams  # noqa: E402

from grader.i18n import fingerprint  # noqa: E402


class TranslationMissing(DiagramError):
    """A markdown cell whose English has no translation (yet)."""


def cell_modules() -> list[ModuleType]:
    """Import every ``nbNN_*.py`` module in ``src/``, in file name (= chapter) order."""
    names = sorted(path.stem for path in SOURCE_DIR.glob("nb[0-9][0-9]_*.py"))
    return [importlib.import_module(name) for name in names]


def translations(module: ModuleType, language: str) -> dict[str, str]:
    """``{fingerprint of an English cell: its translation}`` for one notebook (none in English,
    none for a notebook without a module in ``src/<language>/``)."""
    if language == "en":
        return {}
    try:
        translated = importlib.import_module(f"{language}.{module.__name__}")
    except ModuleNotFoundError:
        return {}
    # A translation is written with cells.md(), like its English: the text is its source.
    return {key: getattr(cell, "source", cell) for key, cell in translated.CELLS.items()}


def code_translations(module: ModuleType, language: str) -> dict[str, str]:
    """``{fingerprint of an English code cell: the cell with its words translated}``."""
    if language == "en":
        return {}
    try:
        translated = importlib.import_module(f"{language}.{module.__name__}")
    except ModuleNotFoundError:
        return {}
    return {key: cell.source for key, cell in getattr(translated, "CODE", {}).items()}


def markdown_in(module: ModuleType, language: str) -> list[str]:
    """The module's markdown cells in ``language``, in order.

    Raises:
        TranslationMissing: a cell without a translation of its English as it is now.
    """
    english = [cell.source for cell in module.CELLS if cell.kind == "markdown"]
    if language == "en":
        return english
    chinese = translations(module, language)
    for number, source in enumerate(english, start=1):
        if fingerprint(source) not in chinese:
            first_line = source.splitlines()[0][:60]
            raise TranslationMissing(
                f"markdown cell {number} of src/{module.__name__}.py ({first_line!r}) has no "
                f"translation in src/{language}/{module.__name__}.py; its fingerprint is "
                f"{fingerprint(source)!r}"
            )
    return [chinese[fingerprint(source)] for source in english]


def build_notebook(module: ModuleType, language: str = "en") -> NotebookNode:
    """Turn one cell module into a validated notebook with no outputs, in ``language``.

    Cell ids are derived from the module name and the cell's position, so rebuilding an
    unchanged module gives a byte-identical file (random ids would churn every diff).

    Raises:
        diagrams.DiagramError: when a Mermaid block has no up-to-date rendered image, or
            (:class:`TranslationMissing`) a markdown cell has no translation.
    """
    prefix = module.__name__.split("_")[0]
    markdown_sources = iter(markdown_in(module, language))
    code = code_translations(module, language)
    texts = [next(markdown_sources) if cell.kind == "markdown"
             else code.get(fingerprint(cell.source), cell.source)
             for cell in module.CELLS]  # fmt: skip
    markdown = [text for text, cell in zip(texts, module.CELLS, strict=True)
                if cell.kind == "markdown"]  # fmt: skip
    diagrams = iter(find_diagrams(module.__name__, markdown, language))
    notebook = nbformat.v4.new_notebook()
    notebook.metadata = {"kernelspec": KERNELSPEC, "language_info": {"name": "python"}}
    for index, (cell, source) in enumerate(zip(module.CELLS, texts, strict=True)):
        cell_id = f"{prefix}-{index:02d}"
        if cell.kind == "markdown":
            source = embed_diagrams(source, diagrams)
            notebook.cells.append(nbformat.v4.new_markdown_cell(source, id=cell_id))
        else:
            notebook.cells.append(nbformat.v4.new_code_cell(source, id=cell_id))
    nbformat.validate(notebook)
    return notebook


def notebook_text(notebook: NotebookNode) -> str:
    """The exact text a notebook is stored as (nbformat's own JSON layout plus a newline)."""
    return nbformat.writes(notebook) + "\n"


def build_all(out_dir: Path = NOTEBOOKS_DIR, language: str = "en") -> list[Path]:
    """Write every notebook in ``language`` into ``out_dir`` and return the paths written.

    Every notebook is built before any is written, so a failure leaves the folder as it was.
    """
    modules = cell_modules()
    texts = {
        out_dir / module.FILENAME: notebook_text(build_notebook(module, language))
        for module in modules
    }
    out_dir.mkdir(exist_ok=True)
    for path, text in texts.items():
        path.write_text(text, encoding="utf-8")
    return list(texts)


def main() -> int:
    """Build each language's notebooks; a language that cannot be built is left as it was."""
    status = 0
    for language, out_dir in OUT_DIRS.items():
        try:
            written = build_all(out_dir, language)
        except DiagramError as error:
            print(f"no {language} notebook built: {error}")
            status = 1
            continue
        for path in written:
            print(f"wrote {path.relative_to(NOTEBOOKS_DIR.parent)}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
