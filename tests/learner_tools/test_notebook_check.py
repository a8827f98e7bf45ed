"""``grader.check(task)``, what the notebooks call after each exercise: one task graded, its
feedback printed in the learner's language, and whether it passes."""

from __future__ import annotations

from pathlib import Path

import pytest

import grader
from grader.i18n import text, using_language
from tests.implementations.corpus import CORRECT_DIR

# grader.check grades in the sandbox, as a notebook cell does.
pytestmark = pytest.mark.sandbox

CORRECT = CORRECT_DIR / "c07_tuple_log.py"


def test_a_passing_task_prints_its_line_and_returns_true(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with using_language("en"):
        assert grader.check("3", target=str(CORRECT)) is True
    printed = capsys.readouterr().out
    assert "3. Listing sessions" in printed and "20/20" in printed
    assert "4. Replaying" not in printed  # one task only


def test_an_unwritten_task_prints_its_hint_in_chinese_and_returns_false(
    capsys: pytest.CaptureFixture[str], committed_stubs: Path
) -> None:
    with using_language("zh"):
        assert grader.check("replay", target=str(committed_stubs)) is False
    printed = capsys.readouterr().out
    assert f"4. {text('task.replay.name', 'zh')}" in printed
    assert text("report.hint", "zh", hint=text("hint.not_implemented.1", "zh")) in printed


def test_an_unknown_task_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        grader.check("7")
