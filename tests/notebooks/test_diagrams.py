"""Every diagram shows wherever a notebook is opened, offline HTML exports included.

A Mermaid block needs mermaid.js to become a picture: JupyterLab has it, GitHub's notebook
view does not, and ``jupyter nbconvert --to html`` writes a page that fetches it from a CDN.
So each diagram must reach the reader as an image carried inside the notebook itself.
"""

from __future__ import annotations

import base64
import binascii
import re
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType

import nbformat
import pytest

from tests.notebooks.conftest import NOTEBOOKS_DIR

NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("*.ipynb"))
SVG_DATA_URI = "data:image/svg+xml;base64,"
SVG = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
# Elements that run code or pull in other documents; a diagram needs none of them.
ACTIVE_TAGS = {"script", "iframe", "object", "embed", "link"}


class CellContent(HTMLParser):
    """What the cells of an exported page hold: images, active elements, Mermaid blocks."""

    def __init__(self) -> None:
        super().__init__()
        self.image_sources: list[str] = []
        self.active_tags: list[str] = []
        self.mermaid_blocks = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "img":
            self.image_sources.append(attributes.get("src") or "")
        if tag in ACTIVE_TAGS:
            self.active_tags.append(tag)
        if "mermaid" in (attributes.get("class") or "").lower():
            self.mermaid_blocks += 1


@pytest.fixture(scope="module")
def exported_cells() -> dict[str, CellContent]:
    """Each notebook exported as ``jupyter nbconvert --to html`` does, then its cells parsed.

    Only ``<main>`` is read: the page around it carries the template's own scripts and icons.
    """
    # Imported here, not by every worker that collects this module: nbconvert takes most of
    # a second to import.
    from nbconvert import HTMLExporter

    exporter, exported = HTMLExporter(), {}
    for path in NOTEBOOKS:
        page, _ = exporter.from_notebook_node(nbformat.read(path, as_version=4))
        main = re.search(r"<main>(.*)</main>", page, flags=re.DOTALL)
        assert main is not None, f"{path.name}: the export has no <main> element"
        exported[path.stem] = CellContent()
        exported[path.stem].feed(main[1])
    return exported


def source_diagram_counts(notebook_tools: dict[str, ModuleType]) -> dict[str, int]:
    """How many Mermaid blocks each notebook's module in ``src/`` holds, by notebook stem."""
    counts = {}
    for module in notebook_tools["build"].cell_modules():
        markdown = [cell.source for cell in module.CELLS if cell.kind == "markdown"]
        diagrams = notebook_tools["diagrams"].find_diagrams(module.__name__, markdown)
        counts[Path(module.FILENAME).stem] = len(diagrams)
    return counts


def decoded_svg(source: str) -> ElementTree.Element:
    """Parse an image source that must be a base64 SVG ``data:`` URI."""
    assert source.startswith(SVG_DATA_URI), f"not an embedded SVG: {source[:80]}"
    try:
        return ElementTree.fromstring(base64.b64decode(source[len(SVG_DATA_URI) :], validate=True))
    except (binascii.Error, ElementTree.ParseError) as error:
        pytest.fail(f"the embedded image is not a valid base64 SVG: {error}")


def test_the_notebooks_draw_diagrams_at_all(notebook_tools: dict[str, ModuleType]) -> None:
    # Without this the tests below would pass on notebooks that lost every diagram.
    assert sum(source_diagram_counts(notebook_tools).values()) >= 2


def test_every_diagram_is_an_embedded_image_in_the_html_export(
    exported_cells: dict[str, CellContent], notebook_tools: dict[str, ModuleType]
) -> None:
    shown = {
        stem: sum(source.startswith(SVG_DATA_URI) for source in cells.image_sources)
        for stem, cells in exported_cells.items()
    }
    assert shown == source_diagram_counts(notebook_tools)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_an_exported_page_needs_no_script_and_no_network_to_show_its_cells(
    path: Path, exported_cells: dict[str, CellContent]
) -> None:
    cells = exported_cells[path.stem]
    assert cells.mermaid_blocks == 0, "a Mermaid block left for mermaid.js to draw"
    assert cells.active_tags == []
    assert [source for source in cells.image_sources if not source.startswith("data:")] == []


def test_every_embedded_diagram_is_a_self_contained_svg_with_a_title(
    exported_cells: dict[str, CellContent],
) -> None:
    images = [source for cells in exported_cells.values() for source in cells.image_sources]
    for root in (decoded_svg(source) for source in images):
        assert root.tag == f"{SVG}svg"
        tags = {element.tag.removeprefix(SVG) for element in root.iter()}
        # foreignObject holds HTML, which image viewers may drop; scripts never run in <img>.
        assert tags.isdisjoint({"script", "foreignObject", "image"}), tags
        links = [
            value
            for element in root.iter()
            for name, value in element.attrib.items()
            if name in ("href", XLINK_HREF) and not value.startswith("#")
        ]
        assert links == []
        styles = "".join(element.text or "" for element in root.iter(f"{SVG}style"))
        assert "@import" not in styles and "url(http" not in styles
        assert (root.findtext(f"{SVG}title") or "").strip(), "no <title> (accTitle) for readers"
