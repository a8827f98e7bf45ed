"""Submissions as the page takes them (the three exercise files), and the command line's
grade of the very same files, to compare with the browser's.

A corpus file defines the five functions in one module; as three files it lives whole in
``event_log.py``, and ``sessions.py`` and ``replay.py`` import from it, so the page and the
command line (which grades the folder as the ``exercises`` package) run the same code.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from benchmarks.browser import reference_files
from grader.engine.outcomes import Report
from grader.run import grade
from grader.settings import Settings
from grader.tasks import select
from grader.transport.workspace import EXERCISE_MODULES
from tests.implementations.corpus import CORRECT_DIR, Mutant, correct_files, mutant_source
from tests.implementations.mutants import MUTANTS

Files = dict[str, str]


def stubs() -> Files:
    """The stubs as the last commit holds them, whatever is in ``exercises/`` now."""
    from maintainer.translations.docstrings import english_stub

    return {name: english_stub(name) for name in EXERCISE_MODULES}


def solution() -> Files:
    """The kit's solutions, importing each other as the ``exercises`` package does."""
    return reference_files()


def single_module(source: str) -> Files:
    """One module defining the five functions, as the three files."""
    return {
        "event_log.py": source,
        "sessions.py": "from exercises.event_log import get_events_for_session, list_sessions\n",
        "replay.py": "from exercises.event_log import replay_session\n",
    }


def correct(stem: str) -> Files:
    return single_module((CORRECT_DIR / f"{stem}.py").read_text("utf-8"))


def mutant(found: Mutant) -> Files:
    return single_module(mutant_source(found))


def sample() -> list[tuple[str, str, Files]]:
    """CI's fixed sample: ``(name, task, files)``, the first mutant of every task (graded on
    its task) and two correct files (on the task their style makes hardest)."""
    chosen: dict[str, Mutant] = {}
    for each in MUTANTS:
        chosen.setdefault(each.task, each)
    found = [(each.name, each.task, mutant(each)) for each in chosen.values()]
    found += [("c09_cons_list", "read_and_resume", correct("c09_cons_list")),
              ("c04_mappingproxy", "append_and_ids", correct("c04_mappingproxy"))]  # fmt: skip
    return found


def whole_corpus() -> list[tuple[str, str | None, Files]]:
    """Every correct file (all tasks) and every mutant (its task): the benchmark's set."""
    found: list[tuple[str, str | None, Files]] = [
        (path.stem, None, correct(path.stem)) for path in correct_files()
    ]
    found += [(each.name, each.task, mutant(each)) for each in MUTANTS]
    return found


def cli_grade(files: Files, task: str | None) -> Report:
    """``python -m grader --target FOLDER [--task TASK]`` on the files, as a report (graded
    without a sandbox: the verdicts are the same, and the sandbox has its own tier)."""
    with tempfile.TemporaryDirectory() as folder:
        for name, source in files.items():
            (Path(folder) / name).write_text(source, encoding="utf-8")
        return grade(folder, select([task] if task else None), Settings(isolation="none"))


def per_task(results: dict[str, Any]) -> dict[str, tuple[int, str | None]]:
    """A Gradescope results object as ``{task: (points, broken promise)}``."""
    return {
        test["extra_data"]["task"]: (test["score"], test["extra_data"]["broken_promise"])
        for test in results["tests"]
    }


def report_per_task(report: Report) -> dict[str, tuple[int, str | None]]:
    return {
        result.task_id: (result.earned, None if result.failure is None else result.failure.promise)
        for result in report.results
    }
