"""The learner's copy of this kit: stubs, not solutions; no maintainer's tools, answers or
tests; the README sections and notebooks a learner needs; it stands alone, its grader finds
every task unfinished, and ruff and mypy pass in it with its own settings.

The copy of the last commit is what a release hands out; the documents and settings are
also checked in a copy of the working tree, so that they are right before they are committed.
(Running the demo and the notebooks in the copy is the release's own job: minutes, not a test.)
"""

from __future__ import annotations

import ast
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from grader.i18n import text
from grader.transport.workspace import EXERCISE_MODULES
from maintainer.release.committed import head_commit
from maintainer.release.files import KIT_ROOT, write_commit
from maintainer.release.isolation import copy_only_environment
from maintainer.release.manifest import ENGLISH, LANGUAGES, learner_files
from maintainer.release.proofs import PASSED, prove_copy_stands_alone, prove_grader_on_stubs
from maintainer.release.style_checks import prove_checks_pass
from tests.docs.readme_commands import python_commands

# What a learner does not get, in any spelling a document might use.
ABSENT = re.compile(
    r"solutions|tests/|\.ci\b|bench|docs/|maintainer|notebooks/src|build\.py|render_diagrams"
)
# A path in backticks: it has a slash, or a file name with one of the kit's extensions.
PATH_IN_BACKTICKS = re.compile(r"`(\.{0,2}/?[\w.-]+/[\w./-]*|[\w-]+\.(?:py|md|ipynb|toml|sql))`")
LEARNER_DOCUMENTS = ("README.md", "notebooks/README.md", "pyproject.toml", ".gitignore")
README_SECTIONS = ("Set up", "The exercises", "The grader", "The notebooks", "The demo",
                   "Check your code")  # fmt: skip


@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The learner's copy of the last commit, as a release writes it."""
    out = tmp_path_factory.mktemp("release") / "learner"
    write_commit(out, KIT_ROOT, head_commit(KIT_ROOT))
    return out


@pytest.fixture(scope="module")
def working_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The learner's copy of the working tree: the manifest's files among those git tracks
    or would track (untracked but not ignored)."""
    return write_working_copy(tmp_path_factory.mktemp("working") / "learner", ENGLISH)


def write_working_copy(out: Path, language: str) -> Path:
    """Write the learner's copy, in ``language``, of the working tree into ``out``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=KIT_ROOT, capture_output=True, check=True,
    ).stdout.decode()  # fmt: skip
    existing = [path for path in listed.split("\0") if path and (KIT_ROOT / path).is_file()]
    for copy_path, source in learner_files(existing, language).items():
        (out / copy_path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(KIT_ROOT / source, out / copy_path)
    return out


def functions(path: Path) -> dict[str, ast.FunctionDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name: node for node in tree.body
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")}  # fmt: skip


def test_the_copy_holds_stubs_with_the_solutions_signatures_not_solutions(released: Path) -> None:
    modules = sorted(path.name for path in (released / "exercises").glob("*.py"))
    assert modules == sorted(["__init__.py", *EXERCISE_MODULES])
    for module in modules[1:]:
        stubs = functions(released / "exercises" / module)
        answers = functions(KIT_ROOT / "solutions" / module)
        assert stubs and set(stubs) <= set(answers), module
        for name, stub in stubs.items():
            assert [a.arg for a in stub.args.args] == [a.arg for a in answers[name].args.args]
            assert ast.get_docstring(stub), name
            body = stub.body[-1]  # after the docstring, nothing but the raise
            assert len(stub.body) == 2 and isinstance(body, ast.Raise), name
            assert "NotImplementedError" in ast.unparse(body), name
            assert not isinstance(answers[name].body[-1], ast.Raise), name


def test_the_copy_holds_no_maintainers_tools_no_answers_and_no_tests(released: Path) -> None:
    tops = {path.relative_to(released).parts[0] for path in released.rglob("*")}
    assert tops == {".gitignore", "LICENSE", "README.md", "pyproject.toml", "eventlog",
                    "exercises", "grader", "notebooks", "sqlite_demo"}  # fmt: skip


@pytest.mark.sandbox
def test_the_copy_stands_alone_and_its_grader_finds_every_task_unfinished(
    released: Path, tmp_path: Path
) -> None:
    environment = copy_only_environment(released, tmp_path)
    alone = prove_copy_stands_alone(released, environment)
    assert (alone.outcome, alone.detail) == (PASSED, "")
    graded = prove_grader_on_stubs(released, environment, tmp_path)
    assert (graded.outcome, graded.detail) == (PASSED, "")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_release_in_a_learners_copy_says_it_is_a_maintainers_tool(
    released: Path, tmp_path: Path, language: str
) -> None:
    finished = subprocess.run(
        [sys.executable, "-m", "grader", "release", str(tmp_path / "out"), "--lang", language],
        cwd=tmp_path, env=copy_only_environment(released, tmp_path), capture_output=True,
        text=True, encoding="utf-8", timeout=120, check=False,
    )  # fmt: skip
    assert finished.returncode == 2
    assert finished.stderr == text("cli.release_missing", language) + "\n"


def test_the_readme_has_the_sections_and_commands_a_learner_needs(released: Path) -> None:
    readme = (released / "README.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", readme, flags=re.MULTILINE)
    assert [section for section in README_SECTIONS if section not in headings] == []
    commands = python_commands(readme)
    for command in ("python -m grader", "python -m grader --watch", "python -m grader --hint",
                    "python -m grader --lang zh", "python -m sqlite_demo"):  # fmt: skip
        assert command in commands


def test_the_notebooks_readme_lists_the_notebooks_the_copy_holds(released: Path) -> None:
    listed = [line for line in (released / "notebooks" / "README.md").read_text().splitlines()
              if line.startswith("| `")]  # fmt: skip
    names = sorted(row.split("`")[1] for row in listed)
    assert names == sorted(path.name for path in (released / "notebooks").glob("*.ipynb"))
    assert len(names) >= 6


@pytest.mark.parametrize("document", LEARNER_DOCUMENTS)
def test_the_copys_documents_never_mention_what_learners_do_not_get(
    working_copy: Path, document: str
) -> None:
    shown = (working_copy / document).read_text(encoding="utf-8")
    assert [match[0] for match in ABSENT.finditer(shown)] == []


@pytest.mark.parametrize("document", ("README.md", "notebooks/README.md"))
def test_every_path_the_copys_readmes_name_is_in_the_copy(
    working_copy: Path, document: str
) -> None:
    # A path may be written from the copy's top or from the document's own folder.
    folders = (working_copy, (working_copy / document).parent)
    named = {
        match[1] for match in PATH_IN_BACKTICKS.finditer((working_copy / document).read_text())
    }
    assert named
    assert sorted(path for path in named if not any((f / path).exists() for f in folders)) == []


def test_every_command_in_the_copys_readme_exists_in_the_copy(
    working_copy: Path, tmp_path: Path
) -> None:
    """Each module and subcommand's --help is read once, in the copy, as a learner runs it."""
    environment = copy_only_environment(working_copy, tmp_path)
    wanted: dict[tuple[str, ...], set[str]] = {}
    for command in python_commands((working_copy / "README.md").read_text(encoding="utf-8")):
        words = shlex.split(command)
        rest = words[words.index("-m") + 1 :]
        program = tuple(rest[:2]) if len(rest) > 1 and not rest[1].startswith("-") else (rest[0],)
        flags = {word.split("=")[0] for word in rest if word.startswith("--")}
        wanted.setdefault(program, set()).update(flags)
    missing = {}
    for program, flags in wanted.items():
        shown = subprocess.run(
            [sys.executable, "-m", *program, "--help"],
            cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        absent = sorted(flag for flag in flags if flag not in shown.stdout)
        if shown.returncode != 0 or absent:
            missing[" ".join(program)] = absent or shown.stderr[-300:]
    assert missing == {}


def pyproject(folder: Path) -> dict[str, Any]:
    return tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_copys_pyproject_keeps_in_step_with_the_kits(working_copy: Path) -> None:
    kit, copy = pyproject(KIT_ROOT), pyproject(working_copy)
    assert copy["project"]["dependencies"] == kit["project"]["dependencies"]
    extras = "optional-dependencies"
    assert copy["project"][extras]["agents"] == kit["project"][extras]["agents"]
    assert copy["build-system"] == kit["build-system"]
    # The kit's extend-exclude names its red sets under tests/, which a copy does not have.
    kit_ruff = {key: value for key, value in kit["tool"]["ruff"].items() if key != "extend-exclude"}
    assert copy["tool"]["ruff"] == kit_ruff
    packages = copy["tool"]["setuptools"]["packages"]["find"]["include"]
    assert [
        p for p in packages if not (working_copy / p.rstrip("*") / "__init__.py").is_file()
    ] == []
    assert [f for f in copy["tool"]["mypy"]["files"] if not (working_copy / f).is_dir()] == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.slow  # mypy and ruff on a fresh copy: a minute of CPU per language
def test_ruff_and_mypy_pass_in_the_copy_with_its_own_settings(
    tmp_path_factory: pytest.TempPathFactory, language: str
) -> None:
    copy = write_working_copy(tmp_path_factory.mktemp(f"checked-{language}") / "learner", language)
    scratch = tmp_path_factory.mktemp(f"checks-{language}")
    environment = copy_only_environment(copy, scratch)

    proof = prove_checks_pass(copy, environment, scratch, KIT_ROOT / ".mypy_cache")

    assert (proof.outcome, proof.detail) == (PASSED, "")
