"""Task 1, append_and_ids: the pair append_event returns, ids, copies, old logs and branches.

It declares only ``create_event_log`` and ``append_event``, so it looks at logs only through
what appending to them answers: a log that never changes gives the same next event every
time, and its open calls can still be answered (see :func:`grader.engine.checks.probes`).
"""

from __future__ import annotations

from grader.engine.contract import Task

TASK = Task(
    id="append_and_ids",
    number=1,
    points=20,
    functions=("create_event_log", "append_event"),
    properties_module=f"{__name__}.properties",
    promises=(
        "append.returns_pair",
        "append.event_attributes",
        "append.event_ids",
        "append.event_fields",
        "append.old_log_unchanged",
        "append.branches",
        "append.caller_payload_copied",
        "append.payload_read_only",
        "append.events_are_facts",
        "append.accepts_valid",
    ),
    strict=True,
)
