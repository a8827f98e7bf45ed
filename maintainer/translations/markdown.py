"""Markdown documents translated section by section: ``README.md`` and ``README.zh-CN.md``.

The English document is cut at its headings (``#`` to ``###``, outside code blocks); each
section is its heading line and everything up to the next heading. The Chinese document is
cut at marker comments, one before each section it holds::

    <!-- en: "## Set up" 3f2a1b0c -->
    ## 准备环境

The marker names the English section (by its heading line) and the fingerprint of the English
the section was translated from. A marker is an HTML comment, so no reader sees it; what comes
before the first marker (a note for translators) belongs to no section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

HEADING = re.compile(r"^#{1,3} \S")
FENCE = re.compile(r"^\s*(```|~~~)")
MARKER = re.compile(r'^<!-- en: "(?P<heading>.*)" (?P<fingerprint>[0-9a-f]{8}) -->$')


def marker(heading: str, fingerprint: str) -> str:
    """The comment line that opens a translated section."""
    return f'<!-- en: "{heading}" {fingerprint} -->'


def english_sections(text: str) -> dict[str, str]:
    """``{heading line: the section's text}``, in the document's order (``""``: what comes
    before the first heading). A heading repeated later gets `` (2)``, `` (3)``..."""
    sections: dict[str, list[str]] = {}
    current, fenced = "", False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        if not fenced and HEADING.match(line):
            current = unique(line.rstrip(), sections)
            sections[current] = []
        sections.setdefault(current, []).append(line)
    return {key: "\n".join(lines).strip() for key, lines in sections.items()}


def unique(heading: str, taken: dict[str, list[str]]) -> str:
    number, key = 1, heading
    while key in taken:
        number += 1
        key = f"{heading} ({number})"
    return key


@dataclass(frozen=True, slots=True)
class Translated:
    """One section of a Chinese document: the English heading it translates, the fingerprint
    of the English it was made from, and its text (markdown, markers left out)."""

    heading: str
    fingerprint: str
    text: str


def translated_sections(text: str) -> list[Translated]:
    """The sections of a Chinese document, in its order."""
    found: list[Translated] = []
    lines: list[str] = []
    for line in [*text.splitlines(), '<!-- en: "" 00000000 -->']:
        opened = MARKER.match(line)
        if opened is None:
            lines.append(line)
            continue
        if found:
            last = found[-1]
            found[-1] = Translated(last.heading, last.fingerprint, "\n".join(lines).strip())
        found.append(Translated(opened["heading"], opened["fingerprint"], ""))
        lines = []
    return found[:-1]


def rendered(text: str) -> str:
    """A Chinese document as readers get it: the markers and the note before them removed."""
    sections = translated_sections(text)
    return "\n\n".join(section.text for section in sections) + "\n"


def restamp(path: Path, fingerprints: dict[str, str]) -> None:
    """Write the new fingerprints ``{heading: fingerprint}`` into the markers of ``path``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for index, line in enumerate(lines):
        opened = MARKER.match(line)
        if opened and opened["heading"] in fingerprints:
            lines[index] = marker(opened["heading"], fingerprints[opened["heading"]])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
