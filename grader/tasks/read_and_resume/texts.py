"""Task 2's words: its name, get_events_for_session's promises, and a hint for each."""

from __future__ import annotations

EN = {
    "task.read_and_resume.name": "Reading a session and resuming after an id",
    "promise.read.session_only": (
        "Only this session's events, oldest first, each as append_event returned it: other "
        'sessions\' events never leak in (session ids are compared exactly: "a" is not "A", not '
        '"ab", not "a " and not the same letters written in another Unicode form).'
    ),
    "promise.read.after": (
        "Exactly the events whose event_id is greater than after_event_id, whatever "
        "after_event_id is (0, negative, an id of another session, larger than any id)."
    ),
    "promise.read.result_is_a_copy": (
        "The sequence returned is the caller's own (a tuple is simplest): changing it, or the "
        "payloads of the events in it, changes nothing in the log, also when it is empty."
    ),
    "hint.read.session_only.1": (
        "Keep exactly the events whose session_id equals the one asked for, with ==, in the "
        "order they were appended."
    ),
    "hint.read.session_only.2": (
        "Compare session ids as they are: no lower(), strip(), startswith() or Unicode "
        "normalisation, and no key that joins a session id with something else."
    ),
    "hint.read.after.1": "Compare event ids, not positions: keep the events with event_id > after_event_id.",
    "hint.read.after.2": (
        "Any int is a valid after_event_id: 0, a negative one, another session's id, or one past "
        "the end. Filter by id; do not slice by position or count."
    ),
    "hint.read.result_is_a_copy.1": "Return a new sequence on every call, never a list the log keeps.",
    "hint.read.result_is_a_copy.2": (
        "Build a fresh tuple every time (an empty one too: a shared [] returned for every "
        "unknown session is one list every caller can change), of events whose payloads "
        "nobody can change."
    ),
}
