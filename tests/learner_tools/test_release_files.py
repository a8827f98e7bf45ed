"""What ``python -m maintainer release`` writes: the manifest's files of the last commit, never the
working tree's, the learner versions of the READMEs and pyproject, no ``maintainer/`` and no
answers; and every refusal, with nothing written. (A small git checkout shaped like the kit.)"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.i18n import using_language
from maintainer.release.committed import NotACheckout
from maintainer.release.files import ReleaseRefused, write_copy
from maintainer.release.manifest import COPIED, ManifestError, learner_files, matches

KIT_FILES = {
    "README.md": "# kit, for instructors\n",
    "pyproject.toml": "[project]\nname = 'kit'\n",
    "LICENSE": "MIT\n",
    ".gitignore": "*.db\nbench-results/\n",
    "eventlog/__init__.py": "",
    "exercises/__init__.py": "",
    "exercises/event_log.py": "def stub(): raise NotImplementedError\n",
    "grader/__init__.py": "VERSION = 1\n",
    "grader/i18n/texts.py": "EN = {}\n",
    "maintainer/__init__.py": "",
    "maintainer/release/manifest.py": "",
    "sqlite_demo/__init__.py": "",
    "sqlite_demo/schema.sql": "CREATE TABLE t (x);\n",
    "notebooks/01_intro.ipynb": "{}\n",
    "notebooks/README.md": "# how to build the notebooks\n",
    "notebooks/build.py": "",
    "notebooks/src/nb01_intro.py": "",
    "solutions/__init__.py": "",
    "solutions/event_log.py": "def stub(): return 'the answer'\n",
    "tests/test_x.py": "",
    "benchmarks/run.py": "",
    ".ci/run": "#!/bin/sh\n",
    "docs/learner/README.md": "# kit, for learners\n",
    "docs/learner/notebooks-README.md": "# notebooks, for learners\n",
    "docs/learner/pyproject.toml": "[project]\nname = 'learner'\n",
    "docs/learner/gitignore": "*.db\n.venv/\n",
}
LEARNER_COPY = [
    ".gitignore",
    "LICENSE",
    "README.md",
    "eventlog/__init__.py",
    "exercises/__init__.py",
    "exercises/event_log.py",
    "grader/__init__.py",
    "grader/i18n/texts.py",
    "notebooks/01_intro.ipynb",
    "notebooks/README.md",
    "pyproject.toml",
    "sqlite_demo/__init__.py",
    "sqlite_demo/schema.sql",
]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    with using_language("en"):
        yield


def git(folder: Path, *arguments: str) -> str:
    identity = ["-c", "user.name=Kit", "-c", "user.email=kit@example.invalid"]
    done = subprocess.run(["git", *identity, *arguments], cwd=folder, check=True,
                          capture_output=True, text=True)  # fmt: skip
    return done.stdout.strip()


def write_files(root: Path, files: dict[str, str]) -> None:
    for relative_path, content in files.items():
        path = root / relative_path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)


@pytest.fixture
def kit(tmp_path: Path) -> Path:
    """A small git checkout shaped like the kit, everything committed."""
    root = tmp_path / "kit"
    write_files(root, KIT_FILES)
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "kit")
    return root


def copied(out: Path) -> list[str]:
    return sorted(path.relative_to(out).as_posix() for path in out.rglob("*") if path.is_file())


def test_the_copy_holds_exactly_the_manifests_files(kit: Path, tmp_path: Path) -> None:
    written = write_copy(tmp_path / "out", kit)
    assert written.files == LEARNER_COPY == copied(tmp_path / "out")
    assert written.left_out == [] and written.commit == git(kit, "rev-parse", "HEAD")


def test_the_copy_holds_no_answers_no_maintainers_tools_and_no_tests(
    kit: Path, tmp_path: Path
) -> None:
    write_copy(tmp_path / "out", kit)
    tops = {path.split("/")[0] for path in copied(tmp_path / "out")}
    assert not tops & {"solutions", "maintainer", "tests", "benchmarks", "docs", ".ci"}
    assert not (tmp_path / "out" / "notebooks" / "src").exists()


def test_learners_get_their_own_readmes_and_pyproject(kit: Path, tmp_path: Path) -> None:
    write_copy(tmp_path / "out", kit)
    for copy_path, source in [
        ("README.md", "docs/learner/README.md"),
        ("notebooks/README.md", "docs/learner/notebooks-README.md"),
        ("pyproject.toml", "docs/learner/pyproject.toml"),
        (".gitignore", "docs/learner/gitignore"),
    ]:
        assert (tmp_path / "out" / copy_path).read_text() == KIT_FILES[source]


def test_uncommitted_edits_never_reach_the_copy_and_are_named(kit: Path, tmp_path: Path) -> None:
    (kit / "grader" / "__init__.py").write_text("VERSION = 2  # not committed\n")
    (kit / "grader" / "scratch.py").write_text("print('mine')\n")
    (kit / "tests" / "test_x.py").write_text("# not in any copy\n")
    written = write_copy(tmp_path / "out", kit)
    assert (tmp_path / "out" / "grader" / "__init__.py").read_text() == "VERSION = 1\n"
    assert not (tmp_path / "out" / "grader" / "scratch.py").exists()
    assert written.left_out == [" M grader/__init__.py", "?? grader/scratch.py"]


@pytest.mark.parametrize(
    ("change", "shown"),
    [
        ("edit", " M exercises/event_log.py"),
        ("stage", "M  exercises/event_log.py"),
        ("delete", " D exercises/event_log.py"),
        ("add", "?? exercises/my_solution.py"),
        ("rename", "R  exercises/log.py"),
    ],
)
def test_stubs_that_differ_from_the_commit_are_refused_and_nothing_is_written(
    kit: Path, tmp_path: Path, change: str, shown: str
) -> None:
    stub = kit / "exercises" / "event_log.py"
    if change in ("edit", "stage"):
        stub.write_text("def stub(): return 42\n")
    if change == "stage":
        git(kit, "add", "exercises")
    if change == "delete":
        stub.unlink()
    if change == "add":
        (kit / "exercises" / "my_solution.py").write_text("")
    if change == "rename":
        git(kit, "mv", "exercises/event_log.py", "exercises/log.py")
    with pytest.raises(ReleaseRefused) as refused:
        write_copy(tmp_path / "out", kit)
    assert f"exercises/ differs from the last commit ({shown})" in str(refused.value)
    assert "commit them" in str(refused.value) and "git stash" in str(refused.value)
    assert not (tmp_path / "out").exists()


def test_outside_a_git_checkout_the_release_is_refused_and_says_what_to_do(
    kit: Path, tmp_path: Path
) -> None:
    shutil.rmtree(kit / ".git")
    with pytest.raises(NotACheckout, match=r"not a git checkout.*git clone.*git init"):
        write_copy(tmp_path / "out", kit)
    assert not (tmp_path / "out").exists()


def test_a_checkout_without_a_commit_is_refused(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q", "empty")
    with pytest.raises(NotACheckout, match="no commit yet"):
        write_copy(tmp_path / "out", tmp_path / "empty")


def test_without_git_installed_the_release_is_refused(
    kit: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs-here"))
    with pytest.raises(NotACheckout, match="git is not installed"):
        write_copy(tmp_path / "out", kit)


def test_a_release_never_merges_into_a_folder_that_holds_files(kit: Path, tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "old.txt").write_text("")
    with pytest.raises(ReleaseRefused, match="not an empty folder"):
        write_copy(tmp_path / "out", kit)
    (tmp_path / "file").write_text("")
    with pytest.raises(ReleaseRefused, match="not an empty folder"):
        write_copy(tmp_path / "file", kit)
    (tmp_path / "empty").mkdir()
    assert write_copy(tmp_path / "empty", kit).files == LEARNER_COPY


def test_a_release_inside_the_kit_is_refused(kit: Path) -> None:
    with pytest.raises(ReleaseRefused, match="inside the kit"):
        write_copy(kit / "release", kit)
    assert not (kit / "release").exists()


def test_a_link_in_the_commit_is_refused_rather_than_followed(kit: Path, tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("instructor only\n")
    os.symlink(tmp_path / "secret.txt", kit / "grader" / "answers.py")
    git(kit, "add", ".")
    git(kit, "commit", "-q", "-m", "a link")
    with pytest.raises(ReleaseRefused, match=r"links or submodules: grader/answers\.py"):
        write_copy(tmp_path / "out", kit)


def test_a_hand_built_path_that_climbs_out_of_its_folder_is_refused(
    kit: Path, tmp_path: Path
) -> None:
    # git stores a tree entry named ".." when the tree is built with mktree; a commit like
    # this must not write above the copy's folder.
    def run(*arguments: str, stdin: str = "") -> str:
        done = subprocess.run(
            ["git", *arguments], cwd=kit, input=stdin, capture_output=True, text=True, check=True
        )
        return done.stdout.strip()

    blob = run("hash-object", "-w", "--stdin", stdin="owned\n")
    inner = run("mktree", stdin=f"100644 blob {blob}\tescaped.py\n")
    climbing = run("mktree", stdin=f"040000 tree {inner}\t..\n")
    top = [line for line in run("ls-tree", "HEAD").splitlines() if not line.endswith("\tgrader")]
    root = run("mktree", stdin="\n".join([*top, f"040000 tree {climbing}\tgrader"]) + "\n")
    commit = run("-c", "user.name=Kit", "-c", "user.email=kit@example.invalid",
                 "commit-tree", root, "-p", "HEAD", "-m", "climb")  # fmt: skip
    run("reset", "-q", "--soft", commit)
    with pytest.raises(ReleaseRefused, match=r"leave their folder: grader/\.\./escaped\.py$"):
        write_copy(tmp_path / "out" / "deep", kit)
    assert not (tmp_path / "out").exists()


def test_a_file_executable_in_the_commit_stays_executable(kit: Path, tmp_path: Path) -> None:
    (kit / "grader" / "tool.sh").write_text("#!/bin/sh\n")
    (kit / "grader" / "tool.sh").chmod(0o755)
    git(kit, "add", ".")
    git(kit, "commit", "-q", "-m", "a tool")
    write_copy(tmp_path / "out", kit)
    assert (tmp_path / "out" / "grader" / "tool.sh").stat().st_mode & 0o777 == 0o755
    assert (tmp_path / "out" / "LICENSE").stat().st_mode & 0o777 == 0o644


def test_a_kit_in_a_subfolder_of_a_larger_repository_releases(tmp_path: Path) -> None:
    kit = tmp_path / "course" / "week3" / "kit"
    write_files(kit, KIT_FILES)
    git(tmp_path / "course", "init", "-q")
    git(tmp_path / "course", "add", ".")
    git(tmp_path / "course", "commit", "-q", "-m", "course")
    (kit / "grader" / "__init__.py").write_text("VERSION = 2\n")
    written = write_copy(tmp_path / "out", kit)
    assert written.files == LEARNER_COPY
    assert written.left_out == [" M grader/__init__.py"]
    (kit / "exercises" / "event_log.py").write_text("solved = True\n")
    with pytest.raises(ReleaseRefused, match=r"\( M exercises/event_log\.py\)"):
        write_copy(tmp_path / "out2", kit)


def test_a_manifest_entry_the_commit_lacks_is_refused_by_name(kit: Path, tmp_path: Path) -> None:
    git(kit, "rm", "-q", "-r", "sqlite_demo", "docs/learner/pyproject.toml")
    git(kit, "commit", "-q", "-m", "rename the demo")
    with pytest.raises(
        ManifestError, match=r"does not hold: sqlite_demo/, docs/learner/pyproject\.toml"
    ):
        write_copy(tmp_path / "out", kit)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("entry", "path", "expected"),
    [
        ("grader/", "grader/frontends/cli.py", True),
        ("grader/", "graders/x.py", False),
        ("notebooks/*.ipynb", "notebooks/01_intro.ipynb", True),
        ("notebooks/*.ipynb", "notebooks/src/01_intro.ipynb", False),
        ("notebooks/*.ipynb", "notebooks/build.py", False),
        ("LICENSE", "LICENSE", True),
        ("LICENSE", "LICENSE.old", False),
    ],
)
def test_a_manifest_entry_matches_what_it_says(entry: str, path: str, expected: bool) -> None:
    assert matches(entry, path) is expected


def test_no_instructor_material_matches_the_manifest() -> None:
    instructor = [path for path in KIT_FILES if not path.startswith("docs/learner/")]
    instructor = [path for path in instructor if path not in LEARNER_COPY]
    assert [path for path in instructor if any(matches(entry, path) for entry in COPIED)] == []
    assert set(learner_files(KIT_FILES)) == set(LEARNER_COPY)
