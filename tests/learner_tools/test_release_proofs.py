"""The release's proofs each tell a good copy from a bad one and say why one failed; the
command refuses in one line, in the maintainer's language, and writes nothing then."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import nbformat
import pytest

from grader.i18n import text, using_language
from grader.tasks import TASK_IDS
from maintainer.release import command, notebook_runs, proofs, render_proofs
from maintainer.release.files import KIT_ROOT
from maintainer.release.isolation import copy_only_environment
from maintainer.release.proofs import (
    FAILED,
    PASSED,
    SKIPPED,
    ProofResult,
    prove_copy_stands_alone,
    prove_demo_completes,
    prove_grader_on_stubs,
    prove_notebooks_execute,
)
from maintainer.release.style_checks import prove_checks_pass

Environment = Callable[[Path], dict[str, str]]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    with using_language("en"):
        yield


@pytest.fixture
def environment_for(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    """The copy-only environment for a folder, with a scratch folder of its own."""

    def build(copy_dir: Path) -> dict[str, str]:
        return copy_only_environment(copy_dir, tmp_path_factory.mktemp("scratch"))

    return build


def fake_grader(copy_dir: Path, exit_status: int, statuses: dict[str, str] | None) -> None:
    """A ``grader`` package whose command line writes the given results and exit status."""
    tests = [
        {"extra_data": {"task": task, "grader_status": status}}
        for task, status in (statuses or {}).items()
    ]
    results = json.dumps({"score": 0, "tests": tests})
    (copy_dir / "grader").mkdir()
    (copy_dir / "grader" / "__init__.py").write_text("")
    (copy_dir / "grader" / "__main__.py").write_text(
        "import pathlib, sys\n"
        f"if {statuses is not None}:\n"
        f"    pathlib.Path(sys.argv[sys.argv.index('--json') + 1]).write_text({results!r})\n"
        "print('graded')\n"
        f"raise SystemExit({exit_status})\n"
    )


def packages(folder: Path, *names: str) -> None:
    for name in names:
        (folder / name).mkdir()
        (folder / name / "__init__.py").write_text("")


def test_a_copy_holding_solutions_does_not_stand_alone(
    tmp_path: Path, environment_for: Environment
) -> None:
    packages(tmp_path, "eventlog", "exercises", "grader", "sqlite_demo", "solutions")
    proof = prove_copy_stands_alone(tmp_path, environment_for(tmp_path))
    assert (proof.outcome, proof.detail) == (
        FAILED,
        "the reference package solutions is importable",
    )


def test_the_kits_own_packages_are_invisible_from_a_copy(
    tmp_path: Path, environment_for: Environment
) -> None:
    # The kit is installed in editable mode here: a copy still sees only its own packages.
    packages(tmp_path, "eventlog", "exercises", "grader", "sqlite_demo")
    assert prove_copy_stands_alone(tmp_path, environment_for(tmp_path)).outcome == PASSED
    (tmp_path / "sqlite_demo" / "__init__.py").unlink()
    (tmp_path / "sqlite_demo").rmdir()
    proof = prove_copy_stands_alone(tmp_path, environment_for(tmp_path))
    assert proof.outcome == FAILED
    assert "sqlite_demo is not imported from the copy" in proof.detail


def test_a_stands_alone_check_that_hangs_fails_its_proof_and_says_so(
    tmp_path: Path, environment_for: Environment, monkeypatch: pytest.MonkeyPatch
) -> None:
    def hangs(arguments: list[str], environment: dict[str, str], cwd: Path, seconds: float) -> None:
        raise subprocess.TimeoutExpired(arguments, seconds)

    monkeypatch.setattr(proofs, "run_python", hangs)
    proof = prove_copy_stands_alone(tmp_path, environment_for(tmp_path))
    assert (proof.outcome, proof.detail) == (FAILED, "did not finish within 60 s")


def test_stubs_all_unfinished_pass_the_grader_proof(
    tmp_path: Path, environment_for: Environment
) -> None:
    fake_grader(tmp_path, 1, dict.fromkeys(TASK_IDS, "not_implemented"))
    assert prove_grader_on_stubs(tmp_path, environment_for(tmp_path), tmp_path).outcome == PASSED


def test_a_solved_task_in_the_stubs_fails_the_proof_and_is_named(
    tmp_path: Path, environment_for: Environment
) -> None:
    fake_grader(tmp_path, 1, dict.fromkeys(TASK_IDS, "not_implemented") | {"replay": "passed"})
    proof = prove_grader_on_stubs(tmp_path, environment_for(tmp_path), tmp_path)
    assert proof.outcome == FAILED
    assert "but replay: passed. Learners must get the unsolved stubs" in proof.detail


@pytest.mark.parametrize(
    ("exit_status", "why"),
    [
        (0, "exited with 0, 1 expected (full marks: the committed exercises/ are solved"),
        (2, "exited with 2, 1 expected (the grader could not grade the stubs)"),
    ],
)
def test_a_grader_exit_status_other_than_not_full_marks_fails_the_proof_and_says_why(
    tmp_path: Path, environment_for: Environment, exit_status: int, why: str
) -> None:
    fake_grader(tmp_path, exit_status, None)
    proof = prove_grader_on_stubs(tmp_path, environment_for(tmp_path), tmp_path)
    assert proof.outcome == FAILED
    assert why in proof.detail and proof.detail.endswith("\n    graded")  # its last words


@pytest.mark.parametrize(
    ("statuses", "detail"),
    [
        (None, "python -m grader wrote no results file (--json)"),
        ({}, "the grader's results file lists no task"),
    ],
)
def test_a_missing_or_empty_results_file_fails_the_proof(
    tmp_path: Path, environment_for: Environment, statuses: dict[str, str] | None, detail: str
) -> None:
    fake_grader(tmp_path, 1, statuses)
    proof = prove_grader_on_stubs(tmp_path, environment_for(tmp_path), tmp_path)
    assert proof.outcome == FAILED and proof.detail.startswith(detail)


def test_a_failing_demo_fails_its_proof_with_its_last_words(
    tmp_path: Path, environment_for: Environment
) -> None:
    (tmp_path / "sqlite_demo").mkdir()
    (tmp_path / "sqlite_demo" / "__main__.py").write_text(
        "print('phase 1: ok')\nprint('phase 2: FAILED, 5 events where 6 were expected')\n"
        "raise SystemExit(1)\n"
    )
    proof = prove_demo_completes(tmp_path, environment_for(tmp_path), tmp_path)
    assert proof.outcome == FAILED
    assert proof.detail.startswith("python -m sqlite_demo exited with 1, 0 expected")
    assert proof.detail.endswith("phase 2: FAILED, 5 events where 6 were expected")


def test_missing_parts_are_skipped_and_say_so(tmp_path: Path, environment_for: Environment) -> None:
    environment = environment_for(tmp_path)
    demo = prove_demo_completes(tmp_path, environment, tmp_path)
    (notebooks,) = prove_notebooks_execute(tmp_path, environment)
    assert (demo.outcome, demo.detail) == (SKIPPED, "no sqlite_demo/__main__.py in the copy")
    assert (notebooks.outcome, notebooks.detail) == (SKIPPED, "no notebooks found")


def write_notebook(folder: Path, name: str, *sources: str) -> None:
    notebook = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in sources]  # type: ignore[no-untyped-call]
    folder.mkdir(exist_ok=True)
    nbformat.write(notebook, folder / name)  # type: ignore[no-untyped-call]


def test_a_failing_cell_fails_its_notebook_naming_the_cell_and_the_error(
    tmp_path: Path, environment_for: Environment
) -> None:
    write_notebook(tmp_path / "notebooks", "a_fine.ipynb", "x = 1")
    write_notebook(tmp_path / "notebooks", "b_leaky.ipynb", "x = 1", "import solutions\nx")
    fine, leaky = prove_notebooks_execute(tmp_path, environment_for(tmp_path))
    assert (fine.outcome, fine.detail) == (PASSED, "a_fine.ipynb")
    assert (leaky.outcome, leaky.detail) == (
        FAILED,
        "b_leaky.ipynb: cell 2 (`import solutions`) raised ModuleNotFoundError: "
        "No module named 'solutions'",
    )


def test_a_cell_that_hangs_fails_its_notebook_and_says_so(
    tmp_path: Path, environment_for: Environment, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(notebook_runs, "CELL_SECONDS", 1)
    write_notebook(tmp_path / "notebooks", "slow.ipynb", "import time", "time.sleep(60)")
    (proof,) = prove_notebooks_execute(tmp_path, environment_for(tmp_path))
    assert (proof.outcome, proof.detail) == (
        FAILED,
        "slow.ipynb: cell 2 (`time.sleep(60)`) did not finish within 1 s",
    )


def test_the_proofs_are_listed_in_the_maintainers_language() -> None:
    listed = [ProofResult("release.proof.grader", PASSED), ProofResult("release.proof.demo",
              SKIPPED, text("release.skip.no_demo", "zh"))]  # fmt: skip
    with using_language("zh"):
        shown = render_proofs(listed).splitlines()
    assert shown == [
        f"[{text('release.outcome.passed', 'zh')}] {text('release.proof.grader', 'zh')}",
        f"[{text('release.outcome.skipped', 'zh')}] {text('release.proof.demo', 'zh')}："  # noqa: RUF001 - a Chinese colon
        + text("release.skip.no_demo", "zh"),
    ]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_command_refuses_in_one_line_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], language: str
) -> None:
    inside = KIT_ROOT / "learner-copy-that-must-not-exist"
    with using_language(language):
        assert command.main([str(inside)]) == 2
    why = text("release.refused.inside_kit", language, path=inside)
    assert capsys.readouterr().out == text("cli.release.refused", language, reason=why) + "\n"
    assert not inside.exists()


@pytest.mark.parametrize(
    ("source", "failing", "named"),
    [
        ("def half(n: int) -> int:\n    return n / 2\n", "mypy", "checked/numbers.py:2"),
        (
            "import os\n\n\ndef half(n: int) -> int:\n    return n // 2\n",
            "ruff check --no-cache .",
            "F401",
        ),
        (
            "def half(n: int) -> int:\n    return n//2\n",
            "ruff format --check --no-cache .",
            "numbers.py",
        ),
        ("def half(n: int) -> int:\n    return n // 2\n", None, ""),
    ],
    ids=["a type error", "an unused import", "unformatted code", "clean code"],
)
def test_the_checks_proof_fails_on_the_first_check_that_fails_and_shows_why(
    tmp_path: Path, environment_for: Environment, source: str, failing: str | None, named: str
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mypy]\nfiles = ["checked"]\nstrict = true\n\n[tool.ruff.lint]\nselect = ["F"]\n'
    )
    (tmp_path / "checked").mkdir()
    (tmp_path / "checked" / "__init__.py").write_text("")
    (tmp_path / "checked" / "numbers.py").write_text(source)
    scratch = tmp_path / "scratch"
    scratch.mkdir()

    proof = prove_checks_pass(tmp_path, environment_for(tmp_path), scratch)

    if failing is None:
        assert (proof.outcome, proof.detail) == (PASSED, "")
    else:
        assert proof.outcome == FAILED
        assert proof.detail.startswith(f"python -m {failing} failed in the copy"), proof.detail
        assert named in proof.detail
