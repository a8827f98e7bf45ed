"""What a batch writes for the instructor: a gradebook no spreadsheet evaluates (OWASP's CSV
injection advice), and a summary in the instructor's language that learner text cannot
break. (Whole batches under attack are tests/redteam's.)"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from grader.engine.outcomes import Failure, Report, Said, Status, TaskResult, Verdict
from grader.frontends.batch.outputs import gradebook, safe_cell, summary, write_outputs
from grader.frontends.batch.pool import Row
from grader.i18n import text, using_language
from grader.tasks import MAX_SCORE, TASK_IDS, TASKS

# What makes a spreadsheet read a cell as a formula (OWASP, CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def graded(submission_id: str, failed: str | None = None, notes: tuple[Said, ...] = ()) -> Row:
    results = tuple(
        TaskResult(task.id, task.number, task.points, Status.FAILED, Failure(failed))
        if failed and task.id == "replay"
        else TaskResult(task.id, task.number, task.points, Status.PASSED)
        for task in TASKS
    )
    report = Report(submission_id, results, TASK_IDS, MAX_SCORE, "bwrap")
    return Row(submission_id, "slug", report, notes)


def tampering(submission_id: str) -> Row:
    tried = {"event": "open", "detail": "/etc/shadow | =cmd", "where": "mine.py:3"}
    report = Report(submission_id, (), TASK_IDS, MAX_SCORE, "bwrap", Said("load.tampered"),
                    Verdict.TAMPERED, (tried,))  # fmt: skip
    return Row(submission_id, "slug", report)


def cells(book: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(book)))


@pytest.mark.parametrize("start", FORMULA_STARTS)
def test_a_cell_that_starts_like_a_formula_is_not_one(start: str) -> None:
    cell = safe_cell(start + 'HYPERLINK("http://evil")')
    assert not cell.startswith(FORMULA_STARTS)
    assert cell.endswith('HYPERLINK("http://evil")')


@pytest.mark.parametrize("value", ["alice", 100, "graded", "bwrap", "O'Brien", ""])
def test_an_ordinary_cell_is_left_as_it_is(value: object) -> None:
    assert safe_cell(value) == str(value)


def test_every_cell_of_the_gradebook_is_safe_whatever_the_names_and_notes() -> None:
    note = Said("batch.note.same_name", {"entry": "-1+2.py", "other": "=1+2"})
    rows = [graded("=1+2"), graded("@SUM(A1)", "replay.merge", (note,)), tampering("\tx")]
    with using_language("en"):
        book = cells(gradebook(rows))
    assert book[0] == ["id", "score", "max_score", "status", *TASK_IDS, "isolation", "notes"]
    assert [line[0] for line in book[1:]] == ["'=1+2", "'@SUM(A1)", "'\tx"]
    assert [line[1:4] for line in book[1:]] == [
        ["100", "100", "graded"], ["80", "100", "graded"], ["0", "100", "tampered"]
    ]  # fmt: skip
    assert all(not cell.startswith(FORMULA_STARTS) for line in book for cell in line)
    assert book[2][-1] == "'-1+2.py has the same name as =1+2"


def test_the_gradebooks_notes_speak_the_instructors_language() -> None:
    note = Said("batch.note.same_name", {"entry": "x.py", "other": "x"})
    with using_language("zh"):
        book = cells(gradebook([graded("x~2", notes=(note,))]))
    assert book[1][-1] == text("batch.note.same_name", "zh", entry="x.py", other="x")


def test_the_summary_counts_statuses_names_tampering_and_the_most_broken_promise() -> None:
    rows = [graded("alice", "replay.merge"), graded("bob", "replay.merge"), tampering("eve|x")]
    with using_language("en"):
        shown = summary(rows, "bwrap", 12.0)
    assert "| graded | 2 |" in shown and "| tampered | 1 |" in shown
    assert "- eve\\|x: /etc/shadow \\| =cmd (open) at mine.py:3" in shown
    assert f"| 2 | replay | {text('promise.replay.merge', 'en')} |" in shown


def test_the_summary_speaks_chinese() -> None:
    with using_language("zh"):
        shown = summary([graded("alice", "replay.merge"), tampering("eve")], "none", 3.0)
    for key in (
        "batch.summary.title",
        "batch.isolation.none",
        "batch.summary.tampered",
        "batch.summary.failed_by",
        "batch.summary.task",
        "batch.summary.promise",
    ):
        assert text(key, "zh") in shown, key  # fmt: skip
    tried = text("outcome.tampered", "zh", detail="/etc/shadow \\| =cmd", event="open",
                 where="mine.py:3")  # fmt: skip
    assert f"- eve: {tried}" in shown
    assert " task " not in shown and " at " not in shown


def test_the_outputs_replace_the_old_ones_whole(tmp_path: Path) -> None:
    out = tmp_path / "grades"
    out.mkdir()
    (out / "stale.txt").write_text("from last week")
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "slug.log").write_bytes(b"x" * 300_000)
    with using_language("en"):
        write_outputs(out, [graded("alice")], logs, "bwrap", "exercism", 1.0)
    assert sorted(path.name for path in out.iterdir()) == [
        "gradebook.csv", "logs", "results", "summary.md"
    ]  # fmt: skip
    assert (out / "logs" / "slug.log").read_bytes().endswith(b"\n[cut]\n")
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".")] == []
