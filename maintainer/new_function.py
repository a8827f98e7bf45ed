"""A new exercise function, scaffolded and then checked: ``python -m maintainer new-function NAME``
and ``python -m maintainer check-function NAME`` (rustlings' ``dev new`` and ``dev check``).

``new-function NAME`` writes every piece a function of the kit has, each a placeholder that
says so: the learner's stub ``exercises/NAME.py`` (and its line in ``exercises/__init__.py``),
its Chinese docstrings in :mod:`maintainer.translations.exercises_zh` and the Chinese stub
built from them (by ``python -m maintainer.translations build``, run on the tree written), the
reference's place ``solutions/NAME.py`` (it raises NotImplementedError), the row in
:data:`grader.engine.contract.FUNCTIONS`, the module in ``EXERCISE_MODULES``, the task folder
``grader/tasks/NAME/`` (a property that fails loudly until it is written, a promise and its
hints in both languages), the function in every correct file of the corpus, and a line for its
mutants. Then it prints what is left to fill in. A bad name is refused before anything is
written.

``check-function NAME`` reads those pieces and lists which are still placeholders: exit 1
while any is, 0 when none is (the five functions of the kit pass it). Every placeholder
carries :data:`MARKER`, so ``grep -rn "TODO(new-function)"`` finds them too.

Both work on any copy of the kit (``--root``): the tests scaffold a temporary copy.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import keyword
import os
import re
import runpy
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from grader.i18n import fingerprint, text
from maintainer.translations.docstrings import EN_HEADING, documented_nodes, without_bullets

KIT_ROOT = Path(__file__).resolve().parents[1]
#: What every placeholder says, so that the check (and grep) finds what is left.
MARKER = "TODO(new-function)"
#: The names a new function may have: lower-case snake case, as the five have.
NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]*")
CONTRACT = "grader/engine/contract.py"
WORKSPACE = "grader/transport/workspace.py"
EXERCISES_ZH = "maintainer/translations/exercises_zh.py"
ZH_STUBS = "docs/learner/zh/exercises"
CORRECT = "tests/implementations/correct"
MUTANTS = "tests/implementations/mutants.py"
CLAUSES = "tests/grader/test_clauses.py"
CHINESE_COPY_TEST = "tests/translations/test_chinese_copy.py"


class NothingWritten(Exception):
    """The scaffold stopped before writing anything; the message says why."""


class BadName(NothingWritten):
    """The name cannot be a new function; the message says why."""


class StubsNotBuilt(Exception):
    """Every file is written but the kit's builder of the Chinese stubs failed."""


# --- the name ---------------------------------------------------------------------------------


def functions_defined(root: Path) -> set[str]:
    """Every function the contract lists or the exercises and the reference define."""
    found = set(re.findall(r'Function\(\s*"(\w+)"', (root / CONTRACT).read_text(encoding="utf-8")))
    for folder in ("exercises", "solutions"):
        for path in (root / folder).glob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            found |= {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    return found


def promise_prefixes(root: Path) -> set[str]:
    """The prefixes promise and case ids already use (``append``, ``refuse``, ``cause``...)."""
    found = set()
    for path in [root / "grader/i18n/texts.py", *(root / "grader/tasks").glob("*/texts.py")]:
        found |= set(re.findall(r'"(?:promise|hint)\.(\w+)\.', path.read_text(encoding="utf-8")))
        found |= set(re.findall(r'"(accept|refuse|cause)\.', path.read_text(encoding="utf-8")))
    return found


def refuse_bad_name(name: str, root: Path) -> None:
    """Raise :class:`BadName` unless ``name`` can be a new function of the kit at ``root``."""
    if not NAME_PATTERN.fullmatch(name):
        raise BadName(
            f"{name!r} is not a Python identifier in lower-case snake case "
            "(a letter, then letters, digits and underscores)"
        )
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        raise BadName(f"{name!r} is a Python keyword")
    if name in functions_defined(root):
        raise BadName(f"{name!r} is already a function of the kit")
    modules = [f"exercises/{name}.py", f"solutions/{name}.py", f"grader/tasks/{name}"]
    taken = [module for module in modules if (root / module).exists()]
    if taken:
        verb = "exists" if len(taken) == 1 else "exist"
        raise BadName(f"{name!r} collides with a module: {', '.join(taken)} {verb}")
    if (root / name).exists() or (root / f"{name}.py").exists():
        raise BadName(f"{name!r} collides with a module: the kit's top-level {name} exists")
    if name in sys.stdlib_module_names:
        raise BadName(f"{name!r} collides with a module: the standard library's {name}")
    if hasattr(builtins, name):
        raise BadName(f"{name!r} would shadow the built-in {name}")
    if name in promise_prefixes(root):
        raise BadName(f"{name!r} is already a prefix of the grader's promise ids")


# --- what is written --------------------------------------------------------------------------


def stub_source(name: str) -> str:
    """The learner's stub: a module and a function whose docstrings are placeholders, and the
    grader's own "not implemented yet" (the Chinese stub's builder requires exactly it)."""
    bullet = textwrap.fill(
        promise_english(name), 100, initial_indent=" " * 8 + "- ", subsequent_indent=" " * 10
    )
    message = text("stub.not_implemented", "en", function=name)
    return (
        f'"""{MARKER}: what {name} is for, in one line."""\n\n'
        "from __future__ import annotations\n\n"
        "from typing import Any\n\n\n"
        f"def {name}(log: Any) -> Any:\n"
        f'    """{MARKER}: what {name} returns, in one sentence; why, and an example.\n\n'
        f"    {EN_HEADING}\n{bullet}\n"
        '    """\n'
        f'    raise NotImplementedError("{message}")\n'
    )


def reference_source(name: str) -> str:
    """The reference's place: it raises until its body is written."""
    return (
        f'"""{MARKER}: how the reference computes {name}, in a paragraph."""\n\n'
        "from __future__ import annotations\n\n"
        "from typing import Any\n\n"
        "from solutions.event_log import EventLog\n\n\n"
        f"def {name}(log: EventLog) -> Any:\n"
        f'    """{MARKER}: what {name} returns, and how."""\n'
        f'    raise NotImplementedError("{MARKER}: the reference\'s {name}")\n'
    )


def promise_english(name: str) -> str:
    return f"{MARKER}: {name}'s first promise, word for word as its task's texts.py gives it."


def chinese_translations(name: str, stub: str) -> dict[str, tuple[str, str]]:
    """The stub's docstrings' entries for ``exercises_zh``: the fingerprint of each English
    docstring (without its promise bullets, as the drift check computes it) and a placeholder."""
    chinese = {
        "": f"{MARKER}：用一句话说明 {name} 是做什么的。",  # noqa: RUF001 - Chinese punctuation
        name: f"{MARKER}：用一句话说明 {name} 返回什么；为什么，再给一个示例。\n\n约定：",  # noqa: RUF001
    }
    found = {}
    for key, node in documented_nodes(ast.parse(stub)).items():
        english = without_bullets(ast.get_docstring(node) or "", EN_HEADING)
        found[f"{name}.{key}" if key else name] = (fingerprint(english), chinese[key])
    return found


def zh_entries_source(entries: dict[str, tuple[str, str]]) -> str:
    lines = []
    for key, (print_, translation) in entries.items():
        body = textwrap.indent(translation, " " * 8, lambda line: bool(line.strip()))
        lines.append(
            f'    "{key}": doc(\n        "{print_}",\n        r"""\n{body}\n        """,\n    ),\n'
        )
    return "".join(lines)


def task_sources(name: str, number: int) -> dict[str, str]:
    """The task folder: the task, a property that fails loudly, the words in both languages."""
    promise = f"{name}.placeholder"
    init = (
        f'"""Task {number}, {name}: {MARKER}: what this task checks, in one line."""\n\n'
        "from __future__ import annotations\n\n"
        "from grader.engine.contract import Task\n\n"
        "TASK = Task(\n"
        f'    id="{name}",\n'
        f"    number={number},\n"
        "    points=20,\n"
        f'    functions=("create_event_log", "append_event", "{name}"),\n'
        '    properties_module=f"{__name__}.properties",\n'
        f'    promises=("{promise}",),\n'
        ")\n"
    )
    properties = (
        f'"""Task {number}\'s properties. {MARKER}: write them; until then the one below fails\n'
        "every grade of this task, and the bank cannot be built.\n"
        '"""\n\n'
        "from __future__ import annotations\n\n"
        "from typing import Any\n\n"
        "from hypothesis import strategies as st\n\n"
        "from grader.engine.plan import Plan\n"
        "from grader.engine.properties import Property\n\n\n"
        "def placeholder(plan: Plan, example: Any) -> None:\n"
        f'    """{MARKER}: a property of {name}; this one only fails."""\n'
        "    raise NotImplementedError(\n"
        f'        "{MARKER}: {name}\'s properties are not written yet "\n'
        f'        "(grader/tasks/{name}/properties.py; "\n'
        f'        "python -m maintainer check-function {name})"\n'
        "    )\n\n\n"
        "PROPERTIES = (\n"
        f'    Property("placeholder", st.just(None), placeholder, 1, (), ("{promise}",)),\n'
        ")\n"
    )
    english = {
        f"task.{name}.name": f"{MARKER}: {name}'s task, in a few words",
        f"promise.{promise}": promise_english(name),
        f"hint.{promise}.1": f"{MARKER}: the first hint for {name}'s promise.",
        f"hint.{promise}.2": f"{MARKER}: the second hint, closer to the answer.",
    }
    chinese = {
        f"task.{name}.name": f"{MARKER}：用几个字说明 {name} 的任务",  # noqa: RUF001
        f"promise.{promise}": f"{MARKER}：{name} 的第一条约定，与英文逐字对应。",  # noqa: RUF001
        f"hint.{promise}.1": f"{MARKER}：{name} 这条约定的第一条提示。",  # noqa: RUF001
        f"hint.{promise}.2": f"{MARKER}：第二条提示，更接近答案。",  # noqa: RUF001
    }
    en_lines = "".join(f'    "{key}": "{value}",\n' for key, value in english.items())
    zh_lines = "".join(
        f'    "{key}": ("{fingerprint(english[key])}", "{value}"),\n'
        for key, value in chinese.items()
    )
    texts = (
        f'"""Task {number}\'s words: its name, {name}\'s promises, and a hint for each."""\n'
        "# ruff: noqa: RUF001 - the Chinese sentences use Chinese punctuation\n\n"
        "from __future__ import annotations\n\n"
        f"EN = {{\n{en_lines}}}\n\n"
        "#: The Chinese: id -> (fingerprint of the English it translates, translation); see\n"
        "#: :func:`grader.i18n.fingerprint`. One entry a line, in the order of EN.\n"
        "# fmt: off\n"
        f"ZH: dict[str, tuple[str, str]] = {{\n{zh_lines}}}\n"
        "# fmt: on\n"
    )
    return {"__init__.py": init, "properties.py": properties, "texts.py": texts}


def corpus_addition(name: str) -> str:
    return (
        f"\n\ndef {name}(log: object) -> object:\n"
        f'    """{MARKER}: {name} in this file\'s own style."""\n'
        f'    raise NotImplementedError("{MARKER}: {name} in this file\'s style")\n'
    )


def with_package_export(source: str, package: str, name: str) -> str:
    """``package``'s ``__init__`` with ``name`` imported from its module and in ``__all__``,
    both kept in the order ruff keeps them."""
    lines = source.splitlines()
    imports = [i for i, line in enumerate(lines) if line.startswith(f"from {package}.")]
    block = sorted([*(lines[i] for i in imports), f"from {package}.{name} import {name}"])
    lines[imports[0] : imports[-1] + 1] = block
    start = lines.index("__all__ = [")
    end = lines.index("]", start)
    names = [*(line.strip().strip(",").strip('"') for line in lines[start + 1 : end]), name]
    names.sort(key=lambda each: (each[:1].islower(), each))
    lines[start + 1 : end] = [f'    "{each}",' for each in names]
    return "\n".join(lines) + "\n"


def with_function_row(source: str, name: str) -> str:
    start = source.index("FUNCTIONS: tuple[Function, ...] = (")
    end = source.index("\n)  # fmt: skip", start)
    row = (
        f'\n    Function("{name}", "{name}", probe=("$log",),'
        f'\n             promises=("{name}.placeholder",)),'
    )
    return source[:end] + row + source[end:]


def with_exercise_module(source: str, name: str) -> str:
    pattern = re.compile(r"^(EXERCISE_MODULES = \(.*?)\)$", re.MULTILINE)
    if not pattern.search(source):
        raise ValueError(f"{WORKSPACE}: no one-line EXERCISE_MODULES")
    return pattern.sub(lambda found: f'{found[1]}, "{name}.py")', source, count=1)


def with_zh_entries(source: str, entries: dict[str, tuple[str, str]]) -> str:
    end = source.rindex("\n}\n")
    return source[: end + 1] + zh_entries_source(entries) + source[end + 1 :]


def with_functions_in(source: str, name: str) -> str:
    start = source.index("FUNCTIONS_IN = {")
    end = source.index("\n}", start)
    return source[:end] + f'\n    "{name}.py": ("{name}",),' + source[end:]


def next_task_number(root: Path) -> int:
    numbers = [
        int(found[1])
        for path in (root / "grader/tasks").glob("*/__init__.py")
        if (found := re.search(r"number=(\d+)", path.read_text(encoding="utf-8")))
    ]
    return max(numbers, default=0) + 1


def planned_files(name: str, root: Path) -> dict[str, str]:
    """``{path from root: its new text}``: every file the scaffold writes or changes (the
    Chinese stubs aside, which the kit's own builder writes afterwards)."""

    def read(path: str) -> str:
        return (root / path).read_text(encoding="utf-8")

    stub = stub_source(name)
    files = {
        f"exercises/{name}.py": stub,
        "exercises/__init__.py": with_package_export(
            read("exercises/__init__.py"), "exercises", name
        ),
        f"solutions/{name}.py": reference_source(name),
        "solutions/__init__.py": with_package_export(
            read("solutions/__init__.py"), "solutions", name
        ),
        CONTRACT: with_function_row(read(CONTRACT), name),
        WORKSPACE: with_exercise_module(read(WORKSPACE), name),
        EXERCISES_ZH: with_zh_entries(read(EXERCISES_ZH), chinese_translations(name, stub)),
        CHINESE_COPY_TEST: with_functions_in(read(CHINESE_COPY_TEST), name),
        MUTANTS: read(MUTANTS)
        + f"# {MARKER}: mutants of {name}, each with its scenario in scenarios.py\n",
    }
    for task_file, source in task_sources(name, next_task_number(root)).items():
        files[f"grader/tasks/{name}/{task_file}"] = source
    for path in sorted((root / CORRECT).glob("c*.py")):
        relative = path.relative_to(root).as_posix()
        files[relative] = read(relative) + corpus_addition(name)
    return files


def build_chinese_stubs(root: Path) -> None:
    """Run the kit's own builder of the Chinese stubs on ``root`` (in a child interpreter,
    so that it reads the tree just written, its new words included)."""
    environment = {**os.environ, "PYTHONPATH": str(root)}
    subprocess.run(
        [sys.executable, "-m", "maintainer.translations", "build"],
        cwd=root, env=environment, check=True, capture_output=True, text=True,
    )  # fmt: skip


def scaffold(name: str, root: Path = KIT_ROOT) -> list[str]:
    """Write the new function's every piece into ``root``; return the paths written.

    Raises:
        BadName: the name cannot be a new function (then nothing is written).
        NothingWritten: a file the scaffold edits no longer has the place it edits.
        StubsNotBuilt: the Chinese stubs' builder failed, after the other files were written.
    """
    refuse_bad_name(name, root)
    try:
        files = planned_files(name, root)
    except ValueError as error:
        raise NothingWritten(
            f"a file it edits has changed shape ({error}); teach maintainer/new_function.py "
            "where the piece goes now"
        ) from error
    for relative, source in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    try:
        build_chinese_stubs(root)
    except subprocess.CalledProcessError as error:
        raise StubsNotBuilt(error.stderr[-2000:]) from error
    return [*files, f"{ZH_STUBS}/{name}.py"]


# --- what is left -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Piece:
    """One piece of a function: what it is, where, and how to fill it in."""

    what: str
    where: str
    how: str
    done: Callable[[], bool]


@dataclass(frozen=True)
class Wiring:
    """Where a function lives: its module's stem, its task, its promises."""

    name: str
    stem: str
    task: str
    promises: tuple[str, ...]


def wiring(name: str, root: Path) -> Wiring | None:
    """How ``name`` is wired in the kit at ``root``, or None when the contract has no row."""
    tree = ast.parse((root / CONTRACT).read_text(encoding="utf-8"))
    tuples = {
        node.targets[0].id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    }
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "Function"):
            continue
        values = [ast.literal_eval(arg) for arg in call.args[:2]]
        if values[0] != name:
            continue
        promises: tuple[str, ...] = ()
        for word in call.keywords:
            if word.arg == "promises":
                value = word.value
                if isinstance(value, ast.Name):
                    value = tuples[value.id]
                promises = tuple(ast.literal_eval(value))
        stems = [path.stem for path in sorted((root / "exercises").glob("*.py"))
                 if name in _functions_of(path)]  # fmt: skip
        return Wiring(name, stems[0] if stems else name, values[1], promises)
    return None


def cases(root: Path) -> dict[str, str]:
    """The contract's promises made of cases: ``{"accept": "append.accepts_valid", ...}``."""
    tree = ast.parse((root / CONTRACT).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "CASES":
            found: dict[str, str] = ast.literal_eval(node.value)
            return found
    return {}


def _functions_of(path: Path) -> set[str]:
    if not path.is_file():
        return set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def _function_node(path: Path, name: str) -> ast.FunctionDef | None:
    if not path.is_file():
        return None
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return next((node for node in tree.body
                 if isinstance(node, ast.FunctionDef) and node.name == name), None)  # fmt: skip


def _free_of_marker(path: Path) -> bool:
    return path.is_file() and MARKER not in path.read_text(encoding="utf-8")


def pieces(found: Wiring, root: Path) -> list[Piece]:
    """Every piece of the function, each knowing whether it is filled in."""
    name, stem, task = found.name, found.stem, found.task
    reference, stub = root / f"solutions/{stem}.py", root / f"exercises/{stem}.py"
    task_dir = root / "grader/tasks" / task

    def reference_written() -> bool:
        node = _function_node(reference, name)
        return node is not None and MARKER not in ast.unparse(node)

    def chinese_written() -> bool:
        zh = runpy.run_path(str(root / EXERCISES_ZH))["ZH"]
        mine = [zh.get(stem), zh.get(f"{stem}.{name}")]
        return all(entry is not None and MARKER not in entry[1] for entry in mine)

    def plan_calls() -> bool:
        return any(f'"{name}"' in path.read_text(encoding="utf-8")
                   for path in (root / "grader/engine").glob("*.py")
                   if path.name != "contract.py")  # fmt: skip

    def corpus_written() -> bool:
        files = sorted((root / CORRECT).glob("c*.py"))
        nodes = [_function_node(path, name) for path in files]
        return all(node is not None and MARKER not in ast.unparse(node) for node in nodes)

    def mutants_written() -> bool:
        source = (root / MUTANTS).read_text(encoding="utf-8")
        return f"{MARKER}: mutants of {name}," not in source and f'"{task}"' in source

    def killers_written() -> bool:
        tree = ast.parse((root / CLAUSES).read_text(encoding="utf-8"))
        killers = next((node.value for node in tree.body if isinstance(node, ast.AnnAssign)
                        and getattr(node.target, "id", None) == "KILLERS"), None)  # fmt: skip
        keys = set(ast.literal_eval(killers)) if killers is not None else set()
        # A promise made of cases (append.accepts_valid) is killed case by case (accept.*).
        keys |= {promise for case, promise in cases(root).items()
                 if any(key.startswith(f"{case}.") for key in keys)}  # fmt: skip
        return all(not promise.endswith(".placeholder") and promise in keys
                   for promise in found.promises)  # fmt: skip

    def learner_told() -> bool:
        docstring = ast.get_docstring(ast.parse((root / "exercises/__init__.py").read_text()))
        return f"``{name}``" in (docstring or "")

    def no_placeholder_promise() -> bool:
        return not any(promise.endswith(".placeholder") for promise in found.promises)

    return [
        Piece("the reference's body", f"solutions/{stem}.py",
              "write it: the grader's bank and the clause checks take it as the answer",
              reference_written),
        Piece("the stub's docstrings, in English", f"exercises/{stem}.py",
              "what it returns, why, an example; its signature; each promise a bullet under "
              "Promises:, word for word its words in the task's texts.py",
              lambda: _free_of_marker(stub)),
        Piece("the stub's docstrings, in Chinese", EXERCISES_ZH,
              "translate them, then python -m maintainer.translations build and status",
              chinese_written),
        Piece("the Chinese stub", f"{ZH_STUBS}/{stem}.py",
              "python -m maintainer.translations build writes it from the two above",
              lambda: _free_of_marker(root / ZH_STUBS / f"{stem}.py")),
        Piece("the promises, their ids and the row's probe",
              f"{CONTRACT} and grader/tasks/{task}/__init__.py",
              "name each promise (ids in bullet order) in the row and the task; check probe= "
              "(its simplest call) and view=",
              no_placeholder_promise),
        Piece("the words: task name, promises, hints", f"grader/tasks/{task}/texts.py",
              "English and Chinese, each Chinese with the fingerprint of its English",
              lambda: _free_of_marker(task_dir / "texts.py")),
        Piece("the properties", f"grader/tasks/{task}/properties.py",
              "replace the placeholder, which fails every grade, with properties over a Plan",
              lambda: _free_of_marker(task_dir / "properties.py")),
        Piece("the plan's call of the function", "grader/engine/plan.py (and the oracle)",
              "a Plan method that reads the function and what it must answer",
              plan_calls),
        Piece("the corpus's correct files", f"{CORRECT}/c*.py",
              "the function in each file's own style (the clause checks in "
              "tests/implementations/clause_checks.py hold them to the reference)",
              corpus_written),
        Piece("the mutants", MUTANTS,
              "bugs only this task catches, each with its scenario in scenarios.py",
              mutants_written),
        Piece("the promise table's rows", f"{CLAUSES} (KILLERS)",
              "each promise id beside the mutant that breaks it alone", killers_written),
        Piece("the learner's order of work", "exercises/__init__.py",
              "name the function in the module docstring's list (and translate it again)",
              learner_told),
        Piece("the task's bank", f"grader/tasks/{task}/bank.z",
              "python -m maintainer.bank (once the properties and the reference are written)",
              lambda: (task_dir / "bank.z").is_file()),
    ]  # fmt: skip


#: Steps no file can show as done: said after the pieces when a function is scaffolded.
LAST_STEPS = (
    "the kit's prose that counts the functions (README, docs/learner.md, the notebooks: 'five')",
    "python -m maintainer.translations status: every Chinese text in step",
    "ruff check . && ruff format --check . && mypy, then the tests of tests/grader, "
    "tests/implementations and tests/translations",
)


def report(name: str, root: Path, out: Callable[[str], None] = print) -> int:
    """Print each piece of ``name`` as done or to do; 1 while any is to do, 2 for no function."""
    found = wiring(name, root)
    if found is None:
        out(f"{name}: no such function in {CONTRACT} (python -m maintainer new-function {name})")
        return 2
    every = pieces(found, root)
    left = [piece for piece in every if not piece.done()]
    for piece in every:
        out(f"  [{'todo' if piece in left else 'done'}] {piece.what}: {piece.where}")
        if piece in left:
            out(f"         {piece.how}")
    if left:
        out(f"{name}: {len(left)} of {len(every)} pieces still to fill in")
        return 1
    out(f"{name}: every piece is filled in")
    return 0


def main(argv: list[str] | None = None, command: str = "new-function") -> int:
    parser = argparse.ArgumentParser(
        prog=f"python -m maintainer {command}",
        description="Scaffold a new exercise function, or (--check, check-function) list which "
        "of its pieces are still placeholders.",
    )
    parser.add_argument("name", help="the function's name, lower-case snake case")
    parser.add_argument(
        "--check",
        action="store_true",
        default=command == "check-function",
        help="write nothing; list what is still a placeholder (exit 1 if any)",
    )
    parser.add_argument("--root", type=Path, default=KIT_ROOT, help="the kit's folder")
    arguments = parser.parse_args(argv)
    root: Path = arguments.root.resolve()
    if arguments.check:
        return report(arguments.name, root)
    try:
        written = scaffold(arguments.name, root)
    except NothingWritten as error:
        print(f"new-function: {error}; nothing written", file=sys.stderr)
        return 2
    except StubsNotBuilt as error:
        said = "every file is written, but the Chinese stubs' builder failed"
        then = "fix it, then run python -m maintainer.translations build"
        print(f"new-function: {said}:\n{error}\n{then}", file=sys.stderr)
        return 1
    print(f"{arguments.name}: wrote {len(written)} files")
    for path in written:
        print(f"  {path}")
    print("\nWhat is left to fill in:")
    report(arguments.name, root)
    print("\nThen:")
    for step in LAST_STEPS:
        print(f"  - {step}")
    print(f"\npython -m maintainer check-function {arguments.name} says what is still left.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
