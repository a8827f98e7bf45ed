"""``python -m maintainer new-function NAME`` and ``check-function NAME``, run on copies of the
kit (its tracked files, copied into a temporary folder): never on the kit itself.

The scaffold writes every piece of a new function, each a marked placeholder, in step with
the kit's mirrored files (the stub and the reference, the English stub and the Chinese one);
the check lists each placeholder and exits 1 while any is left, and passes the kit's own five
functions; a bad name is refused before a single file is written.
"""

from __future__ import annotations

import ast
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.engine.contract import FUNCTIONS
from maintainer import new_function
from maintainer.new_function import MARKER, main, report

KIT_ROOT = Path(__file__).resolve().parents[2]
NAME = "count_events"


def copy_of_kit(folder: Path) -> Path:
    """The kit's tracked files, as the working tree holds them, copied into ``folder``."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=KIT_ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")  # fmt: skip
    for relative in filter(None, listed):
        source = KIT_ROOT / relative
        if source.is_file():
            target = folder / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    return folder


def in_copy(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` with the copy's own packages first on the path, from its folder."""
    environment = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, *args], cwd=root, env=environment,
                          capture_output=True, text=True, check=False)  # fmt: skip


def snapshot(root: Path) -> dict[str, str]:
    """Every file under ``root`` by its digest."""
    return {path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(root.rglob("*")) if path.is_file()}  # fmt: skip


def top_level_functions(path: Path) -> dict[str, tuple[str, ...]]:
    """Each top-level public function of ``path`` with its parameters' names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name: tuple(arg.arg for arg in node.args.args) for node in tree.body
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")}  # fmt: skip


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A copy of the kit with ``count_events`` scaffolded, and what the scaffold printed."""
    root = copy_of_kit(tmp_path_factory.mktemp("kit"))
    run = in_copy(root, "-m", "maintainer", "new-function", NAME, "--root", str(root))
    assert run.returncode == 0, run.stderr
    return root, run.stdout


@pytest.fixture(scope="module")
def untouched(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_of_kit(tmp_path_factory.mktemp("kit"))


def test_the_scaffold_writes_every_piece(scaffolded: tuple[Path, str]) -> None:
    root, _ = scaffolded
    for relative in (
        f"exercises/{NAME}.py",
        f"solutions/{NAME}.py",
        f"docs/learner/zh/exercises/{NAME}.py",
        f"grader/tasks/{NAME}/__init__.py",
        f"grader/tasks/{NAME}/properties.py",
        f"grader/tasks/{NAME}/texts.py",
    ):
        assert (root / relative).is_file(), relative
    assert f'Function("{NAME}", "{NAME}"' in (root / "grader/engine/contract.py").read_text()
    assert f'"{NAME}.py")' in (root / "grader/transport/workspace.py").read_text()
    assert f'"{NAME}.{NAME}": doc(' in (root / new_function.EXERCISES_ZH).read_text()
    assert f"{MARKER}: mutants of {NAME}" in (root / new_function.MUTANTS).read_text()
    for package in ("exercises", "solutions"):
        init = (root / package / "__init__.py").read_text()
        assert f"from {package}.{NAME} import {NAME}\n" in init and f'"{NAME}",' in init
    correct = sorted((root / new_function.CORRECT).glob("c*.py"))
    assert correct and all(NAME in top_level_functions(path) for path in correct)


def test_what_it_writes_is_mirrored_and_stands(scaffolded: tuple[Path, str]) -> None:
    root, _ = scaffolded
    for stub in sorted((root / "exercises").glob("*.py"))[1:]:
        assert (
            top_level_functions(stub).items()
            <= top_level_functions(root / "solutions" / stub.name).items()
        ), stub.name
    # The Chinese stubs are exactly what the kit's builder writes from the copy, every
    # translation is in step with its English, and the copy's packages import.
    check = (
        "from maintainer.translations.stubs import STUBS_DIR, chinese_stubs\n"
        "built = chinese_stubs()\n"
        "assert built == {n: (STUBS_DIR / n).read_text(encoding='utf-8') for n in built}\n"
        f"assert {NAME + '.py'!r} in built\n"
        "from grader.frontends.stubs import is_stub\n"
        f"assert is_stub(open('exercises/{NAME}.py', encoding='utf-8').read())\n"
        "import exercises, solutions\n"
        "from grader.tasks import TASKS\n"
        f"assert TASKS[-1].id == {NAME!r} and TASKS[-1].number == len(TASKS) == 6\n"
    )
    run = in_copy(root, "-c", check)
    assert run.returncode == 0, run.stderr
    status = in_copy(root, "-m", "maintainer.translations", "status")
    assert status.returncode == 0, status.stdout
    for lint in (["check", "--quiet", "."], ["format", "--check", "--quiet", "."]):
        linted = subprocess.run([sys.executable, "-m", "ruff", *lint], cwd=root,
                                capture_output=True, text=True, check=False)  # fmt: skip
        assert linted.returncode == 0, linted.stdout


def test_the_placeholder_property_fails_loudly(scaffolded: tuple[Path, str]) -> None:
    root, _ = scaffolded
    check = (
        f"from grader.tasks.{NAME}.properties import PROPERTIES\n"
        "try:\n"
        "    PROPERTIES[0].build(None, None)\n"
        "except NotImplementedError as error:\n"
        "    print(error)\n"
    )
    run = in_copy(root, "-c", check)
    assert run.returncode == 0, run.stderr
    assert MARKER in run.stdout and "properties are not written yet" in run.stdout


def test_it_says_what_is_left_to_fill_in(scaffolded: tuple[Path, str]) -> None:
    _, printed = scaffolded
    for said in (
        f"solutions/{NAME}.py",
        f"exercises/{NAME}.py",
        new_function.EXERCISES_ZH,
        f"grader/tasks/{NAME}/properties.py",
        f"grader/tasks/{NAME}/texts.py",
        new_function.MUTANTS,
        "KILLERS",
        "python -m maintainer.bank",
        "python -m maintainer.translations status",
        f"python -m maintainer check-function {NAME}",
    ):
        assert said in printed, said


def test_the_check_lists_every_placeholder_and_exits_1(scaffolded: tuple[Path, str]) -> None:
    root, _ = scaffolded
    for command in (["check-function", NAME], ["new-function", "--check", NAME]):
        run = in_copy(root, "-m", "maintainer", *command, "--root", str(root))
        assert run.returncode == 1, run.stdout
        assert "[done]" not in run.stdout
        wired = new_function.wiring(NAME, root)
        assert wired is not None
        assert run.stdout.count("[todo]") == len(new_function.pieces(wired, root))


def test_a_piece_filled_in_is_no_longer_listed(scaffolded: tuple[Path, str]) -> None:
    root, _ = scaffolded
    reference = root / "solutions" / f"{NAME}.py"
    before = reference.read_text(encoding="utf-8")
    said: list[str] = []
    try:
        reference.write_text(
            f"from typing import Any\n\n\ndef {NAME}(log: Any) -> int:\n"
            '    """How many events the log holds."""\n    return len(log.events)\n',
            encoding="utf-8",
        )
        assert report(NAME, root, said.append) == 1
    finally:
        reference.write_text(before, encoding="utf-8")
    assert f"  [done] the reference's body: solutions/{NAME}.py" in said


@pytest.mark.parametrize("function", [function.name for function in FUNCTIONS])
def test_the_kits_own_functions_pass_the_check(function: str) -> None:
    said: list[str] = []
    assert report(function, KIT_ROOT, said.append) == 0, "\n".join(said)


def test_the_check_of_no_function_says_so(untouched: Path) -> None:
    said: list[str] = []
    assert report(NAME, untouched, said.append) == 2
    assert f"new-function {NAME}" in said[0]


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("count-events", "not a Python identifier"),
        ("2events", "not a Python identifier"),
        ("CountEvents", "not a Python identifier"),
        ("", "not a Python identifier"),
        ("class", "keyword"),
        ("match", "keyword"),
        ("append_event", "already a function of the kit"),
        ("replay_session", "already a function of the kit"),
        ("replay", "collides with a module: exercises/replay.py"),
        ("sessions", "collides with a module: exercises/sessions.py"),
        ("grader", "collides with a module: the kit's top-level grader"),
        ("json", "collides with a module: the standard library's json"),
        ("print", "shadow the built-in"),
        ("refuse", "already a prefix"),
    ],
)
def test_a_bad_name_is_refused_and_nothing_is_written(
    untouched: Path, name: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(untouched)
    assert main([name, "--root", str(untouched)]) == 2
    error = capsys.readouterr().err
    assert why in error and "nothing written" in error, error
    assert snapshot(untouched) == before


def test_a_table_it_cannot_find_stops_it_before_it_writes(
    untouched: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A table reshaped by hand (EXERCISE_MODULES over several lines) is found missing while
    the scaffold plans, before its first write."""
    workspace = untouched / new_function.WORKSPACE
    original = workspace.read_text(encoding="utf-8")
    reshaped = original.replace(
        'EXERCISE_MODULES = ("event_log.py", ', 'EXERCISE_MODULES = (\n    "event_log.py", '
    )
    assert reshaped != original
    try:
        workspace.write_text(reshaped, encoding="utf-8")
        before = snapshot(untouched)
        assert main([NAME, "--root", str(untouched)]) == 2
        assert snapshot(untouched) == before
    finally:
        workspace.write_text(original, encoding="utf-8")
    error = capsys.readouterr().err
    assert "EXERCISE_MODULES" in error and "nothing written" in error, error
