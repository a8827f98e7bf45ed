"""Every message exists, non-empty, in English and Chinese, and the compiled files match."""

from __future__ import annotations

import ast
import gettext
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from grader import i18n, messages
from grader.release.proofs import FAILED, PASSED, SKIPPED
from grader.sandbox.backends import BWRAP, NONE, UID

GRADER_DIR = Path(i18n.__file__).resolve().parents[1]

# Ids the code builds at run time, so the source scan below cannot see them, and every id
# the grader's messages module names (task names, property sentences, statuses, hints, ...).
BUILT_IDS = (
    {f"batch.isolation.{isolation}" for isolation in (BWRAP, UID, NONE)}
    | {f"release.outcome.{outcome}" for outcome in (PASSED, FAILED, SKIPPED)}
    | messages.all_message_ids()
)


def po_messages(language_code: str) -> dict[str, str]:
    """The ``.po`` source of one language as ``{message id: sentence}``."""
    with (i18n.CATALOG_DIR / f"{language_code}.po").open("rb") as source:
        catalog = read_po(source, abort_invalid=True)
    return {message.id: message.string for message in catalog if message.id}


def mo_messages(language_code: str) -> dict[str, str]:
    """The compiled ``.mo`` file of one language as ``{message id: sentence}``."""
    with (i18n.CATALOG_DIR / f"{language_code}.mo").open("rb") as compiled:
        translations = gettext.GNUTranslations(compiled)
    entries: dict[str, str] = translations._catalog  # type: ignore[attr-defined]
    return {key: value for key, value in entries.items() if key}


def placeholders(sentence: str) -> set[str]:
    """The ``{name}`` fields a sentence expects."""
    return {field for _, field, _, _ in string.Formatter().parse(sentence) if field}


def literal_message_ids() -> set[str]:
    """Every string literal passed as the first argument of ``text(...)`` in the grader."""
    found = set()
    for path in GRADER_DIR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == "text"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.add(node.args[0].value)
    return found


def test_both_languages_have_the_same_message_ids():
    assert set(po_messages("en")) == set(po_messages("zh"))


@pytest.mark.parametrize("language_code", i18n.LANGUAGES)
def test_no_message_is_empty(language_code):
    empty = [key for key, sentence in po_messages(language_code).items() if not sentence.strip()]
    assert empty == []


@pytest.mark.parametrize("language_code", i18n.LANGUAGES)
def test_every_message_the_code_names_is_in_the_catalog(language_code):
    assert (literal_message_ids() | BUILT_IDS) - set(po_messages(language_code)) == set()


def test_translations_expect_the_same_placeholders_as_english():
    english, chinese = po_messages("en"), po_messages("zh")
    mismatched = [
        key for key in english if placeholders(english[key]) != placeholders(chinese.get(key, ""))
    ]
    assert mismatched == []


@pytest.mark.parametrize("language_code", i18n.LANGUAGES)
def test_compiled_catalog_matches_its_source(language_code):
    # After editing a .po file, run `python -m grader.i18n.compile`.
    assert mo_messages(language_code) == po_messages(language_code)


def test_the_messages_module_holds_no_sentence_outside_the_catalogs():
    # Status codes are the only strings it defines itself; a sentence added as a plain
    # constant would never be translated.
    stray = [
        name
        for name, value in vars(messages).items()
        if name.isupper() and isinstance(value, str) and not name.startswith("STATUS_")
    ]
    assert stray == []


@pytest.mark.parametrize("language_code", i18n.LANGUAGES)
def test_every_sentence_the_messages_module_names_reads_from_the_catalog(language_code):
    with i18n.using_language(language_code):
        sentences = {name: getattr(messages, name) for name in messages.SENTENCE_IDS}
    assert [
        name for name, sentence in sentences.items() if sentence in messages.SENTENCE_IDS.values()
    ] == []


def test_every_message_in_the_catalog_is_used_somewhere() -> None:
    # A sentence nobody shows is dead weight for translators, and usually a forgotten rename.
    unused = set(po_messages("en")) - literal_message_ids() - BUILT_IDS - indirect_ids()
    assert unused == set()


def test_every_sentence_the_messages_module_names_is_used_by_the_grader() -> None:
    code = "\n".join(
        path.read_text(encoding="utf-8")
        for path in GRADER_DIR.rglob("*.py")
        if path.name != "messages.py"
    )
    unused = [name for name in messages.SENTENCE_IDS if f"messages.{name}" not in code]
    assert unused == []


def indirect_ids() -> set[str]:
    """Ids the code names as string constants that are passed to ``text`` later."""
    found = set()
    for path in GRADER_DIR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    return found
