"""Task 5, reject_bad_input: bad appends raise ValueError and leave no trace; odd valid ones
are accepted.

It reads logs with ``get_events_for_session`` to see that a refused append left nothing
behind, and judges every append (valid or not) against the contract.
"""

from __future__ import annotations

from grader.engine.contract import Task

TASK = Task(
    id="reject_bad_input",
    number=5,
    points=20,
    functions=("create_event_log", "append_event", "get_events_for_session"),
    properties_module=f"{__name__}.properties",
    promises=(
        "append.accepts_valid",
        "append.refuses_bad_input",
        "append.refusal_leaves_no_trace",
    ),
    strict=True,
)
