"""The task table: ids, names, points, hints, the functions each task needs, its properties.

Task ids are fixed: notebooks, the hint command and the JSON reports refer to them.
"""

from __future__ import annotations

from dataclasses import dataclass

from grader import messages
from grader.properties import Property, appending, listing, reading, rejecting, replaying


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
    """

    number: int
    task_id: str
    points: int
    needs: tuple[str, ...]
    properties: tuple[Property, ...]

    @property
    def name(self) -> str:
        return messages.TASK_NAMES[self.task_id]

    @property
    def hints(self) -> tuple[str, ...]:
        """Hints from gentle to strong; the report shows the first."""
        return messages.HINTS[self.task_id]


_BUILD = ("create_event_log", "append_event")

TASKS: tuple[Task, ...] = (
    Task(1, "append_and_ids", 20, (*_BUILD, "get_events_for_session"), appending.PROPERTIES),
    Task(2, "read_and_resume", 20, (*_BUILD, "get_events_for_session"), reading.PROPERTIES),
    Task(3, "list_sessions", 20, (*_BUILD, "list_sessions"), listing.PROPERTIES),
    Task(4, "replay", 20, (*_BUILD, "replay_session"), replaying.PROPERTIES),
    Task(5, "reject_bad_input", 20, (*_BUILD, "get_events_for_session"), rejecting.PROPERTIES),
)
TASKS_BY_ID = {task.task_id: task for task in TASKS}
MAX_SCORE = sum(task.points for task in TASKS)


def select(task_ids: list[str] | None) -> tuple[Task, ...]:
    """The tasks named (in table order), or all of them; unknown ids raise KeyError."""
    if not task_ids:
        return TASKS
    unknown = [task_id for task_id in task_ids if task_id not in TASKS_BY_ID]
    if unknown:
        raise KeyError(", ".join(unknown))
    return tuple(task for task in TASKS if task.task_id in task_ids)
