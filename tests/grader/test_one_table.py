"""The grader is built from one table of functions and one folder per task.

A sixth function and task, added the way the grader's layout says (a row in the table, a
folder of its own), grades a toy implementation: the number of grader files it touched is
the measure of how easy the grader is to change. And nothing in the engine holds a sentence
a learner reads: outcomes are ids, rendered at the edge.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.engine.contract import Task
from grader.i18n import catalog
from grader.tasks import TASKS
from tests.grader.conftest import KIT_ROOT

ROW = """    Function("count_events", "count_events", probe=("$log",), view="plain",
             promises=("count.total",)),
"""
TASK_INIT = """
from grader.engine.contract import Task

TASK = Task(id="count_events", number=6, points=10,
            functions=("create_event_log", "append_event", "count_events"),
            properties_module="grader.tasks.count_events.properties")
"""
TASK_PROPERTIES = """
from grader.engine.plan import Plan
from grader.engine.programs import Block, Program, Style, programs
from grader.engine.properties import Property
from grader.engine.steps import Read
from grader.engine.wire import Ref


def counts(plan: Plan, program: Program) -> None:
    log = plan.create()
    for segment in program.segments:
        if isinstance(segment, Block):
            log = plan.block(log, segment)
        else:
            log = plan.append(log, segment)[0]
        total = len(log.model.events)
        plan.steps.append(Read("count_events", (Ref(log.name),), {}, "plain", "count.total",
                               expect=lambda context, total=total: total, shown=True))


PROPERTIES = (Property("counts", programs(Style(singles=6, blocks=1, longest=300)), counts, 20,
                       (), ("count.total",)),)
"""
TASK_TEXTS = """
EN = {
    "task.count_events.name": "Counting events",
    "promise.count.total": "It returns how many events the log holds, whatever their sessions.",
    "hint.count.total.1": "Count every event of the log.",
    "hint.count.total.2": "len() of the log's events, as an int.",
}
ZH = {}
"""
COUNTING = "\n\ndef count_events(log):\n    return {count}\n"


def _kit(tmp_path: Path) -> Path:
    kit = tmp_path / "kit"
    shutil.copytree(
        KIT_ROOT / "grader", kit / "grader", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(
        KIT_ROOT / "exercises", kit / "exercises", ignore=shutil.ignore_patterns("__pycache__")
    )
    return kit


def _add_count_events(kit: Path) -> None:
    table = kit / "grader" / "engine" / "contract.py"
    source = table.read_text(encoding="utf-8")
    anchor = '    Function("replay_session", "replay",\n'
    assert anchor in source
    table.write_text(source.replace(anchor, ROW + anchor), encoding="utf-8")
    unit = kit / "grader" / "tasks" / "count_events"
    unit.mkdir()
    (unit / "__init__.py").write_text(TASK_INIT, encoding="utf-8")
    (unit / "properties.py").write_text(TASK_PROPERTIES, encoding="utf-8")
    (unit / "texts.py").write_text(TASK_TEXTS, encoding="utf-8")


def _changed(before: Path, after: Path) -> tuple[list[str], list[str]]:
    def files(root: Path) -> dict[str, bytes]:
        return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()
                and "__pycache__" not in p.parts}  # fmt: skip

    old, new = files(before), files(after)
    modified = sorted(name for name in old if name in new and old[name] != new[name])
    added = sorted(name for name in new if name not in old)
    return modified, added


def _grade(kit: Path, target: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(kit), "LANGUAGE": "en"}
    return subprocess.run(
        [sys.executable, "-m", "grader", "--target", str(target), "--task", "6"],
        cwd=kit,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.sandbox
def test_a_sixth_function_is_a_table_row_and_a_task_folder(tmp_path: Path) -> None:
    pristine = _kit(tmp_path / "before")
    kit = _kit(tmp_path / "after")
    _add_count_events(kit)
    modified, added = _changed(pristine / "grader", kit / "grader")
    assert modified == ["engine/contract.py"]
    assert added and all(name.startswith("tasks/count_events/") for name in added)
    solution = (KIT_ROOT / "tests/implementations/correct/c07_tuple_log.py").read_text(
        encoding="utf-8"
    )
    right = tmp_path / "right.py"
    right.write_text(solution + COUNTING.format(count="len(log)"), encoding="utf-8")
    wrong = tmp_path / "wrong.py"
    wrong.write_text(solution + COUNTING.format(count="min(len(log), 5)"), encoding="utf-8")
    graded = _grade(kit, right)
    assert graded.returncode == 0 and "6. Counting events" in graded.stdout, (
        graded.stdout + graded.stderr
    )
    failed = _grade(kit, wrong)
    assert failed.returncode == 1 and "It returns how many events the log holds" in failed.stdout


def test_no_sentence_of_the_catalogs_is_written_in_the_engine() -> None:
    """The engine speaks in message ids: no string it builds holds a catalog sentence (its
    comments and docstrings may quote one)."""
    sentences = [s for s in catalog("en").values() if len(s) >= 24 and "{" not in s[:24]]
    strings = "\n".join(
        node.value
        for folder in ("engine", "kernel", "transport")
        for path in sorted((KIT_ROOT / "grader" / folder).rglob("*.py"))
        for node in _strings_built(ast.parse(path.read_text(encoding="utf-8")))
    )
    assert [s for s in sentences if s[:24] in strings] == []


def _strings_built(tree: ast.Module) -> list[ast.Constant]:
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def test_no_code_reads_a_status_back_from_rendered_text() -> None:
    pattern = re.compile(
        r"""in\s+(failure|result|report)\.(render|text|sentence)|\.render\(\)\s*\)"""
    )
    offenders = [str(path) for path in sorted((KIT_ROOT / "grader").rglob("*.py"))
                 if pattern.search(path.read_text(encoding="utf-8"))]  # fmt: skip
    assert offenders == []


@pytest.mark.parametrize("task", TASKS, ids=lambda task: task.id)
def test_a_tasks_promises_are_those_its_properties_check_in_their_order(task: Task) -> None:
    checked = tuple(dict.fromkeys(p for prop in task.properties for p in prop.promises))
    assert task.promises == checked
