"""The instructor's statuses and limits are written from ``Verdict`` and ``Settings``, and
``docs/instructor.md`` holds them as the code says them now."""

from __future__ import annotations

import enum

import pytest

from grader.engine.outcomes import Verdict
from maintainer import reference
from tests.docs.documents import read


def test_the_instructors_page_holds_the_tables_as_the_code_writes_them_now() -> None:
    document = read("docs/instructor.md")
    assert reference.rendered(document) == document, "run python -m maintainer.reference"


def test_every_verdict_and_every_batch_limit_is_in_the_tables() -> None:
    verdicts, limits = reference.verdicts_table(), reference.limits_table()
    assert [v.value for v in Verdict if f"| `{v.value}` |" not in verdicts] == []
    assert "| `--submission-time-limit` | 30 |" in limits  # the batch's own default
    assert "| `--time-limit` | 5 |" in limits


def test_a_changed_default_makes_the_page_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    document = read("docs/instructor.md")
    monkeypatch.setattr(reference, "BATCH", reference.BATCH.replace(memory_mb=2048))
    assert reference.rendered(document) != document


def test_a_verdict_nobody_described_fails_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    grown = enum.Enum("Verdict", {**{v.name: v.value for v in Verdict}, "NEW": "new"})
    monkeypatch.setattr(reference, "Verdict", grown)
    with pytest.raises(ValueError, match="new"):
        reference.verdicts_table()


def test_a_page_without_a_generated_block_is_refused() -> None:
    with pytest.raises(ValueError, match="verdicts"):
        reference.rendered("# For instructors\n")
