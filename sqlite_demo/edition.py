"""The language this copy of the kit speaks by default: the demo's output and the live page's.

``None`` in the kit and in an English learner's copy: English, unless ``--lang`` says
otherwise. A Chinese learner's copy (``python -m maintainer release DEST --lang zh``) holds
``"zh"`` here instead.
"""

from __future__ import annotations

LANGUAGE: str | None = None
