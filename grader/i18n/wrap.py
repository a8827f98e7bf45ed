"""Wrap and unwrap text that mixes Chinese and Latin, the way a Chinese technical writer does.

Chinese has no spaces between words, so a line may break between any two characters, but
never before a closing mark (，。、；：）」 and the like) nor after an opening one (（「“). A Latin
word or a piece of code is never split. Between a Chinese character and a Latin word there
is one space (``事件 id``), between a Chinese punctuation mark and anything there is none
(``（int）、``): a line broken there is joined back by :func:`unwrap` to the same text, so
a wrapped docstring can be compared with the one-line sentence it was made from.
"""

# ruff: noqa: RUF001, RUF002 - the Chinese marks are the point here

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass

#: Marks a line must not start with, and marks it must not end with.
CLOSING = set("，。、；：！？）」』”’》〉】…·")
OPENING = set("（「『“‘《〈【")


def is_wide(char: str) -> bool:
    """A character that takes two columns in a terminal or an editor (CJK, full-width marks)."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def is_wide_mark(char: str) -> bool:
    """A wide punctuation mark (，、（ ...), which takes no space beside it."""
    return is_wide(char) and unicodedata.category(char).startswith(("P", "S"))


def width(text: str) -> int:
    """The columns ``text`` takes: two for a wide character, one for any other."""
    return sum(2 if is_wide(char) else 1 for char in text)


@dataclass(frozen=True, slots=True)
class Atom:
    """A piece no line break may split, and whether a space stood before it."""

    text: str
    spaced: bool


def atoms(text: str) -> list[Atom]:
    """Split ``text`` into pieces: one per wide character, one per run of other characters,
    with closing marks glued to the piece before and opening marks to the piece after."""
    raw: list[Atom] = []
    spaced = False
    for char in text:
        if char == " ":
            spaced = True
        elif raw and not spaced and not is_wide(char) and not is_wide(raw[-1].text[-1]):
            raw[-1] = Atom(raw[-1].text + char, raw[-1].spaced)
        else:
            raw.append(Atom(char, spaced))
            spaced = False
    glued: list[Atom] = []
    for atom in raw:
        after_opening = glued and glued[-1].text[-1] in OPENING and not atom.spaced
        if glued and ((atom.text[0] in CLOSING and not atom.spaced) or after_opening):
            glued[-1] = Atom(glued[-1].text + atom.text, glued[-1].spaced)
        else:
            glued.append(atom)
    return glued


def wrap(
    text: str,
    limit: int,
    indent: str = "",
    hanging: str = "",
    measure: Callable[[str], int] = width,
) -> list[str]:
    """Break one line of text into lines of at most ``limit`` columns.

    Args:
        text: the line, without its indentation.
        limit: the widest a line may be, indentation included.
        indent: what the first line starts with.
        hanging: what every later line starts with.
        measure: how wide a line is (a docstring's backslashes take two columns in source).

    Returns:
        The lines; a piece wider than a line on its own gets a line of its own.
    """
    lines: list[str] = []
    line = indent
    for atom in atoms(text):
        gap = " " if atom.spaced and line.strip() else ""
        if line.strip() and measure(line + gap + atom.text) > limit:
            lines.append(line)
            line, gap = hanging, ""
        line += gap + atom.text
    lines.append(line)
    return lines


def joiner(left: str, right: str) -> str:
    """What stood between two lines' ends before they were wrapped: nothing beside a wide
    mark or a Chinese quotation mark (“”‘’, which are not wide everywhere), or between two
    wide characters; one space otherwise."""
    marks = OPENING | CLOSING
    if is_wide_mark(left) or is_wide_mark(right) or left in marks or right in marks:
        return ""
    return "" if is_wide(left) and is_wide(right) else " "


def unwrap(lines: list[str]) -> str:
    """Join wrapped lines back into the one line they came from."""
    joined = ""
    for piece in (line.strip() for line in lines):
        if joined and piece:
            joined += joiner(joined[-1], piece[0])
        joined += piece
    return joined


def paragraphs(lines: list[str]) -> Iterator[list[str]]:
    """The runs of non-blank lines."""
    run: list[str] = []
    for line in lines:
        if line.strip():
            run.append(line)
        elif run:
            yield run
            run = []
    if run:
        yield run
