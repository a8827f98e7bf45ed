"""The catalogs: every sentence in English and in Chinese, each translation made from the
English as it is now, with the same placeholders, in the chapter's terms; every id the code
shows has its sentence, and every sentence is shown somewhere."""

from __future__ import annotations

import ast
import inspect
import re
import string
import textwrap
from functools import cache
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from grader.engine import contract, programs
from grader.engine.oracle import Refusal
from grader.engine.outcomes import Cause, Status
from grader.frontends.hints import LEVELS
from grader.frontends.report import OWN_HINTS
from grader.i18n import catalog, fingerprint, text, text_modules
from grader.i18n.texts import GLOSSARY, NEVER
from grader.tasks import TASKS
from grader.transport.isolation import Isolation
from maintainer.release.proofs import FAILED, PASSED, SKIPPED
from tests.learner_tools.conftest import KIT_ROOT

MODULES = text_modules()
MODULE_IDS = [module.__name__ for module in MODULES]
CJK = r"[\u3400-\u9fff]"


def english_and_chinese() -> list[tuple[str, str, str]]:
    """(id, English, Chinese) for every entry of every module."""
    return [
        (key, english, module.ZH[key][1])
        for module in MODULES
        for key, english in module.EN.items()
        if key in getattr(module, "ZH", {})
    ]


def drift(module: Any) -> list[str]:
    """What in ``module`` is out of step: English without Chinese, Chinese made from other
    English (its fingerprint is not the English's), Chinese without English."""
    zh = getattr(module, "ZH", {})
    missing = [f"{key}: no translation" for key in module.EN if key not in zh]
    stale = [
        f"{key}: translated from other English; once updated, write {fingerprint(english)!r}"
        for key, english in module.EN.items()
        if key in zh and zh[key][0] != fingerprint(english)
    ]
    orphans = [f"{key}: no English" for key in zh if key not in module.EN]
    return missing + stale + orphans


@pytest.mark.parametrize("module", MODULES, ids=MODULE_IDS)
def test_every_english_sentence_has_a_translation_of_that_very_sentence(module: Any) -> None:
    assert drift(module) == []


def test_changing_an_english_sentence_without_its_translation_is_caught() -> None:
    real = next(module for module in MODULES if module.__name__ == "grader.i18n.texts")
    edited = SimpleNamespace(EN={**real.EN, "watch.stopped": "Stopped."}, ZH=real.ZH)
    added = SimpleNamespace(EN={**real.EN, "watch.paused": "Paused."}, ZH=real.ZH)
    assert [line.split(":")[0] for line in drift(edited)] == ["watch.stopped"]
    assert drift(added) == ["watch.paused: no translation"]


def fields(sentence: str) -> set[tuple[str, str]]:
    """The placeholders of a sentence, each with its format spec (``{seconds:g}``)."""
    return {(name, spec or "") for _, name, spec, _ in string.Formatter().parse(sentence) if name}


def test_a_translation_fills_the_same_placeholders_as_its_english() -> None:
    mismatched = [key for key, en, zh in english_and_chinese() if fields(zh) != fields(en)]
    assert mismatched == []
    for _, english, chinese in english_and_chinese():  # and each formats: no stray brace
        chinese.format(**{name: 1.5 for name, _ in fields(english)})


def test_a_sentence_is_empty_in_chinese_exactly_when_it_is_in_english() -> None:
    mismatched = [key for key, en, zh in english_and_chinese() if bool(en) != bool(zh)]
    assert mismatched == []


def test_the_catalog_of_a_language_reads_its_translations() -> None:
    for module in MODULES:
        for key, (_, chinese) in module.ZH.items():
            assert text(key, "zh") == chinese
            assert text(key, "en") == module.EN[key]


def test_no_translation_uses_a_word_the_glossary_rules_out() -> None:
    # 重放 for replay above all: the chapter says 回放, and so does every sentence here.
    used = [(key, word) for key, _, zh in english_and_chinese() for word in NEVER if word in zh]
    assert used == []


def prose(english: str) -> str:
    """The English words of a sentence: placeholders, options, commands and code dropped."""
    english = re.sub(r"\{[^}]*\}|--[\w-]+|python -m \S+|`[^`]*`", " ", english)
    return " ".join(word for word in english.split() if not re.search(r"[_/()\[\]=]|\w\.\w", word))


def term_pattern(term: str) -> re.Pattern[str]:
    """The term as a word, inflected (replay, replays, replaying; resume, resuming)."""
    stem = term[:-1] if term.endswith("e") else term
    words = re.escape(stem).replace(r"\ ", "[ -]")
    return re.compile(rf"\b{words}(?:e|es|s|ed|d|ing)?\b", re.IGNORECASE)


@pytest.mark.parametrize("term", GLOSSARY)
def test_a_term_is_translated_with_the_glossarys_words_every_time(term: str) -> None:
    pattern, words = term_pattern(term), GLOSSARY[term]
    unlike = [
        f"{key}: {zh}"
        for key, en, zh in english_and_chinese()
        if pattern.search(prose(en)) and not any(word in zh for word in words)
    ]
    assert unlike == []


def test_the_glossary_check_sees_a_term_only_as_a_word() -> None:
    replay = term_pattern("replay")
    assert replay.search(prose("A session replays to nothing; Replaying twice."))
    assert not replay.search(prose("replay_session(log, 'a') returns a list"))
    assert term_pattern("resume").search("Reading a session and resuming after an id")
    assert not term_pattern("log").search(prose("folder for logs/ and results/"))


def test_chinese_sentences_use_chinese_punctuation_and_space_out_latin_words() -> None:
    # A half-width comma or colon after a Chinese character, or a Latin word glued to one,
    # reads as a machine's translation.
    glued = re.compile(rf"{CJK}[,;:?!(]|{CJK}\.(?:\s|$)|{CJK}[A-Za-z0-9{{]|[A-Za-z0-9}}]{CJK}")
    offenders = [f"{key}: {zh}" for key, _, zh in english_and_chinese() if glued.search(zh)]
    assert offenders == []


CATALOG_FILES = frozenset(Path(module.__file__ or "").resolve() for module in MODULES)


@cache
def literal_ids() -> dict[str, frozenset[str]]:
    """String constants in the grader's and the maintainer's code that look like message
    ids (a known first part, then dotted words), with the files naming them."""
    prefixes = {key.split(".")[0] for key in catalog("en")}
    shape = re.compile(r"[a-z_]+(?:\.[a-z0-9_]+)+")
    found: dict[str, set[str]] = {}
    for folder in ("grader", "maintainer"):
        for path in sorted((KIT_ROOT / folder).rglob("*.py")):
            if path.resolve() in CATALOG_FILES:  # the catalogs themselves name every id
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    value = node.value
                    if shape.fullmatch(value) and value.split(".")[0] in prefixes:
                        found.setdefault(value, set()).add(str(path.relative_to(KIT_ROOT)))
    return {key: frozenset(files) for key, files in found.items()}


def features() -> list[str]:
    """The names :func:`~grader.engine.programs.features_of` gives (its ``checks`` pairs)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(programs.features_of)))
    checks = next(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "checks"
    )
    assert isinstance(checks, ast.Tuple)
    return [ast.literal_eval(pair.elts[0]) for pair in checks.elts if isinstance(pair, ast.Tuple)]


@cache
def built_ids() -> frozenset[str]:
    """The ids the code builds with f-strings: from the enums and tables they come from."""
    cases = [f"accept.{name}" for name in ("plain", *features())]
    cases += [f"refuse.{refusal.value}" for refusal in Refusal]
    promises = {p for function in contract.FUNCTIONS for p in function.promises}
    promises |= {p for task in TASKS for prop in task.properties for p in prop.promises}
    promises |= set(cases)
    hinted = [
        *promises,
        "cause.timed_out",
        "cause.error",
        "cause.tampered",
        "not_implemented",
        *OWN_HINTS,
    ]
    return frozenset(
        {f"status.{status.value}" for status in Status}
        | {f"cause.{cause.value}" for cause in Cause}
        | {f"task.{task.id}.name" for task in TASKS}
        | {f"promise.{promise}" for promise in promises}
        | {f"hint.{name}.{level}" for name in hinted for level in range(1, LEVELS + 1)}
        | {f"{front}.isolation.{way.value}" for front in ("report", "batch") for way in Isolation}
        | {f"release.outcome.{outcome}" for outcome in (PASSED, FAILED, SKIPPED)}
    )


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_id_the_code_shows_has_a_sentence(language: str) -> None:
    named = {key: sorted(files) for key, files in literal_ids().items()}
    sentences = catalog("en") if language == "en" else {
        key: entry[1] for module in MODULES for key, entry in module.ZH.items()
    }  # fmt: skip
    assert {key: files for key, files in named.items() if key not in sentences} == {}
    assert sorted(built_ids() - set(sentences)) == []


def test_every_sentence_is_shown_somewhere() -> None:
    # One nobody shows is dead weight for its translator, and usually a forgotten rename.
    assert sorted(set(catalog("en")) - set(literal_ids()) - built_ids()) == []


def test_the_scan_for_ids_finds_the_ones_it_should() -> None:
    named = literal_ids()
    assert "grader/frontends/watch.py" in named["watch.stopped"]
    assert "maintainer/release/command.py" in named["cli.release.refused"]
    assert {"hint.replay.merge.2", "promise.refuse.call_id_reused"} <= built_ids()


def test_the_modules_are_the_engines_the_maintainers_and_one_per_task() -> None:
    names = {module.__name__ for module in MODULES}
    assert {"grader.i18n.texts", "maintainer.release.texts"} <= names
    assert {f"grader.tasks.{task.id}.texts" for task in TASKS} <= names
    assert all(isinstance(module, ModuleType) and Path(module.__file__ or "").name == "texts.py"
               for module in MODULES)  # fmt: skip
