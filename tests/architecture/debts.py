"""The layer rules' known violations, each with who is paying it off.

A debt listed here does not fail the layer test; a violation not listed does, and so does a
listed debt that is no longer owed (so the list only shrinks: delete the row with the fix).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from tests.architecture.rules import Rule, Violation


@dataclass(frozen=True)
class Debt:
    """One known violation: the rule, what it is about (as :class:`Violation` names it), and
    the piece of work that removes it."""

    rule: Rule
    subject: tuple[str, ...]
    owner: str

    @property
    def violation(self) -> Violation:
        return Violation(self.rule, self.subject)


DEBTS: Final = (
    Debt(Rule.MODULE_CYCLE, ("maintainer.translations.catalogs",
                             "maintainer.translations.notebooks"),
         "the translations' catalogs: notebooks.py takes Catalog from catalogs.py, which calls it"),
)  # fmt: skip
