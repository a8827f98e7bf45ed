"""The Chinese learner's copy says in Chinese what the English one says, and nothing else.

Its stubs and notebooks are what the builders write now from the English sources, with the
English code exactly (so the same cells give the same outputs); its docstrings' promises are
the grader's own Chinese promises, one for one and in the contract's order; and no English
prose is left in its READMEs, docstrings or notebook text, outside code and identifiers.
"""

# ruff: noqa: RUF001 - Chinese marks are what some of these tests look at

from __future__ import annotations

import ast
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from grader.engine.contract import FUNCTIONS
from grader.i18n import text
from maintainer.release.manifest import learner_files
from maintainer.translations.docstrings import (
    EXERCISE_FILES,
    KIT_ROOT,
    ZH_HEADING,
    english_stub,
    not_implemented_messages,
)
from maintainer.translations.notebooks import notebook_tool
from maintainer.translations.prose import code_prose, code_shape, english_prose
from maintainer.translations.stubs import STUBS_DIR, chinese_stubs
from tests.grader.promises import bullets, docstrings
from tests.learner_tools.test_release_copy import ABSENT, PATH_IN_BACKTICKS

ZH_NOTEBOOKS = KIT_ROOT / "notebooks" / "zh"
#: The functions each exercise file holds.
FUNCTIONS_IN = {
    "event_log.py": ("create_event_log", "append_event"),
    "sessions.py": ("get_events_for_session", "list_sessions"),
    "replay.py": ("replay_session",),
}
EN_NOTEBOOKS = KIT_ROOT / "notebooks"


def learners_texts(copy: Path) -> dict[str, str]:
    """Every text a learner reads in ``copy``: the READMEs, each docstring of the exercises,
    and each markdown cell of the notebooks, by where it is."""
    texts = {name: (copy / name).read_text(encoding="utf-8")
             for name in ("README.md", "notebooks/README.md")}  # fmt: skip
    for path in sorted((copy / "exercises").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in [tree, *(node for node in tree.body if isinstance(node, ast.FunctionDef))]:
            docstring = ast.get_docstring(node)
            if docstring:
                texts[f"exercises/{path.name} {getattr(node, 'name', '(module)')}"] = docstring
    for path in sorted((copy / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for number, cell in enumerate(cells, start=1):
            if cell["cell_type"] == "markdown":
                texts[f"notebooks/{path.name} cell {number}"] = "".join(cell["source"])
    return texts


def copy_of_the_working_tree(out: Path, language: str) -> Path:
    """The learner's copy in ``language`` of the files git tracks or would track."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=KIT_ROOT, capture_output=True, check=True,
    ).stdout.decode()  # fmt: skip
    existing = [path for path in listed.split("\0") if path and (KIT_ROOT / path).is_file()]
    for copy_path, source in learner_files(existing, language).items():
        (out / copy_path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(KIT_ROOT / source, out / copy_path)
    if language != "en":  # a release writes its translated documents without their markers
        from maintainer.translations.markdown import rendered

        for name in ("README.md", "notebooks/README.md"):
            (out / name).write_text(rendered((out / name).read_text(encoding="utf-8")))
    return out


@pytest.fixture(scope="module")
def chinese_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_of_the_working_tree(tmp_path_factory.mktemp("zh") / "learner", "zh")


def test_no_english_prose_is_left_in_the_chinese_copy(chinese_copy: Path) -> None:
    texts = learners_texts(chinese_copy)
    assert len(texts) > 60  # two READMEs, the docstrings, every markdown cell
    left = {where: runs for where, document in texts.items() if (runs := english_prose(document))}
    assert left == {}


def test_the_english_check_finds_english_prose_and_leaves_code_and_names_alone(
    tmp_path: Path,
) -> None:
    english = learners_texts(copy_of_the_working_tree(tmp_path, "en"))
    assert len([where for where, document in english.items() if english_prose(document)]) > 60
    sentence = "日志只追加。The log is append-only. 回放就是折叠。"
    assert english_prose(sentence) == ["The log is append-only"]
    assert english_prose("日志只追加，而不是 overwritten in place。") == ["overwritten in place"]
    names = (
        '用 `get_events_for_session(log, "a")` 读取 SQLite 里的 payload；会话 "a" 不等于 '
        "\"A\"。\n\n```python\nprint(the log is here)\n```\n\n>>> replay_session(log, 'a')\n"
        "[{'role': 'user'}]\n[文档](https://example.com/the/docs) 和 OpenAI Chat Completions API"
    )
    assert english_prose(names) == []


def test_the_chinese_stubs_are_what_the_builder_writes_now() -> None:
    stored = {name: (STUBS_DIR / name).read_text(encoding="utf-8") for name in EXERCISE_FILES}
    assert stored == chinese_stubs(), "run `python -m maintainer.translations build` and commit"


@pytest.mark.parametrize("name", EXERCISE_FILES)
def test_a_chinese_stub_is_its_english_stub_with_other_words(name: str) -> None:
    # Other docstrings, and each NotImplementedError saying so in Chinese: the same code.
    def code_of(source: str) -> str:
        tree = ast.parse(source)
        for node in [tree, *(node for node in tree.body if isinstance(node, ast.FunctionDef))]:
            if ast.get_docstring(node) is not None:
                node.body = node.body[1:]
        for constant, _ in not_implemented_messages(tree):
            constant.value = "..."
        return ast.dump(tree)

    chinese = (STUBS_DIR / name).read_text(encoding="utf-8")
    assert code_of(chinese) == code_of(english_stub(name))
    said = [(constant.value, text("stub.not_implemented", "zh", function=function))
            for constant, function in not_implemented_messages(ast.parse(chinese))]  # fmt: skip
    assert all(message == worded for message, worded in said)
    assert len(said) == (0 if name == "__init__.py" else len(FUNCTIONS_IN[name]))


@pytest.mark.parametrize("function", [f for f in FUNCTIONS if f.promises], ids=lambda f: f.name)
def test_the_chinese_promises_are_the_graders_one_for_one_in_the_contracts_order(
    function,  # type: ignore[no-untyped-def]
    committed_stubs: Path,
) -> None:
    stated = bullets(docstrings(STUBS_DIR)[function.name], ZH_HEADING)
    english = bullets(docstrings(committed_stubs)[function.name])
    worded = [text(f"promise.{promise}", "zh") for promise in function.promises]
    # A Chinese line is wrapped between characters, so compare without the wrapping.
    assert ["".join(bullet.split()) for bullet in stated] == ["".join(w.split()) for w in worded]
    assert len(stated) == len(english) == len(function.promises)


def test_the_chinese_notebooks_are_what_the_builder_writes_now(tmp_path: Path) -> None:
    written = notebook_tool("build").build_all(tmp_path, "zh")
    stored = sorted(path.name for path in ZH_NOTEBOOKS.glob("*.ipynb"))
    assert sorted(path.name for path in written) == stored
    stale = [path.name for path in written
             if path.read_text(encoding="utf-8") != (ZH_NOTEBOOKS / path.name).read_text(
                 encoding="utf-8")]  # fmt: skip
    assert stale == [], "run `python notebooks/build.py` and commit the result"


@pytest.mark.parametrize("path", sorted(EN_NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_a_chinese_notebook_runs_its_english_code_with_chinese_words(path: Path) -> None:
    # The same code, token for token; only comments and strings (printed words, labels,
    # the conversation's messages) may differ.
    def cells(notebook: Path) -> list[tuple[str, list[tuple[int, str]]]]:
        found = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        return [(cell["cell_type"], code_shape("".join(cell["source"]))
                 if cell["cell_type"] == "code" else []) for cell in found]  # fmt: skip

    assert cells(ZH_NOTEBOOKS / path.name) == cells(path)


def test_no_english_prose_is_left_in_the_chinese_notebooks_code() -> None:
    left = {}
    for path in sorted(ZH_NOTEBOOKS.glob("*.ipynb")):
        found = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for number, cell in enumerate(found, start=1):
            if cell["cell_type"] == "code" and (prose := code_prose("".join(cell["source"]))):
                left[f"{path.name} cell {number}"] = prose
    assert left == {}


@pytest.mark.parametrize("document", ["README.md", "notebooks/README.md"])
def test_the_chinese_readmes_name_only_what_the_copy_holds(
    chinese_copy: Path, document: str
) -> None:
    shown = (chinese_copy / document).read_text(encoding="utf-8")
    assert [match[0] for match in ABSENT.finditer(shown)] == []
    folders = (chinese_copy, (chinese_copy / document).parent)
    named = {match[1] for match in PATH_IN_BACKTICKS.finditer(shown)}
    assert named
    assert sorted(path for path in named if not any((f / path).exists() for f in folders)) == []
