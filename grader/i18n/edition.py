"""The language this copy of the kit speaks by default.

``None`` in the kit and in an English learner's copy: the grader then follows the locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``). A Chinese learner's copy, written by
``python -m maintainer release DEST --lang zh``, holds ``"zh"`` here instead, so its grader speaks
Chinese on any machine; ``--lang en`` still chooses English for one run.
"""

from __future__ import annotations

LANGUAGE: str | None = None
