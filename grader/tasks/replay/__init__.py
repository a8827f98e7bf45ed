"""Task 4, replay: events become chat messages, tool-call runs merge, replays are fresh."""

from __future__ import annotations

from grader.engine.contract import Task

TASK = Task(
    id="replay",
    number=4,
    points=20,
    functions=("create_event_log", "append_event", "replay_session"),
    properties_module=f"{__name__}.properties",
    promises=(
        "replay.mapping",
        "replay.merge",
        "replay.isolated",
        "append.old_log_unchanged",
        "append.branches",
        "replay.fresh",
        "append.refusal_leaves_no_trace",
    ),
)
