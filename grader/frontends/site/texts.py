"""The page's words, taken from the grader's catalogs at build time (English and Chinese).

The page is plain JavaScript and does not run the catalogs: the build writes, for each
language, every ``site.*`` sentence, each task's name and each function's docstring (read
into blocks: :mod:`grader.frontends.site.docstrings`), and the page picks the ones it shows.
The report itself is rendered by the engine worker, in Python, as the command line renders it.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from grader.engine.contract import FUNCTIONS_BY_NAME
from grader.frontends.site.docstrings import blocks_of
from grader.i18n import LANGUAGES, catalog
from grader.tasks import TASKS
from grader.transport.workspace import EXERCISE_MODULES

PREFIX = "site."
#: Every sentence the page's JavaScript shows (``words("title")`` or ``data-text="title"``
#: there; a test holds the page's files to this list).
PAGE_WORDS = (
    "site.title", "site.language", "site.self_check", "site.exercise", "site.report",
    "site.no_report", "site.check_all", "site.check_task", "site.hint", "site.download",
    "site.upload", "site.reset", "site.reset_confirm", "site.saved", "site.uploaded",
    "site.upload_refused", "site.loading_python", "site.loading_grader", "site.ready",
    "site.grading", "site.graded", "site.error", "site.failed", "site.unsupported",
)  # fmt: skip


def page_texts(stubs: Mapping[str, Mapping[str, str]]) -> dict[str, object]:
    """``{"languages", "texts": {language: {id: sentence}}, "tasks", "docs": {language:
    ...}}``, the ids without their ``site.`` prefix; ``stubs`` are each language's
    ``{file name: source}``."""
    texts = {
        language: {key[len(PREFIX) :]: catalog(language)[key] for key in PAGE_WORDS}
        for language in LANGUAGES
    }
    tasks = [
        {
            "id": task.id,
            "number": task.number,
            "functions": list(task.own),
            "names": {
                language: catalog(language)[f"task.{task.id}.name"] for language in LANGUAGES
            },
        }
        for task in TASKS
    ]
    docs = {language: docstrings(files) for language, files in stubs.items()}
    return {"languages": list(LANGUAGES), "texts": texts, "tasks": tasks, "docs": docs}


def docstrings(stubs: Mapping[str, str]) -> dict[str, dict[str, object]]:
    """Each exercise function's file and docstring (what, why, example, promises), as
    blocks."""
    found: dict[str, dict[str, object]] = {}
    for name in EXERCISE_MODULES:
        for node in ast.parse(stubs[name]).body:
            if isinstance(node, ast.FunctionDef) and node.name in FUNCTIONS_BY_NAME:
                blocks = blocks_of(ast.get_docstring(node) or "")
                found[node.name] = {"file": name, "blocks": blocks}
    return found
