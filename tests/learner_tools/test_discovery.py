"""Which entries of a submissions folder count as submissions, and how each is copied first."""

from __future__ import annotations

from pathlib import Path

from grader.batch.discovery import Submission, stage


def folders(tmp_path: Path) -> tuple[Path, Path]:
    root, staging = tmp_path / "in", tmp_path / "staged"
    root.mkdir()
    staging.mkdir()
    return root, staging


def test_each_python_file_and_each_folder_is_one_submission(tmp_path: Path) -> None:
    root, staging = folders(tmp_path)
    (root / "bob").mkdir()
    (root / "alice.py").write_text("x = 1\n")
    (root / "bob" / "work.py").write_text("x = 2\n")
    (root / "notes.txt").write_text("not code\n")
    (root / ".hidden.py").write_text("x = 3\n")
    assert stage(root, staging) == [
        Submission("alice", staging / "alice" / "alice.py"),
        Submission("bob", staging / "bob"),
    ]
    assert (staging / "bob" / "work.py").read_text() == "x = 2\n"


def test_a_folder_without_a_single_candidate_is_a_submission_without_code(
    tmp_path: Path,
) -> None:
    root, staging = folders(tmp_path)
    (root / "erin").mkdir()
    (root / "frank").mkdir()
    (root / "erin" / "one.py").write_text("")
    (root / "erin" / "two.py").write_text("")
    assert stage(root, staging) == [Submission("erin", None), Submission("frank", None)]


def test_a_link_is_never_followed_into_a_classmate_s_work(tmp_path: Path) -> None:
    root, staging = folders(tmp_path)
    (root / "mallory").mkdir()
    (root / "alice.py").write_text("SECRET = 1\n")
    (root / "copycat.py").symlink_to(root / "alice.py")
    (root / "mallory" / "work.py").symlink_to(root / "alice.py")
    submissions = {s.id: s for s in stage(root, staging)}
    assert submissions["copycat"].copy is None
    assert submissions["mallory"].copy is None
    assert not list((staging / "mallory").rglob("*.py"))


def test_a_submission_too_large_to_copy_is_refused_with_the_reason(tmp_path: Path) -> None:
    root, staging = folders(tmp_path)
    (root / "huge").mkdir()
    (root / "huge" / "__init__.py").write_text("")
    (root / "huge" / "blob.py").write_bytes(b"#" * (21 * 2**20))
    (submission,) = stage(root, staging)
    assert submission.copy is None and "too large" in (submission.error or "")
