"""Render every Mermaid block of ``notebooks/src/`` to an SVG in ``notebooks/diagrams/``.

Usage: ``python notebooks/render_diagrams.py [--mmdc COMMAND]``, then ``python
notebooks/build.py``. Run it after adding or editing a diagram; the builder refuses a diagram
whose image was drawn from another source (see ``src/diagrams.py`` for why diagrams are
images). It writes ``NAME.mmd`` (the source) and ``NAME.svg`` for each diagram and deletes the
files of diagrams that are gone.

It needs mermaid-cli, which runs Mermaid in a headless Chromium: ``mmdc`` on the PATH, the
command given with ``--mmdc``, or else ``npx`` fetches the pinned version below. Chromium is
taken from ``PUPPETEER_EXECUTABLE_PATH`` or ``/usr/bin/chromium`` (Debian: ``apt-get install
chromium``), so npm need not download a browser of its own. Chinese labels need a font
that has them (Debian: ``apt-get install fonts-noto-cjk``), or their boxes are measured wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

from build import OUT_DIRS, TranslationMissing, cell_modules, markdown_in
from diagrams import DIAGRAMS_DIR, Diagram, find_diagrams

MERMAID_CLI = "@mermaid-js/mermaid-cli@11.17.0"
# Labels as SVG text rather than HTML inside <foreignObject>, which some image viewers drop;
# the neutral theme reads on light and dark pages; fixed ids and a fixed seed for the random
# control points of the ER boxes make a re-render of an unchanged diagram byte-identical.
MERMAID_CONFIG = {
    "theme": "neutral",
    "htmlLabels": False,
    "flowchart": {"htmlLabels": False},
    "deterministicIds": True,
    "handDrawnSeed": 1,
}
# Mermaid writes coordinates with up to 15 decimals; a hundredth of a pixel is plenty, and
# the ER diagram's SVG shrinks by a fifth (every notebook carries its images inside it).
LONG_DECIMAL = re.compile(r"(\d\.\d{2})\d+")
ATTRIBUTE_VALUE = re.compile(r'="[^"]*"')


def all_diagrams() -> list[Diagram]:
    """Every diagram of every notebook module, in notebook order, in each language its
    cells are translated into (a notebook not fully translated yet draws none in Chinese)."""
    found = []
    for module in cell_modules():
        for language in OUT_DIRS:
            try:
                markdown = markdown_in(module, language)
            except TranslationMissing:
                continue
            found += find_diagrams(module.__name__, markdown, language)
    return found


def mmdc_command(explicit: str | None) -> list[str]:
    """The mermaid-cli command: ``--mmdc``, else ``mmdc`` on the PATH, else ``npx``."""
    if explicit:
        return shlex.split(explicit)
    if shutil.which("mmdc"):
        return ["mmdc"]
    return ["npx", "--yes", "--package", MERMAID_CLI, "mmdc"]


def compact_svg(svg: str) -> str:
    """Cut numbers inside attribute values to two decimals; text content is left alone."""
    return ATTRIBUTE_VALUE.sub(lambda value: LONG_DECIMAL.sub(r"\1", value[0]), svg)


def render(diagram: Diagram, mmdc: list[str], settings: Path, directory: Path) -> None:
    """Write ``NAME.mmd`` and draw ``NAME.svg`` from it."""
    mmd_path, svg_path = directory / f"{diagram.name}.mmd", directory / f"{diagram.name}.svg"
    mmd_path.write_text(diagram.mmd_text, encoding="utf-8")
    arguments = ["-q", "-b", "white", "-i", str(mmd_path), "-o", str(svg_path)]
    arguments += ["-c", str(settings / "mermaid.json"), "-p", str(settings / "puppeteer.json")]
    environment = {**os.environ, "PUPPETEER_SKIP_DOWNLOAD": "1"}
    subprocess.run([*mmdc, *arguments], check=True, env=environment)
    svg_path.write_text(compact_svg(svg_path.read_text(encoding="utf-8")), encoding="utf-8")


def write_settings(folder: Path) -> None:
    """Write the Mermaid and Puppeteer configuration files mmdc reads."""
    chromium = os.environ.get("PUPPETEER_EXECUTABLE_PATH", "/usr/bin/chromium")
    # Chromium's sandbox cannot start as root (containers, CI); the input is our own diagrams.
    puppeteer = {"executablePath": chromium, "args": ["--no-sandbox"]}
    (folder / "puppeteer.json").write_text(json.dumps(puppeteer), encoding="utf-8")
    (folder / "mermaid.json").write_text(json.dumps(MERMAID_CONFIG), encoding="utf-8")


def remove_orphans(diagrams: list[Diagram], directory: Path) -> list[Path]:
    """Delete the ``.mmd`` and ``.svg`` files of diagrams that no longer exist."""
    wanted = {diagram.name for diagram in diagrams}
    orphans = [path for path in sorted(directory.glob("*.*")) if path.suffix in (".mmd", ".svg")]
    orphans = [path for path in orphans if path.stem not in wanted]
    for path in orphans:
        path.unlink()
    return orphans


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mmdc", help="the mermaid-cli command to run (default: see above)")
    arguments = parser.parse_args(argv)
    diagrams, mmdc = all_diagrams(), mmdc_command(arguments.mmdc)
    DIAGRAMS_DIR.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as settings:
        write_settings(Path(settings))
        for diagram in diagrams:
            render(diagram, mmdc, Path(settings), DIAGRAMS_DIR)
            print(f"rendered notebooks/diagrams/{diagram.name}.svg")
    for orphan in remove_orphans(diagrams, DIAGRAMS_DIR):
        print(f"removed notebooks/diagrams/{orphan.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
