"""Task 1's words: its name, append_event's promises (the docstring's bullets, word for word)
and a hint for each, gentle first."""

from __future__ import annotations

EN = {
    "task.append_and_ids.name": "Appending and event ids",
    "promise.append.returns_pair": "It returns a pair: the new log, then the event.",
    "promise.append.event_attributes": (
        "The event has the attributes event_id (an int), session_id and type (strs) and payload "
        "(a mapping)."
    ),
    "promise.append.event_ids": (
        "Event ids form one sequence shared by all sessions: the first event gets 1, every later "
        "one the previous id + 1, with no gaps, however long the log grows."
    ),
    "promise.append.event_fields": (
        "The event carries the session_id and type it was appended with, and a payload equal to "
        'the one given (see "equal" above), extra keys included.'
    ),
    "promise.append.old_log_unchanged": (
        "The log passed in never changes: after the append, appending to it or reading it gives "
        "the same answers as just before."
    ),
    "promise.append.branches": (
        "Logs are independent values: appending to an older log starts a branch (the event gets "
        "that log's next id, and the new log holds that log's events and the new one), and "
        "appending to one log never changes another."
    ),
    "promise.append.caller_payload_copied": (
        "The payload is copied: changing the caller's mapping afterwards, at any depth (a list "
        "inside a tuple, the dict behind a MappingProxyType), changes nothing in the log."
    ),
    "promise.append.payload_read_only": (
        "Nobody can change the log through a payload: changing what ``event.payload`` holds (a "
        "nested list, say) changes nothing that later reads or appends see."
    ),
    "promise.append.events_are_facts": (
        "An event is a fact: assigning to its attributes (where the class allows it) changes "
        "nothing in the log."
    ),
    "hint.append.returns_pair.1": "Return two values, the new log first: return new_log, event.",
    "hint.append.returns_pair.2": (
        "A tuple of two is a pair: build the event, build the new log that holds it, then "
        "return (new_log, event)."
    ),
    "hint.append.event_attributes.1": (
        "Give the event the attributes event_id, session_id, type and payload, with event_id an "
        "int (not a bool, not a float)."
    ),
    "hint.append.event_attributes.2": (
        "A @dataclass(frozen=True) or a typing.NamedTuple with the four fields is enough; payload "
        "must be a mapping (a dict, or a read-only view of one)."
    ),
    "hint.append.event_ids.1": (
        "The new id depends on the log you append to, and on nothing else: one more than the "
        "number of events it holds, whatever their sessions."
    ),
    "hint.append.event_ids.2": (
        "Compute the id from the log itself, as len(events) + 1, as an int: no counter kept "
        "elsewhere, no per-session numbering, no id read back from text."
    ),
    "hint.append.event_fields.1": (
        "Keep session_id and type as they were given, and every payload key with its value, of "
        "the same type: True stays True, 1.0 stays 1.0, -0.0 stays -0.0."
    ),
    "hint.append.event_fields.2": (
        "Copy values, never convert them: no str(), int() or float() on payload values, no "
        "dropping or renaming keys, no normalising text."
    ),
    "hint.append.old_log_unchanged.1": (
        "Treat the log as a value: append_event builds a new log and leaves the one it was "
        "given as it was."
    ),
    "hint.append.old_log_unchanged.2": (
        "Never change a list or dict the old log holds: build a new tuple of events, "
        "new_events = (*log.events, event), and return a new log object holding it."
    ),
    "hint.append.branches.1": (
        "Two appends to the same old log give two independent logs: neither sees the other's event."
    ),
    "hint.append.branches.2": (
        "Keep no state outside the log value (no global counter, no cache keyed by the log's "
        "length or id): everything an append needs is in the log it is given."
    ),
    "hint.append.caller_payload_copied.1": (
        "The caller keeps their mapping and may change it later: store a copy, not the "
        "mapping itself."
    ),
    "hint.append.caller_payload_copied.2": (
        "Copy at every depth, through lists, dicts and tuples alike: walk the value and build "
        "new containers (or copy.deepcopy(dict(payload)); dict() first, since copy.deepcopy "
        "cannot copy a MappingProxyType)."
    ),
    "hint.append.payload_read_only.1": (
        "What event.payload hands out must not be the log's own data: a reader could change it."
    ),
    "hint.append.payload_read_only.2": (
        "Freeze the stored copy all the way down (dicts into types.MappingProxyType, lists into "
        "tuples), or keep it private and hand out a fresh copy on every read."
    ),
    "hint.append.events_are_facts.1": "Make events immutable, so assigning to an attribute raises.",
    "hint.append.events_are_facts.2": (
        "@dataclass(frozen=True) or a NamedTuple; and never let the log's bookkeeping (the ids "
        "or calls it remembers) read back from an event someone else holds."
    ),
}
