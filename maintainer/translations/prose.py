"""Where English prose is left in a Chinese text, outside code and names.

:func:`english_prose` finds the runs of English words that read as prose rather than as
names: three words or more, or two with a function word ("the log", "is kept"). A single
word (``SQLite``, ``notebook``, ``payload``) is a name, as the glossary keeps some. Code
blocks, doctests, comments, links' targets, inline code, addresses, HTML tags and quoted
identifiers (``"call_1"``) are not prose. :func:`code_texts` gives what a person reads in
Python code: its comments and its strings.

The Chinese copy's test, the notebooks' code cells and the end-to-end walk of a Chinese
reader's path all look with these.
"""

from __future__ import annotations

import io
import re
import tokenize

FENCED = re.compile(r"^\s*```.*?^\s*```", re.MULTILINE | re.DOTALL)
DOCTEST = re.compile(r"^\s*(>>>|\.\.\.).*$|^\s*[(\[{'].*$", re.MULTILINE)
NOT_PROSE = re.compile(r"<!--.*?-->|``[^`]*``|`[^`]*`|https?://\S+|<[^>]+>|\"[\w .-]*\"", re.DOTALL)
IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")  # the alt text is prose; the target is not
LINK_TARGET = re.compile(r"\]\([^)]*\)")
#: Names written in English in any language (products and protocols), removed before looking.
NAMES = re.compile(r"OpenAI Chat Completions(?: API)?|OpenAI Agents SDK|Server-Sent Events")
LATIN_RUN = re.compile(r"[A-Za-z][\w'+/-]*(?:[ \t]+[A-Za-z][\w'+/-]*)*")
FUNCTION_WORDS = frozenset(
    ("the", "a", "an", "and", "or", "of", "to", "is", "are", "was", "be", "in", "on", "for",
     "with", "that", "this", "it", "by", "as", "at", "from", "not", "you", "your", "we", "our",
     "what", "which", "when", "if")
)  # fmt: skip


def english_prose(document: str) -> list[str]:
    """The runs of English words in ``document`` that read as prose rather than as names (a
    run whose every word starts with a capital, ``Noto Sans CJK SC``, is a name)."""
    document = FENCED.sub(" ", DOCTEST.sub(" ", document))
    document = LINK_TARGET.sub("]", IMAGE.sub(r"\1", document))
    document = NAMES.sub(" ", NOT_PROSE.sub(" ", document))
    found = []
    for run in LATIN_RUN.finditer(document):
        words = run[0].split()
        if all(word[0].isupper() for word in words):
            continue
        if len(words) >= 3 or (len(words) == 2 and FUNCTION_WORDS & {w.lower() for w in words}):
            found.append(run[0])
    return found


_QUOTES = re.compile(r"^[rbfuRBFU]*('''|\"\"\"|'|\")|('''|\"\"\"|'|\")$")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
#: A string that is code, not words: SQL, or a regular expression.
_CODE_STRING = re.compile(
    r"\b(?:SELECT|INSERT|CREATE|UPDATE|DELETE|PRAGMA|FROM|WHERE|VALUES|CONFLICT|TABLE"
    r"|INTEGER|TEXT|NOT NULL|PRIMARY KEY|REFERENCES|ORDER BY)\b|\.\*"
)


def code_texts(source: str) -> list[str]:
    """What a reader of Python ``source`` reads as words: each comment and each string (an
    f-string's ``{...}`` fields left out; SQL and regular expressions are code)."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found.append(token.string.lstrip("#").strip())
        elif token.type == tokenize.STRING and not _CODE_STRING.search(token.string):
            inner = re.sub(r"\\[nrt]", " ", _QUOTES.sub("", token.string))  # escapes: spaces
            found.append(_PLACEHOLDER.sub(" ", inner) if token.string[:2].lower() in (
                "f'", 'f"', "rf", "fr") else inner)  # fmt: skip
    return found


def code_prose(source: str) -> list[str]:
    """The English prose in the comments and strings of Python ``source``."""
    return [run for words in code_texts(source) for run in english_prose(words)]


def code_shape(source: str) -> list[tuple[int, str]]:
    """``source``'s tokens with every comment and string left blank: two cells of the same
    shape run the same code, whatever language their words are in."""
    shape = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            continue
        shape.append((token.type, "" if token.type == tokenize.STRING else token.string))
    return shape
