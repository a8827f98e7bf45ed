"""The names the whole grader agrees on: the five functions, the readers and the task ids."""

from __future__ import annotations

from typing import Final

#: The five functions a submission defines, in the order the exercises introduce them.
FUNCTION_NAMES: Final = (
    "create_event_log",
    "append_event",
    "get_events_for_session",
    "list_sessions",
    "replay_session",
)
#: The functions that read a log without changing it.
READERS: Final = frozenset(FUNCTION_NAMES[2:])
#: The graded tasks, in order; notebooks, hints and results files refer to these ids.
TASK_IDS: Final = (
    "append_and_ids",
    "read_and_resume",
    "list_sessions",
    "replay",
    "reject_bad_input",
)
