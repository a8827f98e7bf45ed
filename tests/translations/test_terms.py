"""Every Chinese text reads as the chapter's: its terms from the one glossary, none of the
words it rules out, Chinese punctuation, and a space between Chinese and Latin words.

The grader's catalogs are held to this by ``tests/learner_tools/test_catalogs.py``; here the
same rules reach every other translation: the exercises' docstrings, the READMEs, the
notebooks (and their diagrams' labels), the demo and the live page.
"""

# ruff: noqa: RUF001 - Chinese marks are what these tests look at

from __future__ import annotations

import re
import subprocess

from grader.i18n import text_modules
from grader.i18n.glossary import problems, ruled_out
from maintainer.translations.catalogs import all_catalogs
from maintainer.translations.docstrings import KIT_ROOT
from maintainer.translations.notebooks import CODE
from maintainer.translations.prose import code_texts, english_prose
from tests.learner_tools.test_catalogs import CJK, prose

GRADERS = {module.__name__ for module in text_modules()}
CATALOGS = [
    c for c in all_catalogs() if c.file.replace("/", ".").removesuffix(".py") not in GRADERS
]
FENCED = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
# Markup that is not prose: comments, link targets, images, table rules, inline code.
MARKUP = re.compile(r"<!--.*?-->|\]\([^)]*\)|!\[[^\]]*\]|``[^`]*``|`[^`]*`|\|?-{3,}:?\|?")


#: The files that name the ruled-out words: the glossary itself, and the bridge from the
#: chapter, which maps the chapter's 重放 to the kit's 回放.
WORDS_NAMED = frozenset(
    {"grader/i18n/glossary.py", "docs/chapter-bridge.md", "docs/chapter-bridge.zh-CN.md"}
)


def names_the_chapters_words(where: str, problem: str) -> bool:
    """Whether ``problem`` is a ruled-out word in a file that names it on purpose."""
    return where.split(" ")[0] in WORDS_NAMED and problem.startswith("never ")


def pairs() -> list[tuple[str, str, str]]:
    """(where, English, Chinese) for every translated entry outside the grader's catalogs; a
    notebook's code cell by its comments and strings only."""
    found = []
    for catalog in CATALOGS:
        for key, english in catalog.english.items():
            if key not in catalog.chinese:
                continue
            chinese = catalog.chinese[key][1]
            if key.startswith(CODE):  # its words: comments and strings, a single word a name
                english = "\n".join(t for t in code_texts(english) if english_prose(t))
                chinese = "\n".join(code_texts(chinese))
            found.append((f"{catalog.file} {key}", english, chinese))
    return found


DOCTEST = re.compile(r"^\s*(>>>|\.\.\.).*$|^\s*[(\[{'].*$", re.MULTILINE)


def words_of(text: str) -> str:
    """The prose of a longer text: code blocks, doctests and markup dropped, then as the
    grader's catalog test reads a sentence."""
    return prose(MARKUP.sub(" ", FENCED.sub(" ", DOCTEST.sub(" ", text))))


def test_there_is_much_to_check() -> None:
    assert len(pairs()) > 150


def test_every_translation_says_each_concept_in_the_glossarys_word() -> None:
    departures = [
        f"{where}: {problem}"
        for where, english, chinese in pairs()
        for problem in problems(words_of(english), chinese)
        if not names_the_chapters_words(where, problem)
    ]
    assert departures == []


def test_no_translation_uses_a_word_the_glossary_rules_out() -> None:
    used = [(where, word) for where, _, chinese in pairs() for word in ruled_out(chinese)
            if where.split(" ")[0] not in WORDS_NAMED]  # fmt: skip
    assert used == []


def test_no_file_of_the_kit_uses_a_word_the_glossary_rules_out() -> None:
    # Beyond the catalogs too: a scripted model's reply, a comment, a diagram's label.
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=KIT_ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")  # fmt: skip
    ours = [path for path in listed if path and not path.startswith("tests/")
            and path not in WORDS_NAMED and (KIT_ROOT / path).is_file()]  # fmt: skip
    used = []
    for path in ours:
        try:
            content = (KIT_ROOT / path).read_text(encoding="utf-8")
        except UnicodeDecodeError:  # an image
            continue
        used += [(path, word) for word in ruled_out(content)]
    assert used == []


def test_chinese_punctuation_and_a_space_between_chinese_and_latin_words() -> None:
    # Code is left alone: a Mermaid label or a command is not a sentence.
    glued = re.compile(rf"{CJK}[,;:?!(]|{CJK}\.(?:\s|$)|{CJK}[A-Za-z0-9]|[A-Za-z0-9]{CJK}")
    offenders = [
        f"{where}: {match[0]!r}"
        for where, _, chinese in pairs()
        for match in glued.finditer(MARKUP.sub(" ", FENCED.sub(" ", chinese)))
    ]
    assert offenders == []


def badly_closed(line: str) -> bool:
    """Whether a ``**`` that closes bold text follows a mark and precedes a character:
    CommonMark then does not read it as closing, and the asterisks show."""
    parts = line.split("**")
    closings = range(2, len(parts), 2)  # the text after each second **
    return any(parts[i - 1][-1:] in "，。、；：！？）" and parts[i][:1].strip() for i in closings)


def test_bold_text_closes_where_markdown_sees_it_close() -> None:
    # "**崩溃。**进程" shows its asterisks: write "**崩溃**。进程".
    wrong = [where for where, _, chinese in pairs() for line in chinese.splitlines()
             if badly_closed(line)]  # fmt: skip
    assert wrong == []
    assert badly_closed("**崩溃。**进程") and not badly_closed("：**持久层**。**崩溃**。进程")
