"""The layers are a rule: the kit's import graph holds to the table in ``layers.py``, and the
checks catch what they are for (a planted upward import, a cycle, I/O in the pure core)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.architecture.debts import DEBTS
from tests.architecture.import_graph import How, Import, ImportGraph, read_graph
from tests.architecture.layers import LAYERS
from tests.architecture.rules import Rule, Violation, check, layer_of, strongly_connected

KIT_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def kit_graph() -> ImportGraph:
    """The kit's import graph, read when a test asks (seconds of parsing), not when each
    worker collects this module."""
    return read_graph(KIT_ROOT)


def graph_of(*edges: tuple[str, str], packages: frozenset[str] = frozenset()) -> ImportGraph:
    """A made-up graph: each edge an import at the top of a module."""
    imports = tuple(Import(source, target, 1, How.TOP) for source, target in edges)
    modules = {source for source, _ in edges} | {
        target for _, target in edges if "." in target or target in {"eventlog", "grader"}
    }
    return ImportGraph(frozenset(modules), packages, imports)


def test_the_kit_breaks_no_layer_rule_but_its_listed_debts(kit_graph: ImportGraph) -> None:
    owed = {debt.violation for debt in DEBTS}
    new = sorted(str(violation) for violation in check(kit_graph) - owed)
    assert new == []


def test_every_listed_debt_is_still_owed_so_a_paid_one_is_deleted(kit_graph: ImportGraph) -> None:
    found = check(kit_graph)
    assert [debt for debt in DEBTS if debt.violation not in found] == []


def test_the_graph_holds_every_package_of_the_kit_and_its_imports_of_every_kind(
    kit_graph: ImportGraph,
) -> None:
    assert {"eventlog", "grader.engine.outcomes", "sqlite_demo.store.contract",
            "maintainer.release.command", "benchmarks.cli"} <= kit_graph.modules  # fmt: skip
    kinds = {edge.how for edge in kit_graph.internal()}
    assert kinds == set(How)


def test_every_layer_may_import_only_layers_of_the_table() -> None:
    names = [layer.name for layer in LAYERS]
    assert len(names) == len(set(names))
    assert {name for layer in LAYERS for name in layer.may_import} <= set(names)


@pytest.mark.parametrize(
    "planted",
    [
        "from grader.frontends import cli\n",
        "def later():\n    from grader.transport import child\n",
        "import typing\nif typing.TYPE_CHECKING:\n    from grader.frontends import cli\n",
        "import importlib\nFRONT = importlib.import_module('grader.frontends.report')\n",
        "from ..frontends import report\n",
    ],
    ids=["at the top", "inside a function", "behind TYPE_CHECKING", "by name", "relative"],
)
def test_an_upward_import_planted_in_a_copy_of_the_engine_is_caught(
    tmp_path: Path, planted: str
) -> None:
    shutil.copytree(KIT_ROOT / "grader", tmp_path / "grader",
                    ignore=shutil.ignore_patterns("node_modules", "__pycache__"))  # fmt: skip
    outcomes = tmp_path / "grader" / "engine" / "outcomes.py"
    outcomes.write_text(outcomes.read_text(encoding="utf-8") + "\n" + planted, encoding="utf-8")

    upward = {v for v in check(read_graph(tmp_path, ["grader"])) if v.rule is Rule.UPWARD}

    assert {v.subject[0] for v in upward} == {"grader.engine.outcomes"}
    assert {v.subject[1].rsplit(".", 1)[0] for v in upward} <= {
        "grader.frontends",
        "grader.transport",
    }


def test_an_import_of_the_maintainers_tools_is_caught_wherever_it_comes_from() -> None:
    for source in ("grader.i18n", "sqlite_demo.cli", "benchmarks.cli", "grader.frontends.cli"):
        found = check(graph_of((source, "maintainer.release.texts")))
        assert Violation(Rule.UPWARD, (source, "maintainer.release.texts")) in found, source


def test_io_in_the_pure_core_is_caught_and_the_same_import_elsewhere_is_not() -> None:
    found = check(graph_of(("solutions.replay", "sqlite3"), ("eventlog.rules", "os"),
                           ("sqlite_demo.store.opening", "sqlite3")))  # fmt: skip
    libraries = {v.subject for v in found if v.rule is Rule.LIBRARY}
    assert libraries == {("solutions.replay", "sqlite3"), ("eventlog.rules", "os")}


def test_a_cycle_is_caught_however_long_and_a_chain_is_not() -> None:
    found = check(graph_of(("grader.engine.a", "grader.engine.b"),
                           ("grader.engine.b", "grader.engine.c"),
                           ("grader.engine.c", "grader.engine.a"),
                           ("grader.engine.c", "grader.engine.d")))  # fmt: skip
    cycles = {v.subject for v in found if v.rule is Rule.MODULE_CYCLE}
    assert cycles == {("grader.engine.a", "grader.engine.b", "grader.engine.c")}


def test_sibling_packages_importing_each_other_are_a_cycle_but_a_package_and_its_own_are_not() -> (
    None
):
    packages = frozenset({"sqlite_demo.store", "sqlite_demo.store.sqlite"})
    found = check(graph_of(("sqlite_demo.service.app", "sqlite_demo.live.page"),
                           ("sqlite_demo.live.page", "sqlite_demo.service.errors"),
                           ("sqlite_demo.store", "sqlite_demo.store.sqlite.store"),
                           ("sqlite_demo.store.sqlite.store", "sqlite_demo.store.contract"),
                           packages=packages))  # fmt: skip
    cycles = {v.subject for v in found if v.rule is Rule.PACKAGE_CYCLE}
    assert cycles == {("sqlite_demo.live", "sqlite_demo.service")}


def test_a_module_that_imports_itself_is_a_cycle_of_one() -> None:
    assert list(strongly_connected({"a": {"a"}, "b": {"a"}})) == [{"a"}]


def test_a_module_no_layer_claims_is_itself_a_violation() -> None:
    found = check(graph_of(("newpackage.thing", "eventlog")))
    assert Violation(Rule.UNPLACED, ("newpackage.thing",)) in found


def test_a_module_belongs_to_the_layer_of_its_longest_prefix() -> None:
    assert layer_of("grader.i18n.texts").name == "grader words"  # type: ignore[union-attr]
    assert layer_of("grader.i18n").name == "grader i18n"  # type: ignore[union-attr]
    assert layer_of("graders.x") is None
