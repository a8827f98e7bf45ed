"""Every notebook runs top to bottom in a fresh kernel, and is stored clean and regenerable."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS_DIR = Path(__file__).resolve().parents[2] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("*.ipynb"))
CELL_TIMEOUT_SECONDS = 60


def load_builder() -> ModuleType:
    """Import ``notebooks/build.py``, which is a script, not part of an installed package."""
    spec = importlib.util.spec_from_file_location("notebook_builder", NOTEBOOKS_DIR / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def execute(notebook: nbformat.NotebookNode) -> None:
    """Run every cell in a new ``python3`` kernel whose working directory is ``notebooks/``."""
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT_SECONDS,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS_DIR)}},
    )
    client.execute()


def test_there_are_at_least_six_notebooks() -> None:
    assert len(NOTEBOOKS) >= 6, [path.name for path in NOTEBOOKS]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_runs_without_error_in_a_fresh_kernel(path: Path) -> None:
    # nbclient raises CellExecutionError, naming the cell and its traceback, on any error.
    execute(nbformat.read(path, as_version=4))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_is_valid_and_stored_without_outputs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert [cell.id for cell in code_cells if cell.outputs or cell.execution_count] == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_never_mentions_the_reference_package(path: Path) -> None:
    # A learner's copy has no reference package, so a notebook that imports it (or points
    # readers at it) would break or spoil the exercises there.
    notebook = nbformat.read(path, as_version=4)
    offending = [cell.id for cell in notebook.cells if "solutions" in cell.source.lower()]
    assert offending == []


def test_stored_notebooks_are_exactly_what_the_builder_writes(tmp_path: Path) -> None:
    builder = load_builder()
    written = builder.build_all(tmp_path)
    assert sorted(path.name for path in written) == [path.name for path in NOTEBOOKS]
    stale = [
        path.name
        for path in written
        if path.read_text(encoding="utf-8")
        != (NOTEBOOKS_DIR / path.name).read_text(encoding="utf-8")
    ]
    assert stale == [], "run `python notebooks/build.py` and commit the result"


def test_the_kernel_runs_the_interpreter_of_the_tests() -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells.append(nbformat.v4.new_code_cell("import sys\nprint(sys.executable)"))
    execute(notebook)
    printed = notebook.cells[0].outputs[0]["text"].strip()
    assert Path(printed).resolve() == Path(sys.executable).resolve()
