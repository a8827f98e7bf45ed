"""The learner's copy stands on its own: ruff and mypy pass in it with its own settings, and
its README, notebooks README and pyproject name only what it holds.

The copy is assembled here from the working tree by the release manifest, so that these tests
check the files about to be committed; the release itself reads the last commit (see
``test_release.py``).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from grader.release.files import KIT_ROOT
from grader.release.isolation import copy_only_environment
from grader.release.manifest import learner_files
from tests.docs.readme_commands import missing_parts, python_commands

# What a learner does not get, in any spelling a document might use.
ABSENT = re.compile(r"solutions|tests/|\.ci\b|bench|docs/|notebooks/src|build\.py|render_diagrams")
# A path in backticks: it has a slash, or a file name with one of the kit's extensions.
PATH_IN_BACKTICKS = re.compile(r"`(\.{0,2}/?[\w.-]+/[\w./-]*|[\w-]+\.(?:py|md|ipynb|toml|sql))`")
LEARNER_DOCUMENTS = ("README.md", "notebooks/README.md", "pyproject.toml", ".gitignore")


@pytest.fixture(scope="module")
def copy_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The learner's copy of the working tree: the manifest's files among those git tracks
    or would track (untracked but not ignored)."""
    tracked = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=KIT_ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    existing = [path for path in tracked.split("\0") if path and (KIT_ROOT / path).is_file()]
    out = tmp_path_factory.mktemp("learner")
    for copy_path, source in learner_files(existing).items():
        (out / copy_path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(KIT_ROOT / source, out / copy_path)
    return out


def kit_pyproject() -> dict:
    return tomllib.loads((KIT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def copy_pyproject(copy_dir: Path) -> dict:
    return tomllib.loads((copy_dir / "pyproject.toml").read_text(encoding="utf-8"))


def run_tool(copy_dir: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *arguments],
        cwd=copy_dir,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_ruff_and_mypy_pass_in_the_copy_with_its_own_settings(copy_dir: Path, tmp_path) -> None:
    # No caches left in the copy: ruff's is switched off, mypy's goes to a scratch folder.
    for command in (
        ["ruff", "check", "--no-cache", "."],
        ["ruff", "format", "--check", "--no-cache", "."],
        ["mypy", "--cache-dir", str(tmp_path / "mypy")],
    ):
        done = run_tool(copy_dir, *command)
        assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}{done.stderr}"


def test_the_copys_pyproject_points_only_at_what_the_copy_holds(copy_dir: Path) -> None:
    settings = copy_pyproject(copy_dir)
    packages = settings["tool"]["setuptools"]["packages"]["find"]["include"]
    assert [p for p in packages if not (copy_dir / p.rstrip("*") / "__init__.py").is_file()] == []
    assert [f for f in settings["tool"]["mypy"]["files"] if not (copy_dir / f).is_dir()] == []
    strict = settings["tool"]["mypy"]["overrides"][0]["module"]
    assert [m for m in strict if not (copy_dir / m.removesuffix(".*")).is_dir()] == []
    assert set(settings["project"]["optional-dependencies"]) == {"dev"}


def test_the_copys_pyproject_keeps_in_step_with_the_kits(copy_dir: Path) -> None:
    kit, copy = kit_pyproject(), copy_pyproject(copy_dir)
    assert copy["project"]["dependencies"] == kit["project"]["dependencies"]
    assert copy["build-system"] == kit["build-system"]
    assert copy["tool"]["ruff"] == kit["tool"]["ruff"]
    # Same versions as the kit asks for, so a learner runs what the kit is tested with.
    kit_extras = {r for extra in kit["project"]["optional-dependencies"].values() for r in extra}
    assert set(copy["project"]["optional-dependencies"]["dev"]) - kit_extras == set()


@pytest.mark.parametrize("document", LEARNER_DOCUMENTS)
def test_the_copys_documents_never_mention_what_learners_do_not_get(
    copy_dir: Path, document: str
) -> None:
    text = (copy_dir / document).read_text(encoding="utf-8")
    assert [match[0] for match in ABSENT.finditer(text)] == []


@pytest.mark.parametrize("document", ("README.md", "notebooks/README.md"))
def test_every_path_the_copys_readmes_name_is_in_the_copy(copy_dir: Path, document: str) -> None:
    # A path may be written from the copy's top or from the document's own folder.
    folders = (copy_dir, (copy_dir / document).parent)
    named = {match[1] for match in PATH_IN_BACKTICKS.finditer((copy_dir / document).read_text())}
    absent = [path for path in named if not any((folder / path).exists() for folder in folders)]
    assert named and sorted(absent) == []


def test_every_command_in_the_copys_readme_exists_in_the_copy(copy_dir: Path, tmp_path) -> None:
    commands = python_commands((copy_dir / "README.md").read_text(encoding="utf-8"))
    assert {"python -m grader", "python -m sqlite_demo"} <= set(commands)
    environment = copy_only_environment(copy_dir, tmp_path)
    missing = {command: missing_parts(command, copy_dir, environment) for command in commands}
    assert {command: parts for command, parts in missing.items() if parts} == {}


def test_the_copys_notebooks_readme_lists_the_notebooks_as_the_kits_does(copy_dir: Path) -> None:
    def rows(path: Path) -> list[str]:
        return [line for line in path.read_text().splitlines() if line.startswith("| `")]

    listed = rows(copy_dir / "notebooks" / "README.md")
    assert listed == rows(KIT_ROOT / "notebooks" / "README.md")
    names = sorted(row.split("`")[1] for row in listed)
    assert names == sorted(path.name for path in (copy_dir / "notebooks").glob("*.ipynb"))
