"""Every sentence the grader shows a learner, in one place.

Keeping them here (and only here) lets a later change move them into gettext catalogs
(a Chinese one is planned) without touching any logic. Placeholders use ``str.format`` names.
Code identifiers (function names, ``ValueError``) are never translated.
"""

from __future__ import annotations

from typing import Final

# --- statuses, as shown in the report -------------------------------------------------------
STATUS_PASSED: Final = "passed"
STATUS_FAILED: Final = "failed"
STATUS_NOT_IMPLEMENTED: Final = "not implemented yet"
STATUS_TIMED_OUT: Final = "timed out"
STATUS_ERROR: Final = "error"

# --- task names ---------------------------------------------------------------------------
TASK_NAMES: Final = {
    "append_and_ids": "Appending and event ids",
    "read_and_resume": "Reading a session and resuming after an id",
    "list_sessions": "Listing sessions",
    "replay": "Replaying a session into chat messages",
    "reject_bad_input": "Rejecting bad input",
}

# --- hints, gentle first ---------------------------------------------------------------------
HINTS: Final = {
    "append_and_ids": (
        "Treat the log as a value: append_event builds a new log and leaves the old one as it was.",
        "The next id is simply one more than the number of events already in the log, whatever "
        "the session; store a deep copy of the payload and hand readers something they cannot "
        "change (a read-only mapping, or a fresh copy on every read).",
        "Keep the events in a tuple: new_log = (*log, event). Build the payload with "
        "copy.deepcopy(dict(payload)) and expose it through types.MappingProxyType or a "
        "Mapping subclass whose __getitem__ returns copy.deepcopy of the stored value.",
    ),
    "read_and_resume": (
        "Reading never changes the log: it filters the events that are already there.",
        "Keep an event when both hold: its session_id is the one asked for, and its event_id "
        "is greater than after_event_id. Any after_event_id works, even 0, negative ones, or "
        "ids from other sessions.",
        "tuple(e for e in events if e.session_id == session_id and e.event_id > after_event_id)",
    ),
    "list_sessions": (
        "A session exists as soon as it has one event; list each one once.",
        "Walk the events oldest first and remember each session id the first time you see it; "
        "sorting would lose the order of first events.",
        "tuple(dict.fromkeys(e.session_id for e in events)): dict keys keep insertion order "
        "and drop repeats.",
    ),
    "replay": (
        "Replay is a fold: start from no messages and apply the session's events one by one.",
        "A tool_call joins the previous message when the session's previous event was also a "
        "tool_call; any other event ends the run. Build new dicts and lists on every call.",
        "For a tool_call, if messages and 'tool_calls' in messages[-1], replace the last "
        "message by {**last, 'tool_calls': [*last['tool_calls'], call]}; otherwise append "
        "{'role': 'assistant', 'content': None, 'tool_calls': [call]}.",
    ),
    "reject_bad_input": (
        "Check everything before you build anything: a refused append must leave no trace.",
        "Raise ValueError for an unknown type, a session_id that is not a non-empty str, a "
        "payload that is not a mapping or lacks a required str value (call_id and name must "
        "not be empty), and call ids that break the pairing within the session.",
        "Only this session's events decide a call id's fate: a tool_call needs an id the "
        "session never used; a tool_result needs one it called and has not answered yet. "
        "Empty content and arguments that are not JSON are still valid.",
    ),
}

# --- broken properties: one plain sentence each -----------------------------------------------
APPEND_RETURNS_PAIR: Final = "append_event returns a pair (new_log, event)."
EVENT_READABLE: Final = (
    "An event has the attributes event_id, session_id, type and payload (a mapping)."
)
EVENT_IDS: Final = (
    "Event ids are 1, 2, 3, ... in append order: one sequence shared by all sessions, no gaps."
)
EVENT_FIELDS: Final = (
    "The event carries the session_id and type it was appended with, and a payload equal to "
    "the one given (extra keys kept)."
)
OLD_LOG_UNCHANGED: Final = (
    "Appending never changes the old log: reading it gives the same answers as before."
)
CALLER_DICT_ISOLATED: Final = (
    "Changing the payload dict after passing it to append_event changes nothing in the log."
)
READER_CANNOT_CHANGE: Final = (
    "Reading event.payload and trying to change it never changes what later reads return."
)
READ_SESSION: Final = (
    "get_events_for_session(log, s) returns exactly the events of session s, oldest first "
    "(none for a session without events)."
)
READ_AFTER: Final = (
    "get_events_for_session(log, s, after_event_id=k) returns exactly the events of session s "
    "whose event_id is greater than k, for any k."
)
LIST_SESSIONS: Final = (
    "list_sessions returns every session that has events, each once, in the order of its "
    "first event (nothing for an empty log)."
)
REPLAY_MAPPING: Final = (
    "replay_session turns user_message, assistant_message, tool_call and tool_result events "
    "into exactly the chat messages the contract shows, oldest first."
)
REPLAY_MERGE: Final = (
    "Consecutive tool_call events of a session become ONE assistant message whose tool_calls "
    "keep their order; any other event of the session ends the run."
)
REPLAY_ISOLATED: Final = (
    "replay_session replays only the given session: other sessions never leak in, and a "
    "session without events replays to an empty sequence."
)
REPLAY_FRESH: Final = (
    "Every replay returns fresh objects: changing what one replay returned does not change "
    "the next replay."
)
REFUSE: Final = {
    "unknown_type": "append_event raises ValueError for an unknown event type.",
    "bad_session_id": "append_event raises ValueError when session_id is not a non-empty str.",
    "payload_not_mapping": "append_event raises ValueError when the payload is not a mapping.",
    "missing_key": "append_event raises ValueError when the payload lacks a required key.",
    "wrong_value_type": (
        "append_event raises ValueError when a required payload value is not a str."
    ),
    "empty_value": "append_event raises ValueError when a tool call_id or name is empty.",
    "call_id_reused": (
        "append_event raises ValueError for a tool_call reusing a call_id of the same session."
    ),
    "result_without_call": (
        "append_event raises ValueError for a tool_result whose call_id this session never "
        "called (call ids are scoped per session)."
    ),
    "result_already_given": (
        "append_event raises ValueError for a tool_result whose call already has a result."
    ),
}
REFUSED_APPENDS_NOTHING: Final = (
    "A refused append appends nothing: the log passed in reads the same afterwards, and the "
    "next successful append gets the next id."
)
ACCEPT: Final = {
    "plain": "append_event accepts every valid append.",
    "empty_content": "Empty content is valid: append_event accepts it.",
    "arguments_not_json": (
        "Tool arguments are stored as given, even when they are not valid JSON (or empty): "
        "append_event accepts them."
    ),
    "extra_keys": "Extra payload keys are valid: append_event accepts them.",
    "shared_call_id": (
        "Call ids are scoped per session: the same call_id may be used in two sessions."
    ),
    "result_after_gap": (
        "A tool_result may come after its call with other events in between: append_event "
        "accepts it."
    ),
    "unusual_session_id": "Any non-empty str is a valid session_id, even one with spaces.",
    "unusual_text": "Any str is valid content, whatever characters it holds.",
}

# --- pieces of a failure report -----------------------------------------------------------------
RETURNED: Final = "returned {value}"
EXPECTED: Final = "expected {value}"
RAISED: Final = "raised {kind}: {message}"
RAISED_AT: Final = "raised {kind}: {message} (at {where})"
EXPECTED_VALUE_ERROR: Final = "expected: raises ValueError (or a subclass) and appends nothing"
RETURNED_INSTEAD_OF_RAISING: Final = "returned normally instead of raising ValueError"
REFUSED_VALID: Final = "raised {kind}: {message}, but this append is valid"
NOT_A_PAIR: Final = "returned {value}, which is not a pair (new_log, event)"
UNREADABLE: Final = "{what}; it returned {value}"
EXPECTED_NEXT_ID: Final = (
    "expected event_id {expected}: the id the same append gets when the refused call never happened"
)
READ_BEFORE: Final = "before: {value}"
READ_AFTER_CHANGE: Final = "after:  {value}"
NOT_IMPLEMENTED_CALL: Final = (
    "{function} raised NotImplementedError: this part is not implemented yet"
)
NOT_IMPLEMENTED_TASK: Final = "{functions} not implemented yet; this task needs {plural}."
CALLED_EXIT: Final = "called sys.exit({code}); learner code must return or raise, never exit"
RAISED_CONTROL: Final = "raised {kind}; learner code must return or raise an Exception"
TIMED_OUT: Final = (
    "{function} did not return within {seconds:g} seconds (an endless loop?); the other tasks "
    "were still graded."
)
TIMED_OUT_NO_CALL: Final = "This task did not finish within {seconds:g} seconds."
WORKER_DIED: Final = (
    "The grading process stopped while {function} was running (exit code {code}): learner code "
    "must not call os._exit() or crash the interpreter. The other tasks were still graded."
)
REFUSED_EVERY_APPEND: Final = (
    "append_event refused (raised ValueError for) every valid append the grader tried, so "
    "this task could not be checked."
)
FLAKY: Final = (
    "This failure does not happen every time the same calls are made: your functions may keep "
    "state between calls (a global variable, a cache, randomness)."
)
GRADER_BUG: Final = "The grader itself failed ({kind}: {message}); please report this."
CHANGE_CALLER_DICT: Final = "# now change the dict that was passed in:"
CHANGE_READ_PAYLOAD: Final = (
    "# now try to change payloads that were read (only the lines that did not raise):"
)
CHANGE_REPLAY: Final = "# now change everything replay_session returned:"
DUMMY_FIRST_APPEND: Final = "# (any valid append would do here)"

# --- reading learner data ---------------------------------------------------------------------
NEEDS_ATTRIBUTE: Final = "an event should have the attribute {name}"
NEEDS_MAPPING: Final = "event.payload should be a mapping that can be read"
NEEDS_SEQUENCE: Final = "the result should be a sequence (a tuple or a list)"
READING_RAISED: Final = "<reading it raised {kind}>"
REPR_RAISED: Final = "<{kind} whose repr raised {error}>"

# --- command line and pytest option ----------------------------------------------------------
CLI_DESCRIPTION: Final = "Grade the five event-log functions by their behaviour."
CLI_TARGET: Final = (
    "exercises (default), solutions, a dotted module name, or a path to a .py file defining "
    "the five functions (default from ${env} when set)"
)
CLI_JSON: Final = "also write the results as JSON (exercism v3 and Gradescope in one file)"
CLI_TIME_LIMIT: Final = (
    "seconds allowed per task before it counts as timed out (default {seconds:g})"
)
CLI_TASK: Final = "grade only this task (repeat for several)"
PYTEST_TARGET: Final = (
    "what to grade: exercises (default), solutions, a dotted module name, or a path to a .py "
    "file; falls back to ${env}"
)

# --- loading the target ------------------------------------------------------------------------
LOAD_HEADING: Final = "Could not load {target}."
LOAD_SYNTAX: Final = "SyntaxError in {where}: {message}"
LOAD_RAISED: Final = "Importing it raised {kind}: {message}"
LOAD_NOT_FOUND: Final = "No module or file named {target} was found."
LOAD_MISSING: Final = "It does not define {names}."
LOAD_EXIT: Final = "Importing it called sys.exit({code})."
LOAD_TIMED_OUT: Final = "Importing it did not finish within {seconds:g} seconds."
LOAD_DIED: Final = "The process stopped while importing it (exit code {code})."

# --- report text ---------------------------------------------------------------------------------
REPORT_TITLE: Final = "Grading {target}"
REPORT_TASK: Final = "{number}. {name}"
REPORT_POINTS: Final = "{earned}/{possible}"
REPORT_BROKEN: Final = "Broken property: {sentence}"
REPORT_CASE: Final = "Smallest case that shows it:"
REPORT_HINT: Final = "Hint: {hint}"
REPORT_TOTAL: Final = "Total: {earned}/{possible} points"
REPORT_ALL_PASSED: Final = "Every task passes. Well done."
REPORT_NEXT: Final = "Fix the first task that is not passing, then run the grader again."
REPORT_PASSED_DETAIL: Final = "All properties hold."
OUTPUT_TRUNCATED: Final = "... (cut here; the full text is in the message)"
