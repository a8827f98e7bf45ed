"""Command lines in the reader's language: argparse's own words too, and help wrapped as
Chinese is wrapped.

argparse writes some words of its own: ``usage:``, ``options:``, ``show this help message and
exit``, and the error lines (``invalid choice``, ``the following arguments are required``...).
It looks each up through gettext as it writes it. :class:`Parser` looks them up in the kit's
catalog instead (the ``argparse.*`` entries of :mod:`grader.i18n.texts`), in the language in
use, and only while it works: nothing outside it is changed. Its sub-commands' parsers are
:class:`Parser` s too.

:class:`HelpFormatter` wraps help by the columns a line takes on screen (a Chinese character
takes two) and may break a Chinese sentence between any two characters, never before a
closing mark: argparse's own wrapping counts characters and breaks only at spaces.
"""

# ruff: noqa: RUF001, RUF002 - the Chinese marks are the point here

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from grader.i18n import text
from grader.i18n.wrap import wrap

#: argparse's own words -> their catalog ids. A word missing here (one added by a later
#: Python) is shown as argparse wrote it.
ARGPARSE_WORDS: dict[str, str] = {
    "usage: ": "argparse.usage",
    "options": "argparse.options",
    "positional arguments": "argparse.positional",
    "show this help message and exit": "argparse.help",
    "%(prog)s: error: %(message)s\n": "argparse.error",
    "argument %(argument_name)s: %(message)s": "argparse.argument",
    "invalid choice: %(value)r (choose from %(choices)s)": "argparse.invalid_choice",
    "invalid %(type)s value: %(value)r": "argparse.invalid_value",
    "expected one argument": "argparse.expected_one",
    "expected at most one argument": "argparse.expected_at_most_one",
    "expected at least one argument": "argparse.expected_at_least_one",
    "expected %s argument": "argparse.expected_count",
    "expected %s arguments": "argparse.expected_count",
    "the following arguments are required: %s": "argparse.required",
    "unrecognized arguments: %s": "argparse.unrecognized",
    "not allowed with argument %s": "argparse.not_allowed_with",
    "one of the arguments %s is required": "argparse.one_required",
    "ambiguous option: %(option)s could match %(matches)s": "argparse.ambiguous",
    "ignored explicit argument %r": "argparse.ignored_value",
    "can't open '%(filename)s': %(error)s": "argparse.cannot_open",
    "unknown parser %(parser_name)r (choices: %(choices)s)": "argparse.unknown_command",
}


def argparse_word(message: str) -> str:
    """One of argparse's words in the language in use (as it is, where we have none)."""
    key = ARGPARSE_WORDS.get(message)
    return text(key) if key else message


def argparse_plural(singular: str, plural: str, count: int) -> str:
    return argparse_word(singular if count == 1 else plural)


@contextmanager
def argparse_in_our_words() -> Iterator[None]:
    """Let argparse look its words up in the catalog while the block runs."""
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = argparse_word, argparse_plural  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


#: A section's heading line in Chinese, as argparse ends it (with an ASCII colon).
_CHINESE_HEADING = re.compile(r"^(\S.*[\u3400-\u9fff].*):$", re.MULTILINE)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, wrapping by screen columns and between Chinese characters, and
    ending a Chinese heading with a Chinese colon (``选项：``)."""

    def format_help(self) -> str:
        return _CHINESE_HEADING.sub("\\1：", super().format_help())

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap(_one_line(text), max(width, 20))

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        """Each paragraph (a blank line apart) wrapped on its own."""
        paragraphs = [part for part in re.split(r"\n\s*\n", text) if part.strip()]
        return "\n\n".join(
            "\n".join(wrap(_one_line(part), max(width, 20), indent, indent)) for part in paragraphs
        )


#: Spaces beside a Chinese mark, which takes no space beside it.
_SPACE_BY_MARK = re.compile(r"(?<=[，。、；：！？）」』”])\s+|\s+(?=[，。、；：！？（「『“])")


def _one_line(text: str) -> str:
    return _SPACE_BY_MARK.sub("", " ".join(text.split()))


class Parser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` that speaks the language in use, argparse's own
    words included (see the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        with argparse_in_our_words():
            super().__init__(*args, **kwargs)

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> Any:
        with argparse_in_our_words():  # "unrecognized arguments" is said here
            return super().parse_args(args, namespace)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> tuple[Any, list[str]]:
        with argparse_in_our_words():
            return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        with argparse_in_our_words():
            return super().format_usage()

    def format_help(self) -> str:
        with argparse_in_our_words():
            return super().format_help()

    def error(self, message: str) -> Any:  # -> NoReturn, as argparse's
        with argparse_in_our_words():
            super().error(message)
