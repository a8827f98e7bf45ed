"""Task 3, list_sessions: each session once, in the order of its first event."""

from __future__ import annotations

from grader.engine.contract import Task

TASK = Task(
    id="list_sessions",
    number=3,
    points=20,
    functions=("create_event_log", "append_event", "list_sessions"),
    properties_module=f"{__name__}.properties",
    promises=(
        "list.sessions",
        "append.old_log_unchanged",
        "append.branches",
        "list.result_is_a_copy",
    ),
)
