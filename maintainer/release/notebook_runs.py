"""Run notebooks top to bottom in fresh kernels, a few at once, and say plainly why one failed.

Most of a notebook's run is a kernel starting and importing, which leaves cores idle, so
kernels run side by side. A failure is told as the notebook, the cell (its number and first
line) and the error's own one-line message, rather than a page of traceback.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path
from typing import Any

from grader.i18n import text

KERNELS_AT_ONCE = 2 * (os.cpu_count() or 1)
CELL_SECONDS = 300


async def execute_notebooks(paths: list[Path], environment: dict[str, str]) -> dict[Path, str]:
    """Run each notebook in a new ``python3`` kernel with ``environment``, in its own folder.

    Returns:
        ``{path: why it failed}`` for the notebooks that failed; empty when all ran through.
        The stored files are not rewritten.
    """
    slots = asyncio.Semaphore(KERNELS_AT_ONCE)

    async def execute(path: Path) -> str | None:
        async with slots:
            return await execute_one(path, environment)

    reasons = await asyncio.gather(*(execute(path) for path in paths))
    return {path: reason for path, reason in zip(paths, reasons, strict=True) if reason}


async def execute_one(path: Path, environment: dict[str, str]) -> str | None:
    """Run one notebook; return None, or why it failed."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    started: list[int] = []
    client = NotebookClient(
        notebook,
        timeout=CELL_SECONDS,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        on_cell_execute=lambda cell, cell_index: started.append(cell_index),
    )
    try:
        # The kernel's own stderr holds only its start-up warnings; a cell's error comes back
        # through the notebook protocol and is reported below.
        await client.async_execute(env=environment, stderr=subprocess.DEVNULL)
    except CellExecutionError as error:
        cell = where(notebook, started)
        return text("release.fail.cell_raised", cell=cell, kind=error.ename, message=error.evalue)
    except CellTimeoutError:
        cell = where(notebook, started)
        return text("release.fail.cell_timeout", cell=cell, seconds=CELL_SECONDS)
    except DeadKernelError:
        return text("release.fail.kernel_died", cell=where(notebook, started))
    except Exception as error:  # the kernel could not start, for one
        message = str(error).strip()[-500:]
        return text("release.fail.not_run", kind=type(error).__name__, message=message)
    return None


def where(notebook: Any, started: list[int]) -> str:
    """The cell that ran last, as ``cell 7 (`server.start()`)``: its number as JupyterLab
    counts (from 1) and its first line."""
    if not started:
        return text("release.cell.unknown")
    first_line = (notebook.cells[started[-1]].source.strip().splitlines() or [""])[0]
    return text("release.cell", number=started[-1] + 1, first_line=first_line[:60])
