"""The graded tasks, one folder each: its task, its properties and strategies, its texts.

A task is found by its folder: every package here whose ``__init__`` defines ``TASK`` is a
task, in the order of ``TASK.number``. Adding a task is adding a folder (and, for a new
function, a row in :data:`grader.engine.contract.FUNCTIONS`).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence

from grader.engine.contract import Task


def _discover() -> tuple[Task, ...]:
    tasks = []
    for unit in pkgutil.iter_modules(__path__):
        if unit.ispkg:
            module = importlib.import_module(f"{__name__}.{unit.name}")
            task = getattr(module, "TASK", None)
            if isinstance(task, Task):
                tasks.append(task)
    return tuple(sorted(tasks, key=lambda task: task.number))


TASKS: tuple[Task, ...] = _discover()
TASKS_BY_ID = {task.id: task for task in TASKS}
TASK_IDS = tuple(task.id for task in TASKS)
MAX_SCORE = sum(task.points for task in TASKS)


def select(names: Sequence[str] | None) -> tuple[Task, ...]:
    """The tasks named by id or number (in table order), or all of them.

    Raises:
        KeyError: a name that is no task.
    """
    if not names:
        return TASKS
    by_name = {**TASKS_BY_ID, **{str(task.number): task for task in TASKS}}
    unknown = [name for name in names if name not in by_name]
    if unknown:
        raise KeyError(", ".join(unknown))
    wanted = {by_name[name].id for name in names}
    return tuple(task for task in TASKS if task.id in wanted)
