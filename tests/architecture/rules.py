"""The checks the layer table is held to, each a function of an import graph: so a test can
feed them a graph made up for the purpose and see them fail.

Every check returns :class:`Violation` values, which compare by what they are about (the two
modules of an upward import, the modules of a cycle), so a known one can be listed once and
matched however the code around it changes.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from tests.architecture.import_graph import Import, ImportGraph
from tests.architecture.layers import LAYERS, Layer


class Rule(enum.Enum):
    """What a violation breaks."""

    UNPLACED = "belongs to no layer"
    UPWARD = "imports a layer it may not"
    LIBRARY = "imports a library its layer forbids"
    MODULE_CYCLE = "modules that import each other"
    PACKAGE_CYCLE = "sibling packages that import each other"


@dataclass(frozen=True)
class Violation:
    """One broken rule. ``subject`` names what it is about: ``(source, target)`` for an
    import, the sorted members for a cycle, ``(module,)`` for an unplaced one."""

    rule: Rule
    subject: tuple[str, ...]
    evidence: str = field(default="", compare=False)

    def __str__(self) -> str:
        return f"{' / '.join(self.subject)}: {self.rule.value} ({self.evidence})"


def layer_of(module: str, layers: Iterable[Layer] = LAYERS) -> Layer | None:
    """The layer whose longest prefix matches ``module``; None when no row claims it."""
    best: tuple[int, Layer] | None = None
    for layer in layers:
        for prefix in layer.prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (
                best is None or len(prefix) > best[0]
            ):
                best = (len(prefix), layer)
    return None if best is None else best[1]


def check(graph: ImportGraph, layers: tuple[Layer, ...] = LAYERS) -> set[Violation]:
    """Every violation of every rule in ``graph``."""
    return {
        *unplaced_modules(graph, layers),
        *upward_imports(graph, layers),
        *forbidden_libraries(graph, layers),
        *module_cycles(graph),
        *package_cycles(graph),
    }


def unplaced_modules(graph: ImportGraph, layers: tuple[Layer, ...] = LAYERS) -> Iterator[Violation]:
    for module in sorted(graph.modules):
        if layer_of(module, layers) is None:
            yield Violation(Rule.UNPLACED, (module,), "add it to a row of the layer table")


def upward_imports(graph: ImportGraph, layers: tuple[Layer, ...] = LAYERS) -> Iterator[Violation]:
    """Imports of a kit module its layer may not import."""
    for edge in graph.internal():
        source, target = layer_of(edge.source, layers), layer_of(edge.target, layers)
        if source is None or target is None or target is source:
            continue
        if target.name not in source.may_import:
            evidence = f"{source.name} -> {target.name}: {edge}"
            yield Violation(Rule.UPWARD, (edge.source, edge.target), evidence)


def forbidden_libraries(
    graph: ImportGraph, layers: tuple[Layer, ...] = LAYERS
) -> Iterator[Violation]:
    for edge in graph.external():
        layer = layer_of(edge.source, layers)
        if layer is not None and edge.target in layer.forbidden_libraries:
            yield Violation(Rule.LIBRARY, (edge.source, edge.target), str(edge))


def module_cycles(graph: ImportGraph) -> Iterator[Violation]:
    """Every set of modules that import each other, however indirectly."""
    successors: dict[str, set[str]] = {module: set() for module in graph.modules}
    examples: dict[tuple[str, str], Import] = {}
    for edge in graph.internal():
        successors[edge.source].add(edge.target)
        examples.setdefault((edge.source, edge.target), edge)
    for members in strongly_connected(successors):
        evidence = "; ".join(
            str(examples[pair]) for pair in sorted(examples) if set(pair) <= members
        )
        yield Violation(Rule.MODULE_CYCLE, tuple(sorted(members)), evidence)


def package_cycles(graph: ImportGraph) -> Iterator[Violation]:
    """Every set of packages that import each other (a package and the packages inside it
    are one unit here: an ``__init__`` naturally names what its package holds)."""
    successors: dict[str, set[str]] = {}
    examples: dict[tuple[str, str], Import] = {}
    for edge in graph.internal():
        source, target = graph.package_of(edge.source), graph.package_of(edge.target)
        if _nested(source, target):
            continue
        successors.setdefault(source, set()).add(target)
        successors.setdefault(target, set())
        examples.setdefault((source, target), edge)
    for members in strongly_connected(successors):
        evidence = "; ".join(
            str(examples[pair]) for pair in sorted(examples) if set(pair) <= members
        )
        yield Violation(Rule.PACKAGE_CYCLE, tuple(sorted(members)), evidence)


def _nested(one: str, other: str) -> bool:
    return one == other or one.startswith(other + ".") or other.startswith(one + ".")


def strongly_connected(successors: Mapping[str, set[str]]) -> Iterator[set[str]]:
    """The cycles of a graph: its strongly connected components of two or more nodes, and any
    node that imports itself (Tarjan's algorithm, iterative: no recursion limit to meet)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    for root in sorted(successors):
        if root in index:
            continue
        work = [(root, iter(sorted(successors[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, pending = work[-1]
            following = next(pending, None)
            if following is not None:
                if following not in index:
                    index[following] = low[following] = len(index)
                    stack.append(following)
                    on_stack.add(following)
                    work.append((following, iter(sorted(successors[following]))))
                elif following in on_stack:
                    low[node] = min(low[node], index[following])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.add(member)
                    if member == node:
                        break
                if len(members) > 1 or node in successors[node]:
                    yield members
