"""Which files and folders of a submissions folder count as submissions."""

from __future__ import annotations

from grader.batch.discovery import Submission, find_submissions, install_submission


def test_each_python_file_and_each_folder_is_one_submission(tmp_path):
    (tmp_path / "alice.py").write_text("x = 1\n")
    (tmp_path / "bob").mkdir()
    (tmp_path / "bob" / "work.py").write_text("x = 2\n")
    (tmp_path / "notes.txt").write_text("not code\n")
    (tmp_path / ".hidden.py").write_text("x = 3\n")
    assert find_submissions(tmp_path) == [
        Submission("alice", tmp_path / "alice.py"),
        Submission("bob", tmp_path / "bob" / "work.py"),
    ]


def test_a_folder_that_is_a_package_is_submitted_whole(tmp_path):
    package = tmp_path / "carol"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "event_log.py").write_text("")
    assert find_submissions(tmp_path) == [Submission("carol", package)]


def test_a_folder_holding_one_package_submits_that_package(tmp_path):
    package = tmp_path / "dave" / "exercises"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    assert find_submissions(tmp_path) == [Submission("dave", package)]


def test_a_folder_without_a_single_candidate_is_a_submission_without_code(tmp_path):
    (tmp_path / "erin").mkdir()
    (tmp_path / "erin" / "one.py").write_text("")
    (tmp_path / "erin" / "two.py").write_text("")
    (tmp_path / "frank").mkdir()
    assert find_submissions(tmp_path) == [Submission("erin", None), Submission("frank", None)]


def test_a_file_is_installed_as_the_exercises_module(tmp_path):
    source = tmp_path / "alice.py"
    source.write_text("ANSWER = 42\n")
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    install_submission(source, sandbox)
    assert (sandbox / "exercises.py").read_text() == "ANSWER = 42\n"


def test_a_package_is_installed_as_the_exercises_package(tmp_path):
    package = tmp_path / "carol"
    package.mkdir()
    (package / "__init__.py").write_text("from exercises.inner import ANSWER\n")
    (package / "inner.py").write_text("ANSWER = 42\n")
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    install_submission(package, sandbox)
    assert sorted(path.name for path in (sandbox / "exercises").iterdir()) == [
        "__init__.py",
        "inner.py",
    ]
