"""The bookkeeping behind uid isolation's folders, on folders made for the test.

What the grader finds writable, what it charges a uid for, what it removes, and what a row
past the budget says: each checked on a small tree of folders with chosen modes and owners
(which needs root), without starting a child. The batches in :mod:`.test_writable_folders`
check the same things end to end.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from grader.engine.outcomes import Report, Verdict
from grader.frontends.batch.outputs import gradebook_line
from grader.frontends.batch.pool import Row, _overruns
from grader.i18n import using_language
from grader.tasks import MAX_SCORE, TASK_IDS
from grader.transport import writable
from tests.redteam.conftest import need_root

LEARNER, OTHER = 2_500_001, 2_500_002


def made(path: Path, mode: int, owner: int = 0, folder: bool = True, size: int = 0) -> Path:
    if folder:
        path.mkdir()
    else:
        path.write_bytes(b"x" * size)
    os.chown(path, owner, owner)
    path.chmod(mode)
    return path


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A folder anyone may write (with the learner's files, another uid's, and a folder of
    the learner's inside), one only root may write, and one others cannot even enter."""
    need_root()
    tmp_path.chmod(0o755)
    shared = made(tmp_path / "shared", 0o1777)
    made(shared / "mine", 0o644, LEARNER, folder=False, size=1000)
    made(shared / "theirs", 0o644, OTHER, folder=False, size=5000)
    inner = made(shared / "my_folder", 0o700, LEARNER)
    made(inner / "deep", 0o600, LEARNER, folder=False, size=300)
    closed = made(tmp_path / "roots_only", 0o755)
    made(closed / "planted", 0o644, LEARNER, folder=False, size=7)  # it could not have
    hidden = made(tmp_path / "no_entry", 0o700)
    made(hidden / "world_writable_but_unreachable", 0o1777)
    made(tmp_path / "anyone_may_write.txt", 0o666, folder=False)
    return tmp_path


def test_find_keeps_what_others_may_write_and_reach_and_nothing_behind_a_closed_folder(
    tree: Path,
) -> None:
    folders: list[str] = []
    files: list[str] = []
    writable._walk(str(tree), tree.stat().st_dev, folders, files)
    assert sorted(folders) == [str(tree / "shared")]
    assert files == [str(tree / "anyone_may_write.txt")]


def test_the_ledger_charges_a_uid_for_what_it_made_where_it_could_make_it(tree: Path) -> None:
    # Not the file planted where only root may write: the ledger does not even look there.
    ledger = writable.Ledger(LEARNER, (str(tree),), 2_000_000)
    assert ledger.measure() == writable.Holding(3, 1300, (str(tree),))
    made(tree / "shared" / "another", 0o644, LEARNER, folder=False, size=10)
    assert ledger.measure().files == 4  # a second look sees what is new


def test_removing_a_uid_s_files_leaves_everyone_else_s(tree: Path) -> None:
    writable.remove_files_of(LEARNER, (str(tree / "shared"),))
    assert sorted(path.name for path in (tree / "shared").iterdir()) == ["theirs"]


def test_a_row_past_its_write_budget_is_tampered_and_its_notes_say_by_how_much() -> None:
    holding = writable.Holding(24, 34_603_008, ("/dev/shm",))
    budget = writable.Budget(16, 33_554_432)
    assert holding.over(budget) and not writable.Holding(16, 33_554_432).over(budget)
    report = Report("s", (), TASK_IDS, MAX_SCORE, "uid", verdict=Verdict.TAMPERED,
                    reports=(writable.over_budget(holding, budget),))  # fmt: skip
    row = Row("s", "s", report, _overruns(report))
    with using_language("en"):
        notes = gradebook_line(row)[-1]
    assert notes == (
        "held 24 files and 34603008 bytes where it may write, past the budget of 16 files "
        "and 33554432 bytes"
    )
