"""The language a request asks its refusals to be worded in: its ``Accept-Language``.

The live page sends the language it shows; a browser sends its user's. A request without
the header, or naming none of ours, gets the kit's language, the server's own
(:func:`sqlite_demo.texts.default_language`). Only the ``message`` of an error changes: its
``code``, what a program branches on, is the same in every language.
"""

from __future__ import annotations

from grader.i18n import language_of_locale
from sqlite_demo.texts import default_language


def accepted_language(header: str | None) -> str:
    """The first language of ours that ``Accept-Language`` names, by its ``q`` weights.

    ``zh-CN,zh;q=0.9,en;q=0.8`` -> ``zh``; ``fr, en;q=0.5`` -> ``en``; ``fr`` or no header ->
    the server's own language. A weight that is not a number counts as 0 (not acceptable).
    """
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate((header or "").split(",")):
        tag, _, parameters = part.strip().partition(";")
        language = language_of_locale(tag) if tag and tag != "*" else None
        if language is not None:
            ranked.append((-_weight(parameters), position, language))
    chosen = [language for weight, _, language in sorted(ranked) if weight < 0]
    return chosen[0] if chosen else default_language()


def _weight(parameters: str) -> float:
    name, _, value = parameters.strip().partition("=")
    if name.strip() != "q":
        return 1.0
    try:
        return min(max(float(value), 0.0), 1.0)
    except ValueError:
        return 0.0
