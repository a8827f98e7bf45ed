"""An exercise's docstring as the page shows it: paragraphs, headed sections, lists, terms
and code, each line of a paragraph joined back as its language joins it.

A docstring is written for a terminal: reStructuredText-ish marks (````code````, ``*emphasis*``,
``**strong**``), sections under ``Promises:`` or ``约定：``, lines wrapped at 100 columns. The
page's column is narrower and reflows text, so the docstring is read into :data:`Block` s here,
at build time, and the page only builds elements from them (as text, never as HTML). A
Chinese line is wrapped between two characters, so it is joined back without a space
(:func:`grader.i18n.wrap.unwrap`): "由事件组成的元组", never "由事件组成的 元组".
"""

# ruff: noqa: RUF001, RUF002 - Chinese marks are what a section heading may end with

from __future__ import annotations

import re
import textwrap
from typing import Any

from grader.i18n.wrap import unwrap

#: One block: ``{"kind": "paragraph", "text": [...]}``, ``{"kind": "heading", "text": str}``,
#: ``{"kind": "list", "ordered": bool, "items": [[...], ...]}``, ``{"kind": "terms", "items":
#: [{"term": str, "text": [...]}]}`` or ``{"kind": "code", "text": str}``; ``[...]`` is a
#: list of inline pieces, ``{"text": str}``, ``{"code": str}``, ``{"em": str}`` or
#: ``{"strong": str}``.
Block = dict[str, Any]

_HEADING = re.compile(r"^\S.*[:：]$")
_LIST_ITEM = re.compile(r"^(?:- |\d+\. )")
_TERM = re.compile(r"^([\w.]+(?: \([^)]*\))?)[:：] ?(.*)$")
_INLINE = re.compile(r"``(.+?)``|\*\*(.+?)\*\*|\*(.+?)\*|`(.+?)`")


def blocks_of(docstring: str) -> list[Block]:
    """The docstring (as :func:`ast.get_docstring` gives it) as blocks."""
    lines = docstring.splitlines()
    found: list[Block] = []
    index = 0
    while index < len(lines):
        if not lines[index].strip():
            index += 1
            continue
        body_end = _end_of_indented(lines, index + 1)
        if _HEADING.match(lines[index]) and body_end > index + 1:
            found.append({"kind": "heading", "text": lines[index].rstrip(":：")})
            found += _section(textwrap.dedent("\n".join(lines[index + 1 : body_end])))
            index = body_end
            continue
        end = _end_of_paragraph(lines, index)
        found.append(_paragraph_or_list(lines[index:end]))
        index = end
    return found


def _end_of_indented(lines: list[str], start: int) -> int:
    """The first line after ``start`` at the left margin (blank lines belong to the block)."""
    end = start
    while end < len(lines) and (not lines[end].strip() or lines[end].startswith((" ", "\t"))):
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return end


def _end_of_paragraph(lines: list[str], start: int) -> int:
    end = start + 1
    while end < len(lines) and lines[end].strip():
        end += 1
    return end


def _section(body: str) -> list[Block]:
    """A section's body: code, a list, terms (``name: what it is``) or paragraphs."""
    lines = body.splitlines()
    if lines and lines[0].startswith(">>>"):
        return [{"kind": "code", "text": body.rstrip()}]
    if lines and _LIST_ITEM.match(lines[0]):
        return [_list(lines)]
    if lines and all(_TERM.match(item[0]) for item in _items(lines)):
        return [{"kind": "terms", "items": [_term(item) for item in _items(lines)]}]
    return [_paragraph_or_list(part.splitlines()) for part in re.split(r"\n\s*\n", body)]


def _items(lines: list[str]) -> list[list[str]]:
    """Lines grouped by item: an item starts at the margin, its later lines are indented."""
    items: list[list[str]] = []
    for line in lines:
        if not line.strip():
            continue
        if line.startswith((" ", "\t")) and items:
            items[-1].append(line)
        else:
            items.append([line])
    return items


def _term(item: list[str]) -> dict[str, Any]:
    matched = _TERM.match(item[0])
    assert matched is not None
    return {"term": matched[1], "text": inline(unwrap([matched[2], *item[1:]]))}


def _paragraph_or_list(lines: list[str]) -> Block:
    if _LIST_ITEM.match(lines[0].lstrip()):
        return _list([line.strip() if _LIST_ITEM.match(line.strip()) else line for line in lines])
    return {"kind": "paragraph", "text": inline(unwrap(lines))}


def _list(lines: list[str]) -> Block:
    items = [[_LIST_ITEM.sub("", item[0], count=1), *item[1:]] for item in _items(lines)]
    ordered = lines[0][:1].isdigit()
    return {"kind": "list", "ordered": ordered, "items": [inline(unwrap(item)) for item in items]}


def inline(text: str) -> list[dict[str, str]]:
    """The pieces of one paragraph: code (````x```` or ```x```), ``**strong**``,
    ``*emphasis*``, and the plain text between them."""
    pieces: list[dict[str, str]] = []
    position = 0
    for found in _INLINE.finditer(text):
        if found.start() > position:
            pieces.append({"text": text[position : found.start()]})
        code, strong, emphasis, quoted = found.groups()
        if strong is not None:
            pieces.append({"strong": strong})
        elif emphasis is not None:
            pieces.append({"em": emphasis})
        else:
            pieces.append({"code": code if code is not None else quoted})
        position = found.end()
    if position < len(text):
        pieces.append({"text": text[position:]})
    return pieces
