"""Task 4's words: its name, replay_session's promises, and a hint for each."""

from __future__ import annotations

EN = {
    "task.replay.name": "Replaying a session into chat messages",
    "promise.replay.mapping": (
        "Each event becomes exactly the message shown above, oldest first: those keys and no "
        "others (extra payload keys stay out), every string as it was stored (never parsed)."
    ),
    "promise.replay.merge": (
        "Consecutive tool_call events of the session become one assistant message whose "
        "tool_calls keep their order, however many there are; any other event of the same "
        "session ends the run (an assistant message too, even an empty one), events of other "
        "sessions do not."
    ),
    "promise.replay.isolated": (
        "Only this session's events count: a session without events replays to an empty sequence."
    ),
    "promise.replay.fresh": (
        "Every call builds fresh objects: a caller who edits the returned messages, at any depth, "
        "does not change what the next replay returns."
    ),
    "hint.replay.mapping.1": (
        "Build each message from the payload's own keys only, exactly as the docstring shows: "
        "never copy the payload into the message."
    ),
    "hint.replay.mapping.2": (
        "A tool result's content and a call's arguments are text: keep them as they are, never "
        "json.loads them."
    ),
    "hint.replay.merge.1": (
        "A tool_call joins the previous message when the session's previous event was also a "
        "tool_call; any other event of the session ends the run."
    ),
    "hint.replay.merge.2": (
        "Decide by the previous event's type, not by the previous message's shape: an empty "
        "assistant message is not a run of calls. A run has no length limit."
    ),
    "hint.replay.isolated.1": "Replay only the given session's events: filter by session_id first.",
    "hint.replay.isolated.2": "A session without events replays to an empty sequence; keep no cache between calls.",
    "hint.replay.fresh.1": "Build new dicts and lists on every call.",
    "hint.replay.fresh.2": "Do not cache messages, and do not share a dict or list with the log or with an earlier replay.",
}
