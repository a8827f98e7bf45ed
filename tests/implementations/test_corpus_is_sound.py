"""The corpus keeps its promises, checked without the grader.

Every correct file stands alone on the standard library and agrees with the reference
solution clause by clause. Every mutant applies cleanly to its base in a few lines and shows
its bug in a small hand-written scenario, and no scenario fires on correct code, so none of
them can pass by accident.
"""

from __future__ import annotations

import ast
import difflib
import sys
from pathlib import Path

import pytest

import solutions
from grader.engine.contract import FUNCTIONS
from grader.tasks import TASKS
from tests.implementations.clause_checks import failed_tasks
from tests.implementations.corpus import (
    CORRECT_DIR,
    Mutant,
    correct_files,
    load_implementation,
    mutant_source,
    write_mutant,
)
from tests.implementations.mutants import MUTANTS
from tests.implementations.scenarios import BROKEN_BEHAVIOUR

MAX_CHANGED_LINES = 24
FUNCTION_NAMES = tuple(function.name for function in FUNCTIONS)
TASK_IDS = tuple(task.id for task in TASKS)
CORRECT = correct_files()


def test_the_corpus_has_enough_of_each_kind() -> None:
    assert len(CORRECT) >= 8, [p.name for p in CORRECT]
    assert len(MUTANTS) >= 50, len(MUTANTS)
    assert len({mutant.name for mutant in MUTANTS}) == len(MUTANTS), "two mutants share a name"


@pytest.mark.parametrize("path", CORRECT, ids=lambda p: p.stem)
def test_each_correct_file_stands_alone_on_the_standard_library(path: Path) -> None:
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
    assert failed_tasks(load_implementation(path)) == {}


def test_the_clause_check_finds_nothing_wrong_with_the_reference() -> None:
    assert failed_tasks(solutions) == {}


def test_every_mutant_has_exactly_one_scenario() -> None:
    assert set(BROKEN_BEHAVIOUR) == {mutant.name for mutant in MUTANTS}


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_names_a_task_a_base_and_the_bug(mutant: Mutant) -> None:
    assert mutant.task in TASK_IDS
    assert set(mutant.spills) <= set(TASK_IDS) - {mutant.task}
    assert (CORRECT_DIR / f"{mutant.base}.py").exists()
    assert mutant.why.strip().endswith(".")


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_changes_its_base_in_a_few_lines(mutant: Mutant) -> None:
    base = (CORRECT_DIR / f"{mutant.base}.py").read_text().splitlines()
    mutated = mutant_source(mutant).splitlines()
    diff = difflib.unified_diff(base, mutated, lineterm="", n=0)
    changed = [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    # The docstring is replaced too (by the mutant's why), hence the allowance.
    assert 0 < len(changed) <= MAX_CHANGED_LINES + 8, "\n".join(changed)


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_shows_its_broken_behaviour(mutant: Mutant, tmp_path: Path) -> None:
    module = load_implementation(write_mutant(mutant, tmp_path))
    assert BROKEN_BEHAVIOUR[mutant.name](module) is True


#: The scenarios of the mutants whose bug shows only past some size (512 results, a log of
#: 1,024 events): together 15 s of CPU on the correct files (most on the slowest styles, such
#: as lists everywhere), and a tenth of a second on the reference. On the correct files they
#: run in the slow tier; the fast tier runs them on the reference.
SIZED = frozenset(mutant.name for mutant in MUTANTS if mutant.needs_size)


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=pytest.mark.slow) if name in SIZED else name
        for name in sorted(BROKEN_BEHAVIOUR)
    ],
)
def test_scenario_never_fires_on_correct_code(name: str) -> None:
    scenario = BROKEN_BEHAVIOUR[name]
    assert scenario(solutions) is False
    fired = [p.stem for p in CORRECT if scenario(load_implementation(p))]
    assert fired == []


@pytest.mark.parametrize("name", sorted(SIZED))
def test_a_scenario_that_needs_size_never_fires_on_the_reference(name: str) -> None:
    assert BROKEN_BEHAVIOUR[name](solutions) is False
