"""Mermaid diagrams, shown as embedded SVG images wherever a notebook is opened.

JupyterLab draws a `````mermaid`` block in a markdown cell by itself, but GitHub's notebook
view shows it as plain text, and ``jupyter nbconvert --to html`` writes a page that fetches
mermaid.js from a CDN, so the diagram is missing offline. The one form all three display is
an image whose SVG sits inside the markdown as a ``data:`` URI (GitHub's view ignores cell
attachments, which is why those are not used).

So a notebook's module in ``src/`` keeps each diagram as a Mermaid block, next to the prose
that explains it, and the builder swaps the block for its image. The images are rendered once
by ``python notebooks/render_diagrams.py`` (it needs Node.js and Chromium, the builder does
not) into ``notebooks/diagrams/``: ``NAME.svg`` and the ``NAME.mmd`` it was drawn from. The
builder refuses a block whose ``.mmd`` differs from it, so a notebook can never show a
picture of an older diagram.

A diagram names itself: ``nb04_sqlite_store-1`` is the first Mermaid block of
``src/nb04_sqlite_store.py``, and ``nb04_sqlite_store-1.zh`` the same diagram in the Chinese
cells of ``src/zh/nb04_sqlite_store.py``, labels translated. Its ``accTitle:`` line is
required; it becomes the image's alt text (and the SVG's ``<title>``).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

DIAGRAMS_DIR = Path(__file__).resolve().parents[1] / "diagrams"
RENDER_COMMAND = "python notebooks/render_diagrams.py"

# A fenced block opened by ```mermaid on a line of its own and closed by ``` on its own.
MERMAID_FENCE = re.compile(r"^```mermaid[ \t]*\n(?P<source>.*?)^```[ \t]*$", re.M | re.S)
ACC_TITLE = re.compile(r"^\s*accTitle\s*:\s*(?P<title>.+?)\s*$", re.M)
# The first line of every .mmd file, so that nobody edits the copy instead of the module.
MMD_HEADER = f"%% Rendered from notebooks/src/{{module}}.py by {RENDER_COMMAND}; edit it there.\n"
ENGLISH = "en"


class DiagramError(Exception):
    """A diagram that cannot be embedded: not rendered yet, rendered from an older source,
    or without the ``accTitle:`` line its alt text comes from."""


@dataclass(frozen=True, slots=True)
class Diagram:
    """One Mermaid block of a notebook module: its name, its source text, and the language
    of its labels."""

    module: str
    number: int
    source: str
    language: str = ENGLISH

    @property
    def name(self) -> str:
        """The file name stem in ``notebooks/diagrams/``: ``nb04_sqlite_store-1``, or
        ``nb04_sqlite_store-1.zh`` for its Chinese labels."""
        suffix = "" if self.language == ENGLISH else f".{self.language}"
        return f"{self.module}-{self.number}{suffix}"

    @property
    def mmd_text(self) -> str:
        """The text of ``NAME.mmd``: the header line, then the source exactly."""
        module = self.module if self.language == ENGLISH else f"{self.language}/{self.module}"
        return MMD_HEADER.format(module=module) + self.source

    def alt_text(self) -> str:
        """The ``accTitle:`` of the diagram, fit for a markdown image's alt text.

        Raises:
            DiagramError: when the source has no ``accTitle:`` line.
        """
        found = ACC_TITLE.search(self.source)
        if found is None:
            raise DiagramError(
                f"diagram {self.name} has no 'accTitle: ...' line; add one that says what "
                "the diagram shows (it becomes the image's alt text)"
            )
        # Brackets would end the alt text of ![alt](...) early.
        return found["title"].replace("[", "(").replace("]", ")")


def find_diagrams(
    module: str, markdown_sources: Iterable[str], language: str = ENGLISH
) -> list[Diagram]:
    """Every Mermaid block in a module's markdown cells, numbered from 1 in reading order."""
    sources = [
        match["source"] for text in markdown_sources for match in MERMAID_FENCE.finditer(text)
    ]
    return [
        Diagram(module, number, source, language) for number, source in enumerate(sources, start=1)
    ]


def embed_diagrams(
    markdown: str, diagrams: Iterator[Diagram], directory: Path = DIAGRAMS_DIR
) -> str:
    """Replace each Mermaid block of one markdown cell with the image of its diagram.

    Args:
        markdown: the cell's source.
        diagrams: the module's diagrams, from :func:`find_diagrams`; one is taken per block,
            so pass the same iterator for every cell of the module, in order.
        directory: where the rendered ``.svg`` and ``.mmd`` files are.

    Raises:
        DiagramError: when a diagram has no image, an image of another source, or no alt text.
    """
    return MERMAID_FENCE.sub(lambda _: image_markdown(next(diagrams), directory), markdown)


def image_markdown(diagram: Diagram, directory: Path = DIAGRAMS_DIR) -> str:
    """The markdown image of one diagram: its committed SVG as a base64 ``data:`` URI."""
    svg_path, mmd_path = directory / f"{diagram.name}.svg", directory / f"{diagram.name}.mmd"
    if not (svg_path.is_file() and mmd_path.is_file()):
        raise DiagramError(f"diagram {diagram.name} is not rendered yet: run `{RENDER_COMMAND}`")
    if mmd_path.read_text(encoding="utf-8") != diagram.mmd_text:
        raise DiagramError(
            f"diagram {diagram.name} changed since its image was rendered "
            f"({mmd_path.name} differs from the block in src/{diagram.module}.py): "
            f"run `{RENDER_COMMAND}`"
        )
    encoded = base64.b64encode(svg_path.read_bytes()).decode("ascii")
    return f"![{diagram.alt_text()}](data:image/svg+xml;base64,{encoded})"
