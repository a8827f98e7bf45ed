"""The kit's documents for readers, by audience: what the doc tests cover."""

from __future__ import annotations

from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[2]

#: The English documents, landing page first. Each has a Chinese mirror
#: (``maintainer/translations/catalogs.py`` DOCUMENTS), kept in step by the drift test.
DOCUMENTS: Final = (
    "README.md",
    "docs/learner.md",
    "docs/chapter-bridge.md",
    "docs/instructor.md",
    "docs/service.md",
    "docs/benchmarks.md",
    "docs/architecture.md",
    "CONTRIBUTING.md",
)


def read(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")
