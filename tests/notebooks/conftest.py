"""The notebook tools are scripts in ``notebooks/``, not an installed package: load them here."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

NOTEBOOKS_DIR = Path(__file__).resolve().parents[2] / "notebooks"


@pytest.fixture
def notebook_tools(monkeypatch: pytest.MonkeyPatch) -> dict[str, ModuleType]:
    """``build``, ``render_diagrams`` and ``diagrams``, imported the way the scripts run."""
    monkeypatch.syspath_prepend(str(NOTEBOOKS_DIR / "src"))
    monkeypatch.syspath_prepend(str(NOTEBOOKS_DIR))
    names = ("build", "render_diagrams", "diagrams")
    return {name: importlib.import_module(name) for name in names}
