"""What the learner's copy holds: the kit's tracked files minus instructor-only material."""

from __future__ import annotations

import subprocess

import pytest

from grader.release.files import INSTRUCTOR_ONLY, is_instructor_only, release_files, write_copy

KIT_FILES = {
    "README.md": "# kit\n",
    "pyproject.toml": "[project]\n",
    "exercises/__init__.py": "",
    "solutions/__init__.py": "",
    "tests/test_x.py": "",
    "benchmarks/run.py": "",
    ".ci/run": "",
    "docs/bench.md": "",
    "docs/guide.md": "",
    "notebooks/01_intro.ipynb": "{}",
    "notebooks/src/nb01_intro.py": "",
}


@pytest.fixture
def kit(tmp_path):
    """A small git checkout shaped like the kit, plus one untracked file."""
    root = tmp_path / "kit"
    for relative_path, content in KIT_FILES.items():
        path = root / relative_path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", "."], cwd=root, check=True)
    (root / "scratch.py").write_text("untracked\n")
    return root


@pytest.mark.parametrize("prefix", INSTRUCTOR_ONLY)
def test_every_instructor_only_prefix_is_recognised(prefix):
    assert is_instructor_only(prefix + ("x.py" if prefix.endswith("/") else ""))


def test_only_tracked_learner_files_are_released(kit):
    assert release_files(kit) == [
        "README.md",
        "docs/guide.md",
        "exercises/__init__.py",
        "notebooks/01_intro.ipynb",
        "pyproject.toml",
    ]


def test_outside_a_git_checkout_the_fallback_list_is_used(kit):
    subprocess.run(["rm", "-rf", str(kit / ".git")], check=True)
    assert release_files(kit) == [
        "README.md",
        "exercises/__init__.py",
        "notebooks/01_intro.ipynb",
        "pyproject.toml",
    ]


def test_the_copy_holds_the_files_unchanged(kit, tmp_path):
    out = tmp_path / "out"
    write_copy(out, kit)
    assert (out / "README.md").read_text() == "# kit\n"
    assert not (out / "solutions").exists()
    assert not (out / "tests").exists()


def test_a_release_never_merges_into_a_folder_that_holds_files(kit, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.txt").write_text("")
    with pytest.raises(FileExistsError):
        write_copy(out, kit)


def test_a_release_inside_the_kit_is_refused(kit):
    with pytest.raises(ValueError, match="inside the kit"):
        write_copy(kit / "release", kit)
