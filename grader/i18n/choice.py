"""Which language the kit speaks: one choice that every tool reads.

The grader, ``python -m sqlite_demo``, the live page and the browser site all ask
:func:`kit_language`. In order, the first that names a language of ours decides:

1. ``KIT_LANGUAGE``: what a command given ``--lang`` passes on to the processes it starts
   (the demo's server, the grader's workers), so one run speaks one language throughout;
2. the kit's choice, made once with ``python -m grader lang zh`` (or ``en``) and kept in the
   file :data:`LANGUAGE_FILE` at the root of this copy of the kit, beside ``exercises/``;
3. this copy's language (:mod:`grader.i18n.edition`: Chinese in a Chinese learner's copy);
4. the locale, as GNU gettext reads it: ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``;
5. English.

``--lang`` on a command line comes before all of these, for that command only.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from grader.i18n import edition

LANGUAGES: tuple[str, ...] = ("en", "zh")
DEFAULT_LANGUAGE = "en"
#: The order GNU gettext consults the environment in.
LOCALE_VARIABLES: tuple[str, ...] = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
#: The language of this run, handed from a command to the processes it starts.
LANGUAGE_VARIABLE = "KIT_LANGUAGE"
#: The file holding the kit's language, at the kit's root (``python -m grader lang``).
LANGUAGE_FILE = ".kit-language"
#: The folder holding ``grader/``, ``sqlite_demo/`` and ``exercises/``: the kit's root.
KIT_ROOT = Path(__file__).resolve().parents[2]


def language_of_locale(locale_name: str) -> str | None:
    """``zh_CN.UTF-8`` -> ``zh``; ``C`` and ``POSIX`` -> ``en``; unknown -> None."""
    code = locale_name.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    base = code.split("_")[0]
    if base in ("c", "posix"):
        return DEFAULT_LANGUAGE
    return base if base in LANGUAGES else None


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """The first supported language LANGUAGE, LC_ALL, LC_MESSAGES or LANG names, else English."""
    environ = os.environ if environ is None else environ
    for variable in LOCALE_VARIABLES:
        for locale_name in environ.get(variable, "").split(":"):
            language = language_of_locale(locale_name)
            if language is not None:
                return language
    return DEFAULT_LANGUAGE


def language_file(root: Path = KIT_ROOT) -> Path:
    """Where the kit's language is kept."""
    return root / LANGUAGE_FILE


@cache
def stored_language(root: Path = KIT_ROOT) -> str | None:
    """The language chosen with ``python -m grader lang``; None when none was (or the file
    names no language of ours: it is then ignored, as an unknown locale is)."""
    try:
        stored = language_file(root).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return stored if stored in LANGUAGES else None


def store_language(language: str | None, root: Path = KIT_ROOT) -> Path:
    """Keep ``language`` as the kit's; None forgets the choice (the locale decides again).

    Returns:
        The file that holds the choice.

    Raises:
        ValueError: a language the kit has no words for.
        OSError: the file cannot be written.
    """
    if language is not None and language not in LANGUAGES:
        raise ValueError(f"no catalog for language {language!r}; choose one of {LANGUAGES}")
    path = language_file(root)
    if language is None:
        path.unlink(missing_ok=True)
    else:
        path.write_text(language + "\n", encoding="utf-8")
    stored_language.cache_clear()
    return path


def passed_on_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The language a parent command passed on in ``KIT_LANGUAGE``, if it names one of ours."""
    value = (os.environ if environ is None else environ).get(LANGUAGE_VARIABLE, "")
    return value if value in LANGUAGES else None


def chosen_language(environ: Mapping[str, str] | None = None, root: Path = KIT_ROOT) -> str | None:
    """The language chosen for the kit (steps 1 to 3 above); None when only the locale
    speaks (the browser site then opens in the browser's language)."""
    return passed_on_language(environ) or stored_language(root) or edition.LANGUAGE


def kit_language(environ: Mapping[str, str] | None = None, root: Path = KIT_ROOT) -> str:
    """The language the kit speaks here, when no ``--lang`` says otherwise (see above)."""
    return chosen_language(environ, root) or detect_language(environ)


def pass_on_language(language: str) -> None:
    """Make every process started from now on speak ``language`` (``KIT_LANGUAGE``)."""
    os.environ[LANGUAGE_VARIABLE] = language
