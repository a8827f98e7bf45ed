"""``python -m grader --watch``: grade again every time an exercise file is saved.

After each grading the learner sees how far they are (tasks done out of all), the next task
that is not passing yet, and a hint: the broken property's own, else the task's first;
``--hint`` reveals the task's stronger ones. The file watching is watchfiles' job: it groups
the bursts of events an editor makes on one save (write, rename, chmod) into a single batch,
so one save means one grading.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

from grader.i18n import text

# Editors touch a file several times per save; changes this close together are one save.
DEBOUNCE_MS = 400


class TaskOutcome(Protocol):
    """What the learner loop reads from a task's result (a :class:`grader.grading.TaskResult`)."""

    @property
    def task_id(self) -> str: ...

    @property
    def number(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def status(self) -> str: ...

    @property
    def hints(self) -> tuple[str, ...]: ...

    @property
    def hint(self) -> str | None: ...


Outcome = TypeVar("Outcome", bound=TaskOutcome)


def first_unfinished(results: Sequence[Outcome], passed: str) -> Outcome | None:
    """Return the first task, in task order, whose status is not ``passed``; None if all pass."""
    return next((result for result in results if result.status != passed), None)


def render_progress(results: Sequence[TaskOutcome], passed: str) -> str:
    """Return the learner loop's summary: tasks done, then the next task and its hint (the
    broken property's own, else the task's first)."""
    done = sum(result.status == passed for result in results)
    lines = [text("watch.progress", done=done, total=len(results))]
    unfinished = first_unfinished(results, passed)
    if unfinished is None:
        lines.append(text("watch.all_done"))
        return "\n".join(lines)
    lines.append(text("watch.next_task", number=unfinished.number, name=unfinished.name))
    if unfinished.hint:
        lines.append(text("watch.first_hint", hint=unfinished.hint))
    return "\n".join(lines)


def watched_paths(target: str) -> list[Path]:
    """Return the folder holding the target's code: a package's folder, a file's folder.

    Only the top-level name of a dotted target is looked up, which finds its folder without
    importing anything: this process starts the grader's workers, and a module imported
    here would be what they see after the next save.
    """
    if target.endswith(".py") or "/" in target or "\\" in target:
        path = Path(target).resolve()
        return [path if path.is_dir() else path.parent]
    spec = importlib.util.find_spec(target.split(".")[0])
    if spec is None:
        return [Path.cwd()]
    if spec.submodule_search_locations:
        return [Path(location) for location in spec.submodule_search_locations]
    return [Path(spec.origin).parent] if spec.origin else [Path.cwd()]


def save_events(paths: Sequence[Path]) -> Iterable[object]:
    """Yield once per save of a ``.py`` file under ``paths``, until Ctrl+C."""
    from watchfiles import PythonFilter, watch

    return watch(*paths, watch_filter=PythonFilter(), debounce=DEBOUNCE_MS, raise_interrupt=False)


def watch_and_grade(
    paths: Sequence[Path],
    grade_and_show: Callable[[], None],
    saves: Iterable[object] | None = None,
) -> None:
    """Grade once, then again after every save, until Ctrl+C (or ``saves`` runs out).

    Args:
        paths: the folders or files to watch.
        grade_and_show: grades the learner's code and prints the report and progress.
        saves: the save events; watchfiles' when None (tests pass a finite list).
    """
    grade_and_show()
    listed = ", ".join(str(path) for path in paths)
    print(text("watch.waiting", paths=listed))
    for _ in save_events(paths) if saves is None else saves:
        print(text("watch.regrading"))
        grade_and_show()
        print(text("watch.waiting", paths=listed))
