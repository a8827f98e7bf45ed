"""The corpus keeps its promises, checked without the grader.

Every wrong file really shows its broken behaviour in a hand-written scenario, breaks only
the task it names, and differs from the correct file it was copied from in a few lines. Every
correct file passes a clause-by-clause comparison with the reference solution. No scenario
fires on correct code, so none of them can pass by accident.
"""

from __future__ import annotations

import ast
import difflib
import sys
from pathlib import Path

import pytest

import solutions
from tests.implementations.check_corpus import (
    CORRECT_DIR,
    FUNCTION_NAMES,
    TASK_IDS,
    correct_files,
    load_implementation,
    wrong_files,
)
from tests.implementations.clause_checks import failed_tasks
from tests.implementations.scenarios import BROKEN_BEHAVIOUR

# An event with id 0 is hidden by the default ``after_event_id=0``, so reads and replays of a
# log whose ids start at 0 lose its first event too: that damage cannot be separated.
KNOWN_COLLATERAL = {"w01_ids_start_at_zero": {"read_and_resume", "replay"}}
MAX_CHANGED_LINES = 12

CORRECT = correct_files()
WRONG = wrong_files()


def _by_stem(paths: list[Path]) -> dict[str, Path]:
    return {path.stem: path for path in paths}


def _code_lines(path: Path) -> list[str]:
    """The file without its module docstring and its corpus constants."""
    tree = ast.parse(path.read_text())
    docstring_end = tree.body[0].end_lineno or 0
    lines = path.read_text().splitlines()[docstring_end:]
    return [line for line in lines if not line.startswith(("BREAKS_TASK =", "BASED_ON ="))]


def test_the_corpus_has_enough_files_of_each_kind() -> None:
    assert len(CORRECT) >= 8, [p.name for p in CORRECT]
    assert len(WRONG) >= 22, [p.name for p in WRONG]


@pytest.mark.parametrize("path", CORRECT + WRONG, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_each_file_stands_alone_on_the_standard_library(path: Path) -> None:
    imported = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported
    module = load_implementation(path)
    assert all(callable(getattr(module, name, None)) for name in FUNCTION_NAMES)


@pytest.mark.parametrize("path", CORRECT, ids=lambda p: p.stem)
def test_correct_file_agrees_with_the_reference_on_every_task(path: Path) -> None:
    module = load_implementation(path)
    assert not hasattr(module, "BREAKS_TASK")
    assert failed_tasks(module) == {}


def test_the_clause_check_finds_nothing_wrong_with_the_reference() -> None:
    assert failed_tasks(solutions) == {}


def test_every_wrong_file_has_exactly_one_scenario() -> None:
    assert set(BROKEN_BEHAVIOUR) == set(_by_stem(WRONG))


@pytest.mark.parametrize("path", WRONG, ids=lambda p: p.stem)
def test_wrong_file_names_its_task_its_base_and_the_clause_it_breaks(path: Path) -> None:
    module = load_implementation(path)
    assert module.BREAKS_TASK in TASK_IDS
    assert (CORRECT_DIR / f"{module.BASED_ON}.py").exists()
    assert module.__doc__ and module.__doc__.strip()


@pytest.mark.parametrize("path", WRONG, ids=lambda p: p.stem)
def test_wrong_file_differs_from_its_base_in_a_few_lines(path: Path) -> None:
    base = CORRECT_DIR / f"{load_implementation(path).BASED_ON}.py"
    diff = difflib.unified_diff(_code_lines(base), _code_lines(path), lineterm="", n=0)
    changed = [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert 0 < len(changed) <= MAX_CHANGED_LINES, "\n".join(changed)


@pytest.mark.parametrize("path", WRONG, ids=lambda p: p.stem)
def test_wrong_file_shows_its_broken_behaviour(path: Path) -> None:
    assert BROKEN_BEHAVIOUR[path.stem](load_implementation(path)) is True


@pytest.mark.parametrize("stem", sorted(BROKEN_BEHAVIOUR))
def test_scenario_never_fires_on_correct_code(stem: str) -> None:
    scenario = BROKEN_BEHAVIOUR[stem]
    assert scenario(solutions) is False
    fired = [p.stem for p in CORRECT if scenario(load_implementation(p))]
    assert fired == []


@pytest.mark.parametrize("path", WRONG, ids=lambda p: p.stem)
def test_wrong_file_fails_its_task_and_no_other(path: Path) -> None:
    module = load_implementation(path)
    failed = failed_tasks(module)
    assert module.BREAKS_TASK in failed
    allowed = {module.BREAKS_TASK} | KNOWN_COLLATERAL.get(path.stem, set())
    assert set(failed) <= allowed, failed
