"""Every sentence the grader shows, in English and Chinese, looked up by a stable message id.

The sentences live in gettext catalogs next to this module: ``en.po`` and ``zh.po`` are the
sources a translator edits, ``en.mo`` and ``zh.mo`` the compiled files read at run time by the
standard library's :mod:`gettext` (so learners need no extra package). Rebuild the ``.mo`` files
with ``python -m grader.i18n.compile`` after editing a ``.po``; a test fails when they drift.

Message ids are keys such as ``"batch.status.timed_out"`` rather than English sentences, so that
English is a catalog like any other and a test can demand that every id exists in both.
Placeholders use ``str.format`` names: ``"{done} of {total} tasks done"``.
"""

from __future__ import annotations

import argparse
import gettext
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

CATALOG_DIR = Path(__file__).resolve().parent
LANGUAGES: tuple[str, ...] = ("en", "zh")
DEFAULT_LANGUAGE = "en"

# The order GNU gettext consults the environment in: LANGUAGE is a colon-separated list of
# preferences, the others name a single locale such as ``zh_CN.UTF-8``.
LOCALE_VARIABLES: tuple[str, ...] = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_chosen_language: ContextVar[str | None] = ContextVar("grader_language", default=None)


def language_of_locale(locale_name: str) -> str | None:
    """Map a locale name such as ``zh_CN.UTF-8`` or ``en`` to a catalog language.

    Args:
        locale_name: one locale name from the environment.

    Returns:
        ``"zh"`` or ``"en"`` (also for the plain ``C`` and ``POSIX`` locales), or None when
        the name is empty or names a language the grader has no catalog for.
    """
    code = locale_name.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    base = code.split("_")[0]
    if base in ("c", "posix"):
        return DEFAULT_LANGUAGE
    return base if base in LANGUAGES else None


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """Choose a language from the locale variables, the way gettext itself would.

    Args:
        environ: the environment to read; ``os.environ`` when None.

    Returns:
        The first supported language named by LANGUAGE, LC_ALL, LC_MESSAGES or LANG (in that
        order), or English when none of them names one.
    """
    environ = os.environ if environ is None else environ
    for variable in LOCALE_VARIABLES:
        for locale_name in environ.get(variable, "").split(":"):
            language = language_of_locale(locale_name)
            if language is not None:
                return language
    return DEFAULT_LANGUAGE


def current_language() -> str:
    """Return the language chosen with :func:`use_language`, else the one the locale names."""
    locale_values = tuple(os.environ.get(variable, "") for variable in LOCALE_VARIABLES)
    return _chosen_language.get() or _language_of_locale_values(locale_values)


@cache
def _language_of_locale_values(values: tuple[str, ...]) -> str:
    # Every sentence the grader builds asks for the language, thousands of times a grade;
    # parsing the locale once per distinct environment keeps that off the grading time.
    return detect_language(dict(zip(LOCALE_VARIABLES, values, strict=True)))


def use_language(language: str | None) -> None:
    """Make every later message use ``language``; None goes back to following the locale.

    Raises:
        ValueError: when the grader has no catalog for ``language``.
    """
    if language is not None and language not in LANGUAGES:
        raise ValueError(f"no catalog for language {language!r}; choose one of {LANGUAGES}")
    _chosen_language.set(language)


def language_option(argv: Sequence[str]) -> str | None:
    """Return the ``--lang`` value in ``argv``, read before the rest of the command line.

    The command line's own help texts are translated, so the language must be known before
    the real parser is built.

    Raises:
        SystemExit: (from argparse, status 2) when ``--lang`` names no catalog.
    """
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--lang", choices=LANGUAGES)
    known, _ = early.parse_known_args(list(argv))
    chosen: str | None = known.lang
    return chosen


def apply_language(language_code: str | None) -> None:
    """Speak ``language_code`` here and in every process started from now on (``--lang``).

    Setting ``LANGUAGE`` is what carries the choice into the grader's worker processes and
    the batch's sandboxes; None leaves the locale in charge.
    """
    use_language(language_code)
    if language_code is not None:
        os.environ["LANGUAGE"] = language_code


@contextmanager
def using_language(language_code: str | None) -> Iterator[None]:
    """Use ``language_code`` inside a ``with`` block only (tests and notebooks)."""
    token = _chosen_language.set(language_code)
    try:
        yield
    finally:
        _chosen_language.reset(token)


@cache
def catalog(language_code: str) -> gettext.NullTranslations:
    """Load the compiled catalog of one language; other languages fall back to English.

    Raises:
        ValueError: when the grader has no catalog for ``language_code``.
    """
    if language_code not in LANGUAGES:
        raise ValueError(f"no catalog for language {language_code!r}; choose one of {LANGUAGES}")
    with (CATALOG_DIR / f"{language_code}.mo").open("rb") as compiled:
        translations: gettext.NullTranslations = gettext.GNUTranslations(compiled)
    if language_code != DEFAULT_LANGUAGE:
        # A missing Chinese sentence shows the English one rather than a bare message id;
        # the catalog test still fails, so the gap is found before a learner sees it.
        translations.add_fallback(catalog(DEFAULT_LANGUAGE))
    return translations


def text(message_id: str, /, language_code: str | None = None, **fields: object) -> str:
    """Return the sentence for ``message_id`` in the current language, placeholders filled.

    Args:
        message_id: a key present in every catalog, such as ``"batch.status.graded"``.
        language_code: force a language; the current one when None.
        fields: values for the sentence's ``{name}`` placeholders.

    Returns:
        The sentence. An id missing from every catalog comes back unchanged, which the
        catalog tests treat as a failure.
    """
    sentence = catalog(language_code or current_language()).gettext(message_id)
    return sentence.format(**fields) if fields else sentence
