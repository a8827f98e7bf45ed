"""Task 2, read_and_resume: one session's events, oldest first, after any id.

It reads logs with ``get_events_for_session`` and judges each read against the events the
learner's own ``append_event`` returned (their ids, when those are distinct ints), so a bug
in appending costs this task only where reads cannot be right without it: a log changed in
place, a payload shared with its caller.
"""

from __future__ import annotations

from grader.engine.contract import Task

TASK = Task(
    id="read_and_resume",
    number=2,
    points=20,
    functions=("create_event_log", "append_event", "get_events_for_session"),
    properties_module=f"{__name__}.properties",
    promises=(
        "read.session_only",
        "read.after",
        "append.old_log_unchanged",
        "append.branches",
        "read.result_is_a_copy",
        "append.caller_payload_copied",
        "append.payload_read_only",
        "append.events_are_facts",
    ),
)
