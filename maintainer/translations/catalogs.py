"""Every translated text of the kit, seen one way: English entries, and Chinese entries that
each record the fingerprint of the English they translate.

A :class:`Catalog` is one file of translations and the English it follows: a grader
``texts.py``, the exercises' docstrings, a Chinese README, a notebook's Chinese cells, the
demo's and the live page's strings. :func:`drift` says what in one is out of step, and
:func:`renames` which recorded fingerprints a re-translation should replace; both serve the
drift test and ``python -m maintainer.translations``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from grader.i18n import fingerprint, text_modules
from maintainer.translations import markdown
from maintainer.translations.docstrings import KIT_ROOT, english_docstrings

#: English document -> its Chinese translation, section by section.
DOCUMENTS: dict[str, str] = {
    "README.md": "README.zh-CN.md",
    "CONTRIBUTING.md": "CONTRIBUTING.zh-CN.md",
    "docs/learner.md": "docs/learner.zh-CN.md",
    "docs/instructor.md": "docs/instructor.zh-CN.md",
    "docs/service.md": "docs/service.zh-CN.md",
    "docs/benchmarks.md": "docs/benchmarks.zh-CN.md",
    "docs/architecture.md": "docs/architecture.zh-CN.md",
    "docs/learner/README.md": "docs/learner/zh/README.md",
    "docs/learner/notebooks-README.md": "docs/learner/zh/notebooks-README.md",
    "docs/chapter-bridge.md": "docs/chapter-bridge.zh-CN.md",
}


@dataclass(frozen=True)
class Catalog:
    """The translations in ``file`` (relative to the kit) and the English they follow.

    ``english`` maps each key to its English; ``chinese`` each key to ``(fingerprint of the
    English translated, translation)``. ``describe`` names a key for a reader (a notebook
    cell by its number and first line, say).
    """

    file: str
    english: Mapping[str, str]
    chinese: Mapping[str, tuple[str, str]]
    describe: Callable[[str], str] = repr


def drift(catalog: Catalog) -> list[str]:
    """What is out of step: English without Chinese, Chinese made from other English, Chinese
    whose English is gone. Empty when every translation follows its English as it is now."""
    english, chinese, name = catalog.english, catalog.chinese, catalog.describe
    missing = [f"{name(key)}: no translation" for key in english if key not in chinese]
    stale = [
        f"{name(key)}: translated from other English (now {fingerprint(english[key])})"
        for key in english
        if key in chinese and chinese[key][0] != fingerprint(english[key])
    ]
    orphans = [f"{name(key)}: translates English that is gone" for key in chinese
               if key not in english]  # fmt: skip
    return missing + stale + orphans


def renames(catalog: Catalog) -> dict[str, str]:
    """``{key: fingerprint now}`` for each stale entry, keyed by the fingerprint it records.

    Where keys are fingerprints themselves (a notebook's cells), an edited English cell shows
    as one English key without Chinese and one Chinese key without English: these are paired
    in order when there are as many of each.
    """
    english, chinese = catalog.english, catalog.chinese
    found = {chinese[key][0]: fingerprint(english[key]) for key in english
             if key in chinese and chinese[key][0] != fingerprint(english[key])}  # fmt: skip
    missing = [key for key in english if key not in chinese]
    orphans = [key for key in chinese if key not in english]
    if len(missing) == len(orphans):
        found.update({chinese[old][0]: fingerprint(english[new])
                      for old, new in zip(orphans, missing, strict=True)})  # fmt: skip
    return found


def module_catalog(module: ModuleType) -> Catalog:
    """A module with ``EN`` and ``ZH`` dicts: a grader ``texts.py``, the demo's."""
    path = Path(module.__file__ or "").resolve().relative_to(KIT_ROOT)
    return Catalog(str(path), module.EN, module.ZH)


def exercises_catalog() -> Catalog:
    from maintainer.translations.exercises_zh import ZH

    return Catalog("maintainer/translations/exercises_zh.py", english_docstrings(), ZH)


def document_catalog(english_path: str, kit_root: Path = KIT_ROOT) -> Catalog:
    """A document and its Chinese, by sections (see :mod:`maintainer.translations.markdown`)."""
    chinese_path = DOCUMENTS[english_path]
    english = markdown.english_sections((kit_root / english_path).read_text(encoding="utf-8"))
    translated = kit_root / chinese_path
    text = translated.read_text(encoding="utf-8") if translated.is_file() else ""
    sections = markdown.translated_sections(text)
    chinese = {section.heading: (section.fingerprint, section.text) for section in sections}
    return Catalog(chinese_path, english, chinese, lambda heading: f"section {heading!r}")


def notebook_catalogs() -> list[Catalog]:
    """Each notebook's markdown cells and their Chinese (see ``notebooks/src/zh/``)."""
    from maintainer.translations.notebooks import notebook_catalogs as found

    return found()


def all_catalogs() -> list[Catalog]:
    """Every catalog of the kit, the grader's first."""
    demo = importlib.import_module("sqlite_demo.texts")
    return [
        *(module_catalog(module) for module in text_modules()),
        exercises_catalog(),
        *(document_catalog(path) for path in DOCUMENTS),
        *notebook_catalogs(),
        module_catalog(demo),
    ]
