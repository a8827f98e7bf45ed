"""The kit's import graph, read from the source with :mod:`ast` (nothing is imported).

Every import counts, wherever it stands: at the top of a module, inside a function, behind
``if TYPE_CHECKING:``, and by name (a string that names a module of the kit, as
``importlib.import_module`` and ``python -m`` take it). A cycle or an upward import hidden in
any of those places is still one. The one string that is not an import is a package named to
``importlib.resources.files``: that reads a data file the package ships.
"""

from __future__ import annotations

import ast
import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

#: The kit's packages: what the graph is made of. ``tests`` and ``notebooks`` stand outside.
PACKAGES: Final = (
    "eventlog",
    "exercises",
    "solutions",
    "grader",
    "sqlite_demo",
    "benchmarks",
    "maintainer",
)
#: Folders that hold no Python of ours.
SKIPPED_FOLDERS: Final = frozenset({"node_modules", "__pycache__", "static"})
#: Calls whose string argument names a package to read files from, not a module to run.
RESOURCE_CALLS: Final = frozenset({"files", "as_file"})


class How(enum.Enum):
    """Where an import stands, which decides when it runs."""

    TOP = "at the top"
    FUNCTION = "inside a function"
    TYPE_CHECKING = "behind TYPE_CHECKING"
    BY_NAME = "by name"


@dataclass(frozen=True, slots=True)
class Import:
    """One import: ``source`` (a kit module) imports ``target`` (a kit module, or the top
    name of a library: ``os``, ``http``, ``hypothesis``)."""

    source: str
    target: str
    line: int
    how: How

    def __str__(self) -> str:
        return f"{self.source} imports {self.target} ({self.how.value}, line {self.line})"


@dataclass(frozen=True)
class ImportGraph:
    """Every module of the kit and every import between them (and of libraries)."""

    modules: frozenset[str]
    packages: frozenset[str]
    imports: tuple[Import, ...]

    def package_of(self, module: str) -> str:
        """The package that holds ``module`` (a package holds itself)."""
        return module if module in self.packages else module.rpartition(".")[0]

    def internal(self) -> Iterator[Import]:
        """The imports of one kit module by another."""
        return (edge for edge in self.imports if edge.target in self.modules)

    def external(self) -> Iterator[Import]:
        """The imports of libraries (the standard library's and third parties')."""
        return (edge for edge in self.imports if edge.target not in self.modules)


def module_files(root: Path, packages: Iterable[str] = PACKAGES) -> dict[str, Path]:
    """Every module under ``root`` of ``packages``, by dotted name (a package by its own)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root)
            if SKIPPED_FOLDERS.intersection(relative.parts[:-1]):
                continue
            parts = list(relative.with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def read_graph(root: Path, packages: Iterable[str] = PACKAGES) -> ImportGraph:
    """Read the import graph of the kit whose folder is ``root``."""
    files = module_files(root, packages)
    modules = frozenset(files)
    packages = frozenset(name for name, path in files.items() if path.name == "__init__.py")
    imports: list[Import] = []
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        imports.extend(_imports_of(name, tree, is_package, modules))
    return ImportGraph(modules, packages, tuple(imports))


def _imports_of(
    module: str, tree: ast.Module, is_package: bool, modules: frozenset[str]
) -> Iterator[Import]:
    for node, how in _walk(tree, How.TOP):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, _known(alias.name, modules), node.lineno, how)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, node.module, node.level, is_package)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                target = full if full in modules else _known(base, modules)
                yield Import(module, target, node.lineno, how)
        elif isinstance(node, ast.Constant) and _names_a_module(node.value, modules):
            yield Import(module, str(node.value), node.lineno, How.BY_NAME)


def _walk(node: ast.AST, how: How) -> Iterator[tuple[ast.AST, How]]:
    """Every node under ``node``, with where it stands; skips resource lookups' package names."""
    for child in ast.iter_child_nodes(node):
        if _is_resource_call(child):
            continue
        inner = how
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            inner = How.FUNCTION if how is How.TOP else how
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for grandchild in child.body:
                yield grandchild, How.TYPE_CHECKING
                yield from _walk(grandchild, How.TYPE_CHECKING)
            for grandchild in child.orelse:
                yield grandchild, how
                yield from _walk(grandchild, how)
            continue
        yield child, inner
        yield from _walk(child, inner)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _is_resource_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    function = node.func
    name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
    return name in RESOURCE_CALLS


def _names_a_module(value: object, modules: frozenset[str]) -> bool:
    # A dotted name only: a bare word such as "grader" is too often just a word.
    return isinstance(value, str) and "." in value and value in modules


def _absolute(module: str, name: str | None, level: int, is_package: bool) -> str:
    """The absolute name ``from <level dots><name> import ...`` means inside ``module``."""
    if level == 0:
        return name or ""
    parts = module.split(".")
    if not is_package:
        parts.pop()
    parts = parts[: len(parts) - (level - 1)]
    return ".".join([*parts, name] if name else parts)


def _known(name: str, modules: frozenset[str]) -> str:
    """A kit module's full name, or a library's top name (``http.server`` -> ``http``)."""
    return name if name in modules or name.split(".")[0] in PACKAGES else name.split(".")[0]
