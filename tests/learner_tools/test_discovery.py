"""A batch's submissions folder: what counts as a submission, the id and file name each gets
(unique and printable, whatever the names), and what is refused before anything is graded.
(Full batches under attack are tests/redteam's; this is discovery alone.)"""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

import pytest

from grader.engine.outcomes import Said
from grader.frontends.batch.discovery import Submission, stage
from grader.transport.workspace import MAX_DEPTH


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "class"
    folder.mkdir()
    return folder


def staged(root: Path) -> list[Submission]:
    staging = root.parent / "staging"
    staging.mkdir(exist_ok=True)
    return stage(root, staging)


def add(root: Path, name: str | bytes, source: str = "x = 1\n") -> Path:
    path = Path(os.fsdecode(os.path.join(os.fsencode(root), os.fsencode(name))))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    return path


def test_each_python_file_and_each_folder_is_one_submission(root: Path) -> None:
    add(root, "alice.py", "A = 1\n")
    add(root, "bob/work.py", "B = 2\n")
    add(root, "notes.txt")
    add(root, ".hidden.py")
    alice, bob = staged(root)
    assert (alice.id, bob.id) == ("alice", "bob")
    assert alice.copy is not None and alice.copy.read_text() == "A = 1\n"
    assert bob.copy is not None and (bob.copy / "work.py").read_text() == "B = 2\n"
    assert root not in alice.copy.parents  # a copy, not the original


def test_names_that_are_not_utf8_or_hold_control_characters_get_printable_unique_ids(
    root: Path,
) -> None:
    for raw in (b"ren\xe9.py", b"\xff\xfe.py", b"evil\x1b[2J\x07.py", b"ok.py"):
        add(root, raw)
    submissions = staged(root)
    ids = [each.id for each in submissions]
    assert sorted(ids) == sorted(["ren\\xe9", "\\xff\\xfe", "evil\\x1b[2J\\x07", "ok"])
    for each in submissions:
        assert each.id.isprintable() and each.id.encode("utf-8")
        assert each.slug.isascii() and each.slug.isprintable() and "/" not in each.slug
        assert each.copy is not None and each.copy.is_file()
    assert len({each.slug for each in submissions}) == len(submissions)
    assert next(each for each in submissions if each.id == "ok").slug == "ok"


def test_a_folder_beside_a_file_of_the_same_name_gets_a_row_each(root: Path) -> None:
    add(root, "x/event_log.py")
    add(root, "x.py")
    folder, file = staged(root)
    assert (folder.id, file.id) == ("x", "x~2")
    assert file.notes == (Said("batch.note.same_name", {"entry": "x.py", "other": "x"}),)
    assert folder.notes == () and folder.slug != file.slug


@pytest.mark.parametrize(
    "names",
    [
        ("Alice.py", "alice.py", "ALICE.py"),
        (unicodedata.normalize("NFC", "josé.py"), unicodedata.normalize("NFD", "josé.py")),
        ("x", "x.py", "X.py", "x~2.py"),
    ],
)
def test_names_that_read_the_same_get_distinct_ids_and_files(
    root: Path, names: tuple[str, ...]
) -> None:
    for name in names:
        add(root, f"{name}/a.py" if not name.endswith(".py") else name)
    submissions = staged(root)
    keys = [unicodedata.normalize("NFC", each.id).casefold() for each in submissions]
    assert len(submissions) == len(names) and len(set(keys)) == len(keys)
    slugs = [each.slug.casefold() for each in submissions]  # case-blind file systems too
    assert len(set(slugs)) == len(slugs)
    # All but the first of the twins say whom they collide with.
    assert [len(each.notes) for each in submissions] == [0] + [1] * (len(names) - 1)


def test_a_submission_nested_1200_deep_is_refused_not_crashed_on(root: Path) -> None:
    add(root, "deep/__init__.py")
    levels = [root / "deep" / Path(*["d"] * depth) for depth in range(1, 1201)]
    for level in levels:  # not os.makedirs, which recurses once per level
        level.mkdir()
    (levels[-1] / "x.py").write_text("")
    try:
        (submission,) = staged(root)
        assert submission.copy is None
        assert submission.problem == Said("load.too_deep", {"depth": MAX_DEPTH})
    finally:  # shutil.rmtree recurses once per level, past Python's recursion limit
        (levels[-1] / "x.py").unlink()
        for level in reversed(levels):
            level.rmdir()


def test_a_hard_linked_file_is_refused_by_name(root: Path) -> None:
    original = add(root, "alice.py", "SECRET = 1\n")
    os.link(original, root / "copycat.py")
    add(root, "mallory/__init__.py")
    os.link(original, root / "mallory" / "work.py")
    rows = {each.id: each for each in staged(root)}
    for name, file in (("alice", "alice.py"), ("copycat", "copycat.py"), ("mallory", "work.py")):
        assert rows[name].copy is None
        assert rows[name].problem == Said("load.unreadable", {"name": file})


def test_links_are_never_followed_and_each_gets_a_row_saying_so(root: Path) -> None:
    secret = add(root.parent, "instructor/answers.py", "ANSWER = 42\n")
    add(root, "alice.py")
    (root / "copycat.py").symlink_to(root / "alice.py")
    (root / "linked").symlink_to(secret.parent, target_is_directory=True)
    add(root, "mallory/x.txt")
    (root / "mallory" / "work.py").symlink_to(secret)
    rows = {each.id: each for each in staged(root)}
    assert set(rows) == {"alice", "copycat.py", "linked", "mallory"}
    for name in ("copycat.py", "linked"):
        assert (rows[name].copy, rows[name].problem) == (None, Said("batch.ungraded.not_a_file"))
    assert rows["mallory"].copy is None
    assert rows["mallory"].problem == Said("batch.ungraded.no_submission")
    staging = root.parent / "staging"
    copied = [path.read_text() for path in staging.rglob("*.py") if path.is_file()]
    assert "ANSWER = 42\n" not in copied


def test_a_submission_too_large_to_copy_is_refused_with_the_limits(root: Path) -> None:
    add(root, "huge/__init__.py")
    add(root, "huge/blob.py", "#" * (21 * 2**20))
    (submission,) = staged(root)
    assert submission.copy is None
    assert submission.problem is not None and submission.problem.message == "load.too_large"
