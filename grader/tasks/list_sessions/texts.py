"""Task 3's words: its name, list_sessions's promises, and a hint for each."""

from __future__ import annotations

EN = {
    "task.list_sessions.name": "Listing sessions",
    "promise.list.sessions": (
        "Every session that has events, each once, in the order of its first event (none for an "
        "empty log; a session whose only append was refused has no events)."
    ),
    "promise.list.result_is_a_copy": (
        "The sequence returned is the caller's own: changing it changes nothing the next call "
        "returns, also when it is empty."
    ),
    "hint.list.sessions.1": "Walk the events oldest first and keep each session id the first time you see it.",
    "hint.list.sessions.2": (
        "tuple(dict.fromkeys(e.session_id for e in events)): dict keys keep insertion order "
        "and drop repeats. Compare ids exactly, and keep nothing between calls."
    ),
    "hint.list.result_is_a_copy.1": "Build the answer anew on every call.",
    "hint.list.result_is_a_copy.2": "Return a new tuple every time, an empty one too; never a list the log keeps.",
}
