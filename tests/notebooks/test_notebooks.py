"""Every notebook runs top to bottom in a fresh kernel, and is stored clean and regenerable."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from types import ModuleType

import nbformat
import pytest
from nbclient import NotebookClient

from tests.notebooks.conftest import NOTEBOOKS_DIR

NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("*.ipynb"))
CELL_TIMEOUT_SECONDS = 60
# Most of a notebook's run is a kernel starting and importing, which leaves a core idle, so
# kernels run side by side: with six notebooks on two cores the whole run takes about 40 %
# less time than one at a time.
KERNELS_AT_ONCE = 2 * (os.cpu_count() or 1)


def client_for(notebook: nbformat.NotebookNode) -> NotebookClient:
    """A client for a new ``python3`` kernel whose working directory is ``notebooks/``."""
    return NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT_SECONDS,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS_DIR)}},
    )


async def execute_all(paths: list[Path]) -> dict[str, Exception | None]:
    """Run every notebook, a few kernels at a time; map each file name to its error or None."""
    slots = asyncio.Semaphore(KERNELS_AT_ONCE)

    async def execute(path: Path) -> Exception | None:
        async with slots:
            try:
                await client_for(nbformat.read(path, as_version=4)).async_execute()
            except Exception as error:  # reported by the test of this notebook
                return error
            return None

    errors = await asyncio.gather(*(execute(path) for path in paths))
    return {path.name: error for path, error in zip(paths, errors, strict=True)}


@pytest.fixture(scope="module")
def execution_errors() -> dict[str, Exception | None]:
    """Each notebook's error when run top to bottom in a fresh kernel, or None."""
    return asyncio.run(execute_all(NOTEBOOKS))


def test_there_are_at_least_six_notebooks() -> None:
    assert len(NOTEBOOKS) >= 6, [path.name for path in NOTEBOOKS]


# Notebook 03 grades in the sandbox (grader.check), notebook 05 starts and kills a server.
@pytest.mark.sandbox
@pytest.mark.server
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_runs_without_error_in_a_fresh_kernel(
    path: Path, execution_errors: dict[str, Exception | None]
) -> None:
    # nbclient's CellExecutionError names the failing cell and carries its traceback.
    error = execution_errors[path.name]
    if error is not None:
        raise error


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


def test_stored_notebooks_are_exactly_what_the_builder_writes(
    tmp_path: Path, notebook_tools: dict[str, ModuleType]
) -> None:
    written = notebook_tools["build"].build_all(tmp_path)
    assert sorted(path.name for path in written) == [path.name for path in NOTEBOOKS]
    stale = [
        path.name
        for path in written
        if path.read_text(encoding="utf-8")
        != (NOTEBOOKS_DIR / path.name).read_text(encoding="utf-8")
    ]
    assert stale == [], "run `python notebooks/build.py` and commit the result"


def test_a_failing_cell_fails_its_notebook_and_names_the_error(tmp_path: Path) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells.append(nbformat.v4.new_code_cell("1 / 0"))
    nbformat.write(notebook, tmp_path / "broken.ipynb")
    errors = asyncio.run(execute_all([tmp_path / "broken.ipynb"]))
    assert "ZeroDivisionError" in str(errors["broken.ipynb"])


def test_the_kernel_runs_the_interpreter_of_the_tests() -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells.append(nbformat.v4.new_code_cell("import sys\nprint(sys.executable)"))
    client_for(notebook).execute()
    printed = notebook.cells[0].outputs[0]["text"].strip()
    assert Path(printed).resolve() == Path(sys.executable).resolve()
