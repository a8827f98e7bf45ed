"""The exercises' docstrings in Chinese: the same stubs, the same code, other words.

The English stubs in ``exercises/`` are the source. :mod:`maintainer.translations.exercises_zh`
holds each docstring's translation with the fingerprint of the English it was made from,
the ``Promises:`` bullets left out on both sides: in Chinese they are the grader's own
Chinese promise texts (``promise.*`` in each task's ``texts.py``), one bullet per promise in
the contract's order, so a docstring and the grader's report say the same thing in both
languages and cannot drift apart.

:func:`build_stub` writes a Chinese stub: the English file with every docstring replaced and
nothing else touched. ``python -m maintainer.translations build`` writes the three into
``docs/learner/zh/exercises/``, which a Chinese learner's copy holds as its ``exercises/``.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

from grader.engine.contract import FUNCTIONS
from grader.i18n import text
from grader.i18n.wrap import unwrap, width, wrap
from grader.transport.workspace import EXERCISE_MODULES

KIT_ROOT = Path(__file__).resolve().parents[2]
#: The files of ``exercises/`` that hold docstrings: its ``__init__`` and the grader's list of
#: exercise modules (one list, so a new module, ``python -m maintainer new-function``, is one edit).
EXERCISE_FILES = ("__init__.py", *EXERCISE_MODULES)
EN_HEADING = "Promises:"
ZH_HEADING = "约定："  # noqa: RUF001 - a Chinese heading ends with a Chinese colon
LINE_LIMIT = 100
BY_NAME = {function.name: function for function in FUNCTIONS}


def documented_nodes(tree: ast.Module) -> dict[str, ast.Module | ast.FunctionDef]:
    """The module and each top-level function, by their key (``""`` for the module)."""
    nodes: dict[str, ast.Module | ast.FunctionDef] = {"": tree}
    nodes.update({node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)})
    return {key: node for key, node in nodes.items() if ast.get_docstring(node) is not None}


def english_stub(name: str, folder: Path | None = None) -> str:
    """The English stub ``name`` as the last commit holds it (``folder``'s file if given, or
    the working copy's where this is not a git checkout): a finished solution in
    ``exercises/`` is a learner's, never the source of a translation."""
    if folder is not None:
        return (folder / name).read_text(encoding="utf-8")
    try:
        return subprocess.run(
            ["git", "show", f"HEAD:exercises/{name}"],
            cwd=KIT_ROOT, capture_output=True, check=True, text=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return (KIT_ROOT / "exercises" / name).read_text(encoding="utf-8")


def english_docstrings(folder: Path | None = None) -> dict[str, str]:
    """``{"event_log": module docstring, "event_log.append_event": ..., ...}``, each with its
    promise bullets removed (the heading stays): what a translation is made from."""
    found: dict[str, str] = {}
    for name in EXERCISE_FILES:
        stem = name.removesuffix(".py")
        tree = ast.parse(english_stub(name, folder))
        for key, node in documented_nodes(tree).items():
            docstring = ast.get_docstring(node) or ""
            found[f"{stem}.{key}" if key else stem] = without_bullets(docstring, EN_HEADING)
    return found


def without_bullets(docstring: str, heading: str) -> str:
    """The docstring with the lines under ``heading`` removed up to the next blank line."""
    kept, skipping = [], False
    for line in docstring.splitlines():
        if skipping and not line.strip():
            skipping = False
        if not skipping:
            kept.append(line)
        if line.strip() == heading:
            skipping = True
    return "\n".join(kept)


def bullets(docstring: str, heading: str) -> list[str]:
    """The bullets under ``heading``, each joined back into one line."""
    lines = docstring.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == heading]
    items: list[list[str]] = []
    for line in lines[starts[0] + 1 :] if starts else []:
        if not line.strip():
            break
        if line.lstrip().startswith("- "):
            items.append([line.lstrip()[2:]])
        elif items:
            items[-1].append(line)
    return [unwrap(item) for item in items]


def chinese_docstring(key: str, translation: str, indent: str) -> str:
    """The Chinese docstring of ``key``: the translation with the promises' bullets put under
    its heading, every long line wrapped to fit ``LINE_LIMIT`` once indented by ``indent``."""
    function = BY_NAME.get(key.split(".")[-1]) if "." in key else None
    lines: list[str] = []
    for line in translation.splitlines():
        lines.extend(wrapped(line, indent))
        if line.strip() == ZH_HEADING and function is not None:
            for promise in function.promises:
                sentence = text(f"promise.{promise}", "zh")
                bullet_indent = " " * (len(line) - len(line.lstrip())) + "    "
                lines.extend(wrap(sentence, LINE_LIMIT - len(indent), bullet_indent + "- ",
                                  bullet_indent + "  ", source_width))  # fmt: skip
    return "\n".join(lines)


def source_width(text: str) -> int:
    """How wide ``text`` is once written in a docstring, where a backslash is written twice."""
    return width(text.replace("\\", "\\\\"))


def wrapped(line: str, indent: str) -> list[str]:
    """One line of a translation, wrapped when too wide: a list item's later lines under its
    text, an argument's (``name: ...`` inside a section) four columns in."""
    if source_width(indent + line) <= LINE_LIMIT:
        return [line]
    stripped = line.lstrip()
    lead = line[: len(line) - len(stripped)]
    item = re.match(r"(?:- |\d+\. )", stripped)
    if item:
        marker = item[0]
        rest = stripped[len(marker) :]
        hanging = lead + " " * len(marker)
        return wrap(rest, LINE_LIMIT - len(indent), lead + marker, hanging, source_width)
    hanging = lead + "    " if lead and ": " in stripped.split(" ")[0] + " " else lead
    return wrap(stripped, LINE_LIMIT - len(indent), lead, hanging, source_width)


def docstring_source(docstring: str, indent: str) -> str:
    """The docstring as source code: triple quotes, backslashes escaped, lines indented."""
    body = docstring.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    lines = body.splitlines()
    if len(lines) == 1:
        return f'{indent}"""{lines[0]}"""'
    inner = "\n".join(f"{indent}{line}" if line.strip() else "" for line in lines[1:])
    return f'{indent}"""{lines[0]}\n{inner}\n{indent}"""'


def not_implemented_messages(tree: ast.Module) -> list[tuple[ast.Constant, str]]:
    """Each ``raise NotImplementedError("...")`` message of a stub, with its function."""
    found = []
    for function in (node for node in tree.body if isinstance(node, ast.FunctionDef)):
        for node in ast.walk(function):
            if (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                    and getattr(node.exc.func, "id", None) == "NotImplementedError"
                    and node.exc.args and isinstance(node.exc.args[0], ast.Constant)):  # fmt: skip
                found.append((node.exc.args[0], function.name))
    return found


def build_stub(english_source: str, stem: str, translations: dict[str, str]) -> str:
    """The Chinese stub: ``english_source`` with each docstring replaced by its translation,
    and each ``NotImplementedError`` saying that the function is not implemented yet in
    Chinese (the grader's ``stub.not_implemented``).

    Raises:
        KeyError: a docstring without a translation (the drift test names it first).
        ValueError: a stub's message is not the grader's English sentence.
    """
    lines = english_source.splitlines()
    tree = ast.parse(english_source)
    for constant, function in sorted(not_implemented_messages(tree),
                                     key=lambda found: (found[0].lineno, found[0].col_offset),
                                     reverse=True):  # fmt: skip
        if constant.value != text("stub.not_implemented", "en", function=function):
            raise ValueError(f"{function}: the stub's message is not the grader's sentence")
        chinese = text("stub.not_implemented", "zh", function=function)
        line = lines[constant.lineno - 1]
        lines[constant.lineno - 1] = (
            line[: constant.col_offset] + f'"{chinese}"' + line[constant.end_col_offset or 0 :]
        )
    replacements = []
    for key, node in documented_nodes(tree).items():
        expression = node.body[0]
        indent = " " * expression.col_offset
        full_key = f"{stem}.{key}" if key else stem
        zh = chinese_docstring(full_key, translations[full_key], indent)
        replacements.append((expression.lineno, expression.end_lineno or expression.lineno,
                             docstring_source(zh, indent)))  # fmt: skip
    for first, last, source in sorted(replacements, reverse=True):
        lines[first - 1 : last] = source.splitlines()
    return "\n".join(lines) + "\n"
