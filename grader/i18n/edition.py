"""The language this copy of the kit speaks by default.

``None`` in the kit and in an English learner's copy: the kit then follows the locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``). A Chinese learner's copy, written by
``python -m maintainer release DEST --lang zh``, holds ``"zh"`` here instead, so its grader,
demo and live page speak Chinese on any machine. ``python -m grader lang en`` chooses another
language for the whole copy, ``--lang en`` for one run (see :mod:`grader.i18n.choice`).
"""

from __future__ import annotations

LANGUAGE: str | None = None
