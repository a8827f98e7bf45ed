"""What learner code can reach of the kernel without asking the guard, checked in a live child.

The kernel runs in the learner's interpreter, so everything it holds must be out of reach of
operations no audit event watches: ``object.__subclasses__()`` lists every class, and a
function's ``__globals__`` is never audited. These tests run a probe as the submission (no
sandbox needed: the guard and the kernel are the same in every isolation) and read what it
found from its log; and they check the kernel's files, which share one namespace, never
shadow one another's names.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from grader import kernel
from grader.run import grade
from grader.settings import Settings
from grader.tasks import select
from tests.redteam.hostile import CORRECT_BODY

#: Names several kernel files may bind: the typing helpers, and identical copies.
SHARED = {"TYPE_CHECKING", "Any", "Callable", "Generator", "_sys", "_gc", "_looks_like_event"}

PROBE = """
import os as _os
_found = []
_seen, _pending = set(), [object]
while _pending:
    _cls = _pending.pop()
    for _sub in type.__subclasses__(_cls):
        if id(_sub) in _seen:
            continue
        _seen.add(id(_sub))
        _pending.append(_sub)
        for _value in list(vars(_sub).values()):
            _space = getattr(_value, "__globals__", None)
            if not isinstance(_space, dict):
                continue
            if _space.get("__name__") == "grading_kernel" or {"REPORTS", "FUNCTIONS", "RULES",
                                                              "VALUES", "_ROOTS"} & set(_space):
                _found.append("%s.%s" % (_sub.__qualname__, getattr(_value, "__name__", "?")))
            if _space.get("__name__") in ("sealed", "grading_values"):
                for _name, _held in _space.items():
                    if _name != "__builtins__" and isinstance(_held, (list, dict)) and _held:
                        _found.append("%s holds %s" % (_sub.__qualname__, _name))
_os.write(2, ("FOUND %r\\n" % (sorted(set(_found)),)).encode())
"""


def top_level_names(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif (
            isinstance(node, ast.Import | ast.ImportFrom)
            and getattr(node, "module", "") != "__future__"
        ):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return names


def test_no_kernel_file_rebinds_a_name_another_kernel_file_defines() -> None:
    owners: dict[str, str] = {}
    clashes = []
    for name in kernel.FILES:
        for defined in top_level_names((kernel.HERE / f"{name}.py").read_text()) - SHARED:
            if defined in owners:
                clashes.append(f"{defined}: {owners[defined]} and {name}")
            owners[defined] = name
    assert clashes == []


@pytest.fixture(scope="module")
def probe_log(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("reach")
    target = folder / "probe.py"
    target.write_text(CORRECT_BODY + PROBE)
    log = folder / "probe.log"
    grade(str(target), select(["list_sessions"]), Settings(isolation="none"), log=log)
    return log.read_text()


def test_no_method_of_any_class_leads_to_the_kernel_s_namespace(probe_log: str) -> None:
    found = [line for line in probe_log.splitlines() if line.startswith("FOUND")]
    assert found == ["FOUND []"], probe_log[-2000:]


def test_the_kernel_s_classes_are_sealed_but_still_work(tmp_path: Path) -> None:
    # The sealed methods (observe's counter, its exceptions) still observe, refuse and count.
    target = tmp_path / "correct.py"
    target.write_text(CORRECT_BODY)
    report = grade(str(target), select(["append_and_ids"]), Settings(isolation="none"))
    assert report.score == report.max_score, report
