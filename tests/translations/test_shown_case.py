"""A case the grader shows is Python in every language, but its comments are prose: a reader
meets ``# raises ValueError`` in English and ``# 抛出 ValueError`` in Chinese, after the same
code. (The walk in a clone, tests/translations/test_chinese_reader.py, sees it on the command
line; this is the same fact in process, in seconds.)"""

from __future__ import annotations

from pathlib import Path

from grader.engine.outcomes import Commented, Failure, Said
from grader.frontends.report import failure_lines
from grader.i18n import using_language
from grader.run import grade_in_process
from grader.tasks import select
from tests.implementations.corpus import write_mutant
from tests.implementations.mutants import MUTANTS


def shown_failure(tmp_path: Path) -> Failure:
    """The failure of a submission that appends an unknown event type instead of refusing it."""
    mutant = next(m for m in MUTANTS if m.name == "accepts_unknown_type")
    report = grade_in_process(str(write_mutant(mutant, tmp_path)), select(["reject_bad_input"]))
    (result,) = report.results
    assert result.failure is not None
    return result.failure


def test_the_refused_call_is_shown_with_its_comment_as_prose_not_as_code(tmp_path: Path) -> None:
    failure = shown_failure(tmp_path)
    commented = [line for line in failure.lines if isinstance(line, Commented)]
    assert commented, failure.lines
    assert all(line.code.startswith("append_event(") for line in commented)
    raises = Said("outcome.raises", {"error": "ValueError"})
    assert [line.comment for line in commented] == [raises] * len(commented)
    assert not [line for line in failure.lines if isinstance(line, str) and "#" in line]


def test_the_comment_is_in_the_readers_language_after_the_same_code(tmp_path: Path) -> None:
    failure = shown_failure(tmp_path)
    shown = {}
    for language in ("en", "zh"):
        with using_language(language):
            shown[language] = [line for line in failure_lines(failure) if "  # " in line]
    english = [line.split("  # ") for line in shown["en"]]
    chinese = [line.split("  # ") for line in shown["zh"]]
    assert [code for code, _ in english] == [code for code, _ in chinese]
    assert {comment for _, comment in english} == {"raises ValueError"}
    assert {comment for _, comment in chinese} == {"抛出 ValueError"}
