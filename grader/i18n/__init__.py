"""Every sentence the grader shows, in English and Chinese, looked up by a stable message id.

The sentences live in plain Python dicts: the engine's and the front ends' in
:mod:`grader.i18n.texts`, each task's in its own folder (``grader/tasks/<task>/texts.py``).
English is the source. A Chinese entry is a pair: the fingerprint of the English sentence it
translates, and the translation; a test fails when an English sentence changes (or appears)
without its translation changing with it (see :func:`fingerprint`).

Message ids are keys such as ``outcome.returned`` rather than English sentences, so that a
test can demand that every id exists in both languages. Placeholders use ``str.format``
names: ``"{done} of {total} tasks done"``. Nothing is translated before it is shown: the
engine keeps ids and arguments (:class:`grader.engine.outcomes.Said`).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import pkgutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import Any

from grader.i18n.choice import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    LOCALE_VARIABLES,
    detect_language,
    kit_language,
    language_of_locale,
    pass_on_language,
)

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LOCALE_VARIABLES",
    "apply_language",
    "catalog",
    "current_language",
    "detect_language",
    "fingerprint",
    "has",
    "language_of_locale",
    "language_option",
    "text",
    "use_language",
    "using_language",
]

_chosen_language: ContextVar[str | None] = ContextVar("grader_language", default=None)


def fingerprint(english: str) -> str:
    """The fingerprint a translation records of the English it translates."""
    return hashlib.sha256(english.encode("utf-8")).hexdigest()[:8]


def current_language() -> str:
    """The language chosen with :func:`use_language`, else the kit's
    (:func:`grader.i18n.choice.kit_language`: a run's, the stored choice, this copy's, the
    locale's)."""
    return _chosen_language.get() or kit_language()


def use_language(language: str | None) -> None:
    """Make every later message use ``language``; None goes back to the kit's language.

    Raises:
        ValueError: a language the grader has no catalog for.
    """
    if language is not None and language not in LANGUAGES:
        raise ValueError(f"no catalog for language {language!r}; choose one of {LANGUAGES}")
    _chosen_language.set(language)


def language_option(argv: Sequence[str]) -> str | None:
    """The ``--lang`` value in ``argv``, read before the rest of the command line (the
    command line's own help texts are translated); None when it names no language of ours.

    An unknown value is left to the command's own parser, which refuses it with that
    command's usage line and the languages to choose from.
    """
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--lang", nargs="?")  # a missing value too is left to the real parser
    known, _ = early.parse_known_args(list(argv))
    return known.lang if known.lang in LANGUAGES else None


def apply_language(language: str | None) -> None:
    """Speak ``language`` here and in every process started from now on (``KIT_LANGUAGE``)."""
    use_language(language)
    if language is not None:
        pass_on_language(language)


@contextmanager
def using_language(language: str | None) -> Iterator[None]:
    """Use ``language`` inside a ``with`` block only (tests, notebooks, the browser)."""
    token = _chosen_language.set(language)
    try:
        yield
    finally:
        _chosen_language.reset(token)


#: The grader's own words; each task's live in its folder (``grader/tasks/<task>/texts.py``).
TEXT_MODULES = ("grader.i18n.texts",)
#: Words of tools outside the grader, added by the tools themselves (:func:`register_words`).
_registered: list[Any] = []


def register_words(module: Any) -> None:
    """Add ``module``'s sentences (its ``EN`` and ``ZH`` dicts) to every catalog.

    For tools built on the grader that carry words of their own: the maintainer's release
    tool registers its texts when :mod:`maintainer` is imported. The grader never names such a
    tool, so rendering a report loads none of it, and a learner's copy (which has no
    ``maintainer/``) loses nothing. Registering a module twice adds it once.
    """
    if module not in _registered:
        _registered.append(module)
        catalog.cache_clear()


def text_modules() -> list[Any]:
    """Every module holding sentences: the engine's and front ends', those registered by the
    tools loaded (see :func:`register_words`), and each task's."""
    from grader import tasks

    modules = [importlib.import_module(name) for name in TEXT_MODULES]
    modules.extend(_registered)
    for unit in pkgutil.iter_modules(tasks.__path__):
        if unit.ispkg:
            try:
                modules.append(importlib.import_module(f"{tasks.__name__}.{unit.name}.texts"))
            except ModuleNotFoundError:
                continue
    return modules


@cache
def catalog(language: str) -> dict[str, str]:
    """Every sentence in ``language``; a missing translation falls back to English (the
    catalog test still fails, so the gap is found before a learner sees it)."""
    english: dict[str, str] = {}
    translated: dict[str, str] = {}
    for module in text_modules():
        english.update(getattr(module, "EN", {}))
        for key, entry in getattr(module, language.upper(), {}).items():
            translated[key] = entry[1] if isinstance(entry, tuple) else entry
    return english if language == DEFAULT_LANGUAGE else {**english, **translated}


def text(message_id: str, /, language: str | None = None, **fields: object) -> str:
    """The sentence for ``message_id``, placeholders filled; an unknown id comes back as it is."""
    sentence = catalog(language or current_language()).get(message_id, message_id)
    return sentence.format(**fields) if fields else sentence


def has(message_id: str, language: str | None = None) -> bool:
    return message_id in catalog(language or current_language())
