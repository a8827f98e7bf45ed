"""The task table: ids, names, points, hints, the functions each task needs, its properties.

Task ids are fixed: notebooks, the hint command and the JSON reports refer to them. Each task
needs only its own function(s) and the two that build a log (task 1's): a learner who writes
the functions in the exercises' order can pass each task as soon as its function is written.
"""

from __future__ import annotations

from dataclasses import dataclass

from grader import messages
from grader.contract import FUNCTION_NAMES, READERS, TASK_IDS
from grader.properties import Property, appending, listing, reading, rejecting, replaying

__all__ = ["FUNCTION_NAMES", "MAX_SCORE", "READERS", "TASKS", "TASK_IDS", "Task", "select"]


@dataclass(frozen=True)
class Task:
    """One graded task.

    Attributes:
        number: 1-based position, also the exercism ``task_id``.
        task_id: the fixed identifier (``append_and_ids``, ...).
        points: what passing it is worth.
        needs: the functions it calls; if one is not implemented the task is "not implemented
            yet" rather than failed.
        properties: checked in order; the first that breaks decides the report.
        observes: read functions it also uses to look at logs, once they are written.
    """

    number: int
    task_id: str
    points: int
    needs: tuple[str, ...]
    properties: tuple[Property, ...]
    observes: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return messages.TASK_NAMES[self.task_id]

    @property
    def hints(self) -> tuple[str, ...]:
        """Hints from gentle to strong; ``--hint`` reveals them one at a time."""
        return messages.HINTS[self.task_id]


_BUILD = ("create_event_log", "append_event")

TASKS: tuple[Task, ...] = (
    Task(1, TASK_IDS[0], 20, _BUILD, appending.PROPERTIES, ("get_events_for_session",)),
    Task(2, TASK_IDS[1], 20, (*_BUILD, "get_events_for_session"), reading.PROPERTIES),
    Task(3, TASK_IDS[2], 20, (*_BUILD, "list_sessions"), listing.PROPERTIES),
    Task(4, TASK_IDS[3], 20, (*_BUILD, "replay_session"), replaying.PROPERTIES),
    Task(5, TASK_IDS[4], 20, (*_BUILD, "get_events_for_session"), rejecting.PROPERTIES),
)
TASKS_BY_ID = {task.task_id: task for task in TASKS}
MAX_SCORE = sum(task.points for task in TASKS)
#: Which task introduces each function: its own task, or task 1 for the two that build logs.
OWNER = {
    "create_event_log": TASKS[0],
    "append_event": TASKS[0],
    "get_events_for_session": TASKS[1],
    "list_sessions": TASKS[2],
    "replay_session": TASKS[3],
}


def select(tasks: list[str] | None) -> tuple[Task, ...]:
    """The tasks named by id or number (in table order), or all of them.

    Raises:
        KeyError: an id or number that names no task.
    """
    if not tasks:
        return TASKS
    by_name = {**TASKS_BY_ID, **{str(task.number): task for task in TASKS}}
    unknown = [name for name in tasks if name not in by_name]
    if unknown:
        raise KeyError(", ".join(unknown))
    wanted = {by_name[name].task_id for name in tasks}
    return tuple(task for task in TASKS if task.task_id in wanted)
