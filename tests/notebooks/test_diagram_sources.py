"""The builder embeds only images drawn from the diagram's current source, and says what to do
when there is none; the committed images are exactly the current diagrams."""

from __future__ import annotations

import base64
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.notebooks.conftest import NOTEBOOKS_DIR

SCHEMA = "erDiagram\n    accTitle: Two tables\n    a ||--o{ b : has\n"
FLOW = "flowchart LR\n    accTitle: From a to b\n    a --> b\n"


def fenced(source: str) -> str:
    return f"```mermaid\n{source}```"


def rendered(diagram: Any, folder: Path, svg: str) -> None:
    """Store an image and its source the way ``render_diagrams.py`` does."""
    (folder / f"{diagram.name}.mmd").write_text(diagram.mmd_text, encoding="utf-8")
    (folder / f"{diagram.name}.svg").write_text(svg, encoding="utf-8")


def test_each_block_becomes_the_image_of_its_own_diagram(
    notebook_tools: dict[str, ModuleType], tmp_path: Path
) -> None:
    tools = notebook_tools["diagrams"]
    cells = [f"Intro.\n\n{fenced(SCHEMA)}\n\nBetween.", f"{fenced(FLOW)}\nAfter."]
    diagrams = tools.find_diagrams("nb09_demo", cells)
    assert [(diagram.name, diagram.source) for diagram in diagrams] == [
        ("nb09_demo-1", SCHEMA),
        ("nb09_demo-2", FLOW),
    ]
    for diagram, svg in zip(diagrams, ("<svg>one</svg>", "<svg>two</svg>"), strict=True):
        rendered(diagram, tmp_path, svg)
    remaining = iter(diagrams)
    first, second = (tools.embed_diagrams(cell, remaining, tmp_path) for cell in cells)
    one, two = (base64.b64encode(svg).decode() for svg in (b"<svg>one</svg>", b"<svg>two</svg>"))
    assert first == f"Intro.\n\n![Two tables](data:image/svg+xml;base64,{one})\n\nBetween."
    assert second == f"![From a to b](data:image/svg+xml;base64,{two})\nAfter."


def test_a_diagram_edited_since_its_image_was_drawn_is_refused(
    notebook_tools: dict[str, ModuleType], tmp_path: Path
) -> None:
    tools = notebook_tools["diagrams"]
    (old,) = tools.find_diagrams("nb09_demo", [fenced(SCHEMA)])
    rendered(old, tmp_path, "<svg/>")
    edited = fenced(SCHEMA.replace("has", "owns"))
    diagrams = iter(tools.find_diagrams("nb09_demo", [edited]))
    with pytest.raises(tools.DiagramError, match=r"nb09_demo-1 changed since .*render_diagrams"):
        tools.embed_diagrams(edited, diagrams, tmp_path)


def test_a_diagram_never_drawn_is_refused(
    notebook_tools: dict[str, ModuleType], tmp_path: Path
) -> None:
    tools = notebook_tools["diagrams"]
    diagrams = iter(tools.find_diagrams("nb09_demo", [fenced(SCHEMA)]))
    with pytest.raises(tools.DiagramError, match=r"nb09_demo-1 is not rendered yet"):
        tools.embed_diagrams(fenced(SCHEMA), diagrams, tmp_path)


def test_a_diagram_without_a_title_for_its_alt_text_is_refused(
    notebook_tools: dict[str, ModuleType], tmp_path: Path
) -> None:
    tools = notebook_tools["diagrams"]
    untitled = "flowchart LR\n    a --> b\n"
    (diagram,) = tools.find_diagrams("nb09_demo", [fenced(untitled)])
    rendered(diagram, tmp_path, "<svg/>")
    with pytest.raises(tools.DiagramError, match="accTitle"):
        tools.embed_diagrams(fenced(untitled), iter([diagram]), tmp_path)


def test_the_diagrams_folder_holds_the_current_diagrams_and_nothing_else(
    notebook_tools: dict[str, ModuleType],
) -> None:
    names = {diagram.name for diagram in notebook_tools["render_diagrams"].all_diagrams()}
    stored = {path.name for path in (NOTEBOOKS_DIR / "diagrams").iterdir()}
    assert stored == {f"{name}{suffix}" for name in names for suffix in (".mmd", ".svg")}


def test_rendering_cuts_long_decimals_in_attributes_but_never_in_text(
    notebook_tools: dict[str, ModuleType],
) -> None:
    compact = notebook_tools["render_diagrams"].compact_svg
    svg = '<path d="M-209.4211 0.5 C1.999999 2"/><text x="3.14159">pi is 3.14159</text>'
    assert compact(svg) == '<path d="M-209.42 0.5 C1.99 2"/><text x="3.14">pi is 3.14159</text>'


def test_rendering_removes_the_files_of_diagrams_that_are_gone(
    notebook_tools: dict[str, ModuleType], tmp_path: Path
) -> None:
    tools = notebook_tools["diagrams"]
    (kept,) = tools.find_diagrams("nb09_demo", [fenced(SCHEMA)])
    for name in ("nb09_demo-1.svg", "nb09_demo-1.mmd", "nb09_demo-2.svg", "nb09_demo-2.mmd"):
        (tmp_path / name).write_text("")
    (tmp_path / "notes.txt").write_text("")
    removed = notebook_tools["render_diagrams"].remove_orphans([kept], tmp_path)
    assert [path.name for path in removed] == ["nb09_demo-2.mmd", "nb09_demo-2.svg"]
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "nb09_demo-1.mmd",
        "nb09_demo-1.svg",
        "notes.txt",
    ]
