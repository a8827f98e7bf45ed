"""Compile the ``.po`` catalogs into the ``.mo`` files the grader reads at run time.

Usage: ``python -m grader.i18n.compile``. Babel does the compiling (a development dependency);
the grader itself reads ``.mo`` files with the standard library only. The output is
deterministic, so the catalog test can compare the committed ``.mo`` with a fresh compile.
"""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from grader.i18n import CATALOG_DIR, LANGUAGES


def read_catalog(language_code: str) -> Catalog:
    """Parse ``<language_code>.po`` from the catalog folder."""
    with (CATALOG_DIR / f"{language_code}.po").open("rb") as source:
        return read_po(source, locale=language_code, abort_invalid=True)


def compiled_bytes(language_code: str) -> bytes:
    """Return the ``.mo`` bytes that ``<language_code>.po`` compiles to."""
    buffer = io.BytesIO()
    write_mo(buffer, read_catalog(language_code))
    return buffer.getvalue()


def compile_all() -> list[Path]:
    """Write every ``.mo`` file from its ``.po`` source and return the paths written."""
    written = []
    for language_code in LANGUAGES:
        target = CATALOG_DIR / f"{language_code}.mo"
        target.write_bytes(compiled_bytes(language_code))
        written.append(target)
    return written


if __name__ == "__main__":
    for path in compile_all():
        print(f"wrote {path.name}")
