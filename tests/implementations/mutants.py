# ruff: noqa: E501 - each edit is the exact text of a line of source; wrapped, it would not read as one
"""The wrong implementations: each is a correct file of ``correct/`` plus a small edit.

A mutant is data, not a file: the correct file it starts from, the exact text it replaces
(each ``old`` occurs once in that file), the task that must lose its points, and why, in one
sentence a learner would recognise. ``tests.implementations.corpus.mutant_source`` builds its
source; the grader's tests grade every mutant, and ``tests/grader/test_clauses.py`` maps each
clause of the exercises' contract to the mutant that only its property catches.

``spills`` names other tasks a bug honestly breaks too (with the reason in ``why``).
"""

from __future__ import annotations

from tests.implementations.corpus import Mutant

READ_FILTER = "e.session_id == session_id and e.event_id > after_event_id"

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "ids_start_at_zero",
        "c07_tuple_log",
        "append_and_ids",
        "The first event gets id 0 instead of 1: ids are the log's length before the append. "
        "Reads keep ids above the default after_event_id=0, so a replay loses event 0 too.",
        (
            (
                "    event = Event(len(log) + 1, session_id, event_type, items)\n",
                "    event = Event(len(log), session_id, event_type, items)\n",
            ),
        ),
        frozenset({"replay"}),
    ),
    Mutant(
        "ids_per_session",
        "c08_frozen_dict_log",
        "append_and_ids",
        "Event ids count per session instead of forming one global sequence across sessions.",
        (
            (
                "    event = Event(log.count + 1, session_id, event_type, copy.deepcopy(dict(payload)))\n",
                "    event_id = len(log.sessions.get(session_id, ())) + 1\n    event = Event(event_id, session_id, event_type, copy.deepcopy(dict(payload)))\n",
            ),
        ),
    ),
    Mutant(
        "id_burned_by_refused_append",
        "c08_frozen_dict_log",
        "append_and_ids",
        "The id is drawn from a counter shared by a log and its descendants before the input is validated, so a refused append leaves a gap in the ids.",
        (
            (
                "from collections.abc import Mapping\n",
                "import itertools\nfrom collections.abc import Iterator, Mapping\n",
            ),
            (
                "    count: int = 0\n",
                "    ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))\n",
            ),
            (
                '    """Return ``(new_log, event)``; raise ValueError and append nothing on bad input."""\n    _validate(log, session_id, event_type, payload)\n',
                '    """Return ``(new_log, event)``; raise ValueError and append nothing on bad input."""\n    event_id = next(log.ids)\n    _validate(log, session_id, event_type, payload)\n',
            ),
            (
                "    event = Event(log.count + 1, session_id, event_type, copy.deepcopy(dict(payload)))\n",
                "    event = Event(event_id, session_id, event_type, copy.deepcopy(dict(payload)))\n",
            ),
            (
                "    return EventLog(sessions, log.count + 1), event\n",
                "    return EventLog(sessions, log.ids), event\n",
            ),
        ),
        frozenset({"reject_bad_input"}),
    ),
    Mutant(
        "old_log_changed",
        "c05_own_error",
        "append_and_ids",
        "The frozen log wraps a list that append extends in place, so the old log changes too.",
        (
            ("from dataclasses import dataclass\n", "from dataclasses import dataclass, field\n"),
            (
                "    events: tuple[Event, ...] = ()\n",
                "    events: list[Event] = field(default_factory=list)\n",
            ),
            (
                "    return EventLog((*log.events, event)), event\n",
                "    log.events.append(event)\n    return EventLog(log.events), event\n",
            ),
        ),
    ),
    Mutant(
        "payload_by_reference",
        "c02_slots_class",
        "append_and_ids",
        "The event keeps the caller's payload object itself, so changing that dict later changes "
        "the log, and a read-only payload (a MappingProxyType) breaks the deep copy of every read.",
        (
            (
                "        self._payload = copy.deepcopy(dict(payload))\n",
                "        self._payload = payload\n",
            ),
        ),
        frozenset({"reject_bad_input"}),
    ),
    Mutant(
        "nested_extras_shallow",
        "c02_slots_class",
        "append_and_ids",
        "The payload is copied one level deep only, so changing a nested extra in the caller's dict later changes the log.",
        (
            (
                "        self._payload = copy.deepcopy(dict(payload))\n",
                "        self._payload = dict(payload)\n",
            ),
        ),
    ),
    Mutant(
        "extra_keys_dropped",
        "c01_namedtuple_events",
        "append_and_ids",
        "Only the required keys are stored: extra payload keys are dropped.",
        (
            (
                "    event = Event(len(log.events) + 1, session_id, event_type, FrozenPayload(payload))\n",
                "    kept = {key: payload[key] for key in REQUIRED[event_type]}\n    event = Event(len(log.events) + 1, session_id, event_type, FrozenPayload(kept))\n",
            ),
        ),
    ),
    Mutant(
        "payload_shared_mutable",
        "c02_slots_class",
        "append_and_ids",
        "event.payload returns the stored dict itself, so a reader who changes it changes the log.",
        (
            (
                "        # A fresh copy per read: the reader may change it, the log never sees it.\n        return copy.deepcopy(self._payload)\n",
                "        return self._payload\n",
            ),
        ),
    ),
    Mutant(
        "payload_proxy_nested_leak",
        "c04_mappingproxy",
        "read_and_resume",
        "event.payload returns the stored read-only proxy: writing a key fails, but a nested list inside it can still be changed, and that change reaches the log. Only a read shows it (task 1 has no reader: nothing else in the log depends on a nested list).",
        (
            (
                "        return MappingProxyType(copy.deepcopy(dict(self.stored_payload)))\n",
                "        return self.stored_payload\n",
            ),
        ),
    ),
    Mutant(
        "after_id_inclusive",
        "c07_tuple_log",
        "read_and_resume",
        "Reads keep events with event_id >= after_event_id, so resuming repeats the last event seen.",
        (
            (
                "    return tuple(e for e in log if e.session_id == session_id and e.event_id > after_event_id)\n",
                "    return tuple(e for e in log if e.session_id == session_id and e.event_id >= after_event_id)\n",
            ),
        ),
    ),
    Mutant(
        "after_id_as_position",
        "c08_frozen_dict_log",
        "read_and_resume",
        "after_event_id is used as a position in the session's own events instead of as a global event id.",
        (
            (
                "    return tuple(e for e in log.sessions.get(session_id, ()) if e.event_id > after_event_id)\n",
                "    return log.sessions.get(session_id, ())[after_event_id:]\n",
            ),
        ),
    ),
    Mutant(
        "newest_first",
        "c09_cons_list",
        "read_and_resume",
        "A session's events come back newest first: the walk over the cells is never reversed.",
        (("    return tuple(reversed(found))\n", "    return tuple(found)\n"),),
    ),
    Mutant(
        "reads_match_session_prefix",
        "c09_cons_list",
        "read_and_resume",
        'Reads match session ids by prefix, so reading session "a" also returns session "ab".',
        (
            (
                "        if log.event.session_id == session_id:\n",
                "        if log.event.session_id.startswith(session_id):\n",
            ),
        ),
    ),
    Mutant(
        "resume_ignored_for_some_sessions",
        "c10_functional_reduce",
        "read_and_resume",
        "The resume filter drops the session's events only while they lead the whole log, so after_event_id is ignored for a session whose first event is not the log's first.",
        (
            (
                "    later = dropwhile(lambda e: e.event_id <= after_event_id, log.events)\n",
                "    later = dropwhile(\n        lambda e: e.session_id == session_id and e.event_id <= after_event_id, log.events\n    )\n",
            ),
        ),
    ),
    Mutant(
        "sessions_sorted",
        "c07_tuple_log",
        "list_sessions",
        "list_sessions sorts the ids alphabetically instead of by their first event.",
        (
            (
                "    return tuple(dict.fromkeys(e.session_id for e in log))\n",
                "    return tuple(sorted(dict.fromkeys(e.session_id for e in log)))\n",
            ),
        ),
    ),
    Mutant(
        "sessions_repeated",
        "c09_cons_list",
        "list_sessions",
        "list_sessions names a session once per event instead of once.",
        (
            (
                "    return tuple(dict.fromkeys(e.session_id for e in reversed(_newest_first(log))))\n",
                "    return tuple(e.session_id for e in reversed(_newest_first(log)))\n",
            ),
        ),
    ),
    Mutant(
        "sessions_by_last_event",
        "c08_frozen_dict_log",
        "list_sessions",
        "Each append moves its session to the end of the dict, so sessions are listed in the order of their last event, not their first.",
        (
            (
                "    sessions = dict(log.sessions)\n    sessions[session_id] = (*sessions.get(session_id, ()), event)\n",
                "    sessions = {sid: events for sid, events in log.sessions.items() if sid != session_id}\n    sessions[session_id] = (*log.sessions.get(session_id, ()), event)\n",
            ),
        ),
    ),
    Mutant(
        "replay_no_merge",
        "c01_namedtuple_events",
        "replay",
        "Consecutive tool_call events each become their own assistant message instead of one.",
        (
            (
                '    messages: list[dict[str, Any]] = []\n    previous_type = None\n    for event in get_events_for_session(log, session_id):\n        if event.type == "tool_call" and previous_type == "tool_call":\n            messages[-1]["tool_calls"].append(_call(event))\n        else:\n            messages.append(_message(event))\n        previous_type = event.type\n    return messages\n',
                "    return [_message(event) for event in get_events_for_session(log, session_id)]\n",
            ),
        ),
    ),
    Mutant(
        "replay_merges_across_result",
        "c05_own_error",
        "replay",
        "A tool_result does not end a run of tool calls, so a tool_call after a result joins the earlier assistant message.",
        (
            ("        collecting = None\n", ""),
            (
                '        else:\n            role = "user" if event.type == "user_message" else "assistant"\n',
                '        else:\n            collecting = None\n            role = "user" if event.type == "user_message" else "assistant"\n',
            ),
        ),
    ),
    Mutant(
        "replay_calls_reversed",
        "c03_json_payload",
        "replay",
        "Merged tool calls are listed newest first instead of in event order.",
        (
            (
                '                messages[-1]["tool_calls"].append(call)\n',
                '                messages[-1]["tool_calls"].insert(0, call)\n',
            ),
        ),
    ),
    Mutant(
        "replay_camelcase_key",
        "c04_mappingproxy",
        "replay",
        'Tool messages name their call with "toolCallId" instead of "tool_call_id".',
        (
            (
                '            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})\n',
                '            messages.append({"role": "tool", "toolCallId": p["call_id"], "content": p["content"]})\n',
            ),
        ),
    ),
    Mutant(
        "replay_tool_message_without_call_id",
        "c07_tuple_log",
        "replay",
        'Tool messages lack the "tool_call_id" key.',
        (
            (
                '            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})\n',
                '            messages.append({"role": "tool", "content": p["content"]})\n',
            ),
        ),
    ),
    Mutant(
        "replay_cached",
        "c02_slots_class",
        "replay",
        "Replays are cached per log and copied only one level deep, so changing a returned message changes the next replay.",
        (
            (
                "import copy\nfrom collections.abc import Mapping\n",
                "import copy\nimport functools\nfrom collections.abc import Mapping\n",
            ),
            (
                '    """Return the session as Chat Completions messages, built fresh on every call."""\n',
                '    """Return the session as Chat Completions messages."""\n    return list(_replay(log, session_id))\n\n\n@functools.lru_cache(maxsize=256)\ndef _replay(log: EventLog, session_id: str) -> list[dict[str, Any]]:\n    # A log value never changes, so its replay is computed once and handed out again.\n',
            ),
        ),
    ),
    Mutant(
        "replay_leaks_other_sessions",
        "c06_lists_everywhere",
        "replay",
        "Replay matches tool results to calls by call_id across the whole log, so another session's result for the same call id leaks in.",
        (
            (
                "    for event in get_events_for_session(log, session_id):\n",
                '    own = get_events_for_session(log, session_id)\n    called = {e.payload["call_id"] for e in own if e.type == "tool_call"}\n    # A result belongs wherever its call was made.\n    for event in log.events:\n        is_answer = event.type == "tool_result" and event.payload["call_id"] in called\n        if event.session_id != session_id and not is_answer:\n            continue\n',
            ),
        ),
    ),
    Mutant(
        "accepts_unknown_type",
        "c05_own_error",
        "reject_bad_input",
        "Any string is accepted as an event type, so an unknown type is stored.",
        (
            (
                "    if event_type not in EVENT_TYPES:\n",
                "    if not isinstance(event_type, str):\n",
            ),
            (
                "    for key in REQUIRED_KEYS[event_type]:\n",
                "    for key in REQUIRED_KEYS.get(event_type, ()):\n",
            ),
        ),
    ),
    Mutant(
        "accepts_empty_session_id",
        "c05_own_error",
        "reject_bad_input",
        "An empty session_id is accepted.",
        (
            (
                '    if not session_id:\n        raise EventRejected("session_id must not be empty")\n',
                "",
            ),
        ),
    ),
    Mutant(
        "accepts_non_str_session_id",
        "c03_json_payload",
        "reject_bad_input",
        "Any truthy session_id is accepted, even one that is not a string (like 7).",
        (
            (
                "    if not (isinstance(session_id, str) and session_id):\n",
                "    if not session_id:\n",
            ),
        ),
    ),
    Mutant(
        "accepts_missing_key",
        "c05_own_error",
        "reject_bad_input",
        "A missing text key counts as an empty string, so a payload without content or arguments is accepted.",
        (
            (
                '        if key not in payload:\n            raise EventRejected(f"{event_type} payload needs {key!r}")\n        if not isinstance(payload[key], str):\n',
                '        value = payload.get(key, "")\n        if not isinstance(value, str):\n',
            ),
            (
                "        if key in NON_EMPTY_KEYS and not payload[key]:\n",
                "        if key in NON_EMPTY_KEYS and not value:\n",
            ),
        ),
    ),
    Mutant(
        "accepts_non_str_content",
        "c05_own_error",
        "reject_bad_input",
        "content is never type-checked, so a content that is not a string (None, 5) is accepted.",
        (
            (
                "        if not isinstance(payload[key], str):\n",
                '        if key != "content" and not isinstance(payload[key], str):\n',
            ),
        ),
    ),
    Mutant(
        "accepts_empty_call_id_or_name",
        "c05_own_error",
        "reject_bad_input",
        "An empty call_id or name is accepted.",
        (
            (
                '        if key in NON_EMPTY_KEYS and not payload[key]:\n            raise EventRejected(f"payload[{key!r}] must not be empty")\n',
                "",
            ),
        ),
    ),
    Mutant(
        "accepts_reused_call_id",
        "c05_own_error",
        "reject_bad_input",
        "A tool_call may reuse a call_id that this session already used.",
        (
            (
                '    if event_type == "tool_call" and "tool_call" in seen:\n        raise EventRejected(f"call_id {call_id!r} already used in this session")\n',
                "",
            ),
        ),
    ),
    Mutant(
        "accepts_result_without_call",
        "c05_own_error",
        "reject_bad_input",
        "A tool_result whose call_id this session never called is accepted.",
        (
            (
                '    if event_type == "tool_result" and "tool_call" not in seen:\n        raise EventRejected(f"call_id {call_id!r} was never called in this session")\n',
                "",
            ),
        ),
    ),
    Mutant(
        "accepts_second_result",
        "c05_own_error",
        "reject_bad_input",
        "A second tool_result for a call that already has one is accepted.",
        (
            (
                '    if event_type == "tool_result" and "tool_result" in seen:\n        raise EventRejected(f"call_id {call_id!r} already has a result")\n',
                "",
            ),
        ),
    ),
    Mutant(
        "call_ids_global",
        "c05_own_error",
        "reject_bad_input",
        "Call ids are checked across all sessions, so a second session cannot use call_1 once another session has.",
        (
            (
                '    seen = [\n        e.type\n        for e in log.events\n        if e.session_id == session_id and e.type in TOOL_TYPES and e.payload["call_id"] == call_id\n    ]\n',
                '    seen = [e.type for e in log.events if e.type in TOOL_TYPES and e.payload["call_id"] == call_id]\n',
            ),
        ),
    ),
    Mutant(
        "rejects_invalid_json_arguments",
        "c01_namedtuple_events",
        "reject_bad_input",
        "tool_call arguments that are not valid JSON are rejected, though they must be stored as given.",
        (
            (
                "import copy\nfrom collections.abc import Iterator, Mapping\n",
                "import copy\nimport json\nfrom collections.abc import Iterator, Mapping\n",
            ),
            (
                '            raise ValueError(f"payload[{key!r}] must not be empty")\n\n',
                '            raise ValueError(f"payload[{key!r}] must not be empty")\n    if event_type == "tool_call":\n        json.loads(payload["arguments"])  # raises JSONDecodeError, a ValueError\n\n',
            ),
        ),
    ),
    Mutant(
        "type_error_for_non_mapping",
        "c04_mappingproxy",
        "reject_bad_input",
        "A payload that is not a mapping raises TypeError, which is not a ValueError.",
        (
            (
                '        raise ValueError("payload must be a mapping")\n',
                '        raise TypeError("payload must be a mapping")\n',
            ),
        ),
    ),
    Mutant(
        "appends_before_raising",
        "c06_lists_everywhere",
        "reject_bad_input",
        "A refused tool event stays on the log's list: the ValueError is raised, but the event was appended anyway.",
        (
            (
                '    try:\n        if not _calls_pair_up(get_events_for_session(log, session_id)):\n            raise ValueError("call ids of this session would no longer pair up")\n    finally:\n        log.events.pop()\n',
                '    if not _calls_pair_up(get_events_for_session(log, session_id)):\n        raise ValueError("call ids of this session would no longer pair up")\n    log.events.pop()\n',
            ),
        ),
    ),
    Mutant(
        "rejects_empty_content",
        "c05_own_error",
        "reject_bad_input",
        "An empty content string is rejected, though empty content is allowed.",
        (
            (
                'NON_EMPTY_KEYS = frozenset({"call_id", "name"})\n',
                'NON_EMPTY_KEYS = frozenset({"call_id", "name", "content"})\n',
            ),
        ),
    ),
    # --- one-line bugs beyond the converted files --------------------------------------
    Mutant(
        "tool_call_message_with_empty_content",
        "c07_tuple_log",
        "replay",
        'A tool-call message gets content "" instead of None.',
        (
            (
                '{"role": "assistant", "content": None, "tool_calls": [call]}',
                '{"role": "assistant", "content": "", "tool_calls": [call]}',
            ),
        ),
    ),
    Mutant(
        "runs_split_by_other_sessions_events",
        "c07_tuple_log",
        "replay",
        "A run of tool calls is split when another session's event came in between.",
        (
            (
                "        p = event.payload\n",
                "        p = event.payload\n"
                "        if log[event.event_id - 2].session_id != session_id:\n"
                "            previous = None\n",
            ),
        ),
    ),
    Mutant(
        "answered_call_id_reusable",
        "c07_tuple_log",
        "reject_bad_input",
        "A call id whose call was answered may be called again.",
        (
            (
                'return earlier == [] if event_type == "tool_call"',
                'return earlier[-1:] != ["tool_call"] if event_type == "tool_call"',
            ),
        ),
    ),
    Mutant(
        "results_counted_across_sessions",
        "c07_tuple_log",
        "reject_bad_input",
        "Tool results of other sessions count when checking a call id.",
        (
            (
                "        if e.session_id == session_id\n",
                '        if (e.session_id == session_id or e.type == "tool_result")\n',
            ),
        ),
    ),
    Mutant(
        "negative_after_id_reads_nothing",
        "c07_tuple_log",
        "read_and_resume",
        "A negative after_event_id reads nothing instead of every event.",
        (
            (
                f"return tuple(e for e in log if {READ_FILTER})",
                f"return () if after_event_id < 0 else tuple(e for e in log if {READ_FILTER})",
            ),
        ),
    ),
    Mutant(
        "session_ids_compared_without_case",
        "c07_tuple_log",
        "read_and_resume",
        'Session ids are compared without case, so "a" reads the events of "A".',
        (("e.session_id == session_id and", "e.session_id.lower() == session_id.lower() and"),),
    ),
    Mutant(
        "sessions_listed_without_case",
        "c07_tuple_log",
        "list_sessions",
        'Sessions are listed by their lower-case id, so "A" and "a" become one.',
        (
            (
                "dict.fromkeys(e.session_id for e in log)",
                "dict.fromkeys(e.session_id.lower() for e in log)",
            ),
        ),
    ),
    Mutant(
        "payload_values_copied_one_level",
        "c07_tuple_log",
        "append_and_ids",
        "Payload values are copied one level deep, so a nested list is shared with the caller.",
        (("items = tuple((key, copy.deepcopy(value))", "items = tuple((key, copy.copy(value))"),),
    ),
    # --- the classes of bug issue 10 found getting full marks ------------------------------
    Mutant(
        "branches_share_one_list",
        "c07_tuple_log",
        # Task 1 sees only that the log changed (its probes append to every log); the readers'
        # tasks see whose fault it is: the append to an older log.
        "read_and_resume",
        "Every log is a window of one shared list: appending to an older log overwrites the "
        "newer logs' events.",
        (
            (
                "EventLog = tuple[Event, ...]\n",
                "class EventLog:\n"
                '    """A length over a list that every later log shares."""\n'
                "\n"
                "    def __init__(self, store: list[Event], length: int) -> None:\n"
                "        self.store, self.length = store, length\n"
                "\n"
                "    def __iter__(self) -> Any:\n"
                "        return iter(self.store[: self.length])\n"
                "\n"
                "    def __len__(self) -> int:\n"
                "        return self.length\n"
                "\n"
                "    def __getitem__(self, index: int) -> Event:\n"
                "        return self.store[: self.length][index]\n",
            ),
            (
                '    """Return an empty log: the empty tuple."""\n    return ()\n',
                '    """Return an empty log."""\n    return EventLog([], 0)\n',
            ),
            (
                "    return (*log, event), event\n",
                "    log.store[log.length :] = [event]\n"
                "    return EventLog(log.store, log.length + 1), event\n",
            ),
        ),
    ),
    Mutant(
        "reads_hand_out_the_logs_list",
        "c08_frozen_dict_log",
        "read_and_resume",
        "A read from the start hands out the list the log keeps, so clearing it empties the log.",
        (
            (
                "    sessions[session_id] = (*sessions.get(session_id, ()), event)\n",
                "    sessions[session_id] = [*sessions.get(session_id, []), event]\n",
            ),
            (
                "    return tuple(e for e in log.sessions.get(session_id, ()) if e.event_id > after_event_id)\n",
                "    events = log.sessions.get(session_id, [])\n"
                "    if after_event_id <= 0:\n"
                "        return events  # type: ignore[return-value]\n"
                "    return tuple(e for e in events if e.event_id > after_event_id)\n",
            ),
        ),
    ),
    Mutant(
        "sessions_list_kept_in_the_log",
        "c08_frozen_dict_log",
        "list_sessions",
        "list_sessions hands out a list the log keeps, so a caller's append shows up in the next "
        "call.",
        (
            (
                "    count: int = 0\n",
                "    count: int = 0\n    order: list[str] = field(default_factory=list)\n",
            ),
            (
                "    return EventLog(sessions, log.count + 1), event\n",
                "    order = log.order if session_id in log.sessions else [*log.order, session_id]\n"
                "    return EventLog(sessions, log.count + 1, order), event\n",
            ),
            (
                "    return tuple(log.sessions)\n",
                "    return log.order  # type: ignore[return-value]\n",
            ),
        ),
    ),
    Mutant(
        "events_are_mutable",
        "c08_frozen_dict_log",
        "append_and_ids",
        "Events are a plain (not frozen) dataclass shared with the log, so assigning to "
        "e.event_id rewrites history.",
        (("@dataclass(frozen=True)\nclass Event:", "@dataclass\nclass Event:"),),
    ),
    Mutant(
        "refuses_payloads_that_are_not_dicts",
        "c08_frozen_dict_log",
        "reject_bad_input",
        "Only a dict is accepted as payload, though any mapping is valid.",
        (
            (
                "    if not isinstance(payload, Mapping):\n",
                "    if not isinstance(payload, dict):\n",
            ),
        ),
    ),
    Mutant(
        "deep_copies_a_mapping_proxy",
        "c08_frozen_dict_log",
        "reject_bad_input",
        "copy.deepcopy(payload) is called on the payload as given, which raises TypeError for a "
        "types.MappingProxyType.",
        (
            (
                "copy.deepcopy(dict(payload)))",
                "dict(copy.deepcopy(payload)))",
            ),
        ),
    ),
    Mutant(
        "pair_returned_as_a_triple",
        "c07_tuple_log",
        "append_and_ids",
        "append_event returns a list of three items instead of the pair (new_log, event).",
        (
            (
                "    return (*log, event), event\n",
                "    return [(*log, event), event, None]  # type: ignore[return-value]\n",
            ),
        ),
        frozenset({"reject_bad_input", "read_and_resume", "list_sessions", "replay"}),
    ),
    Mutant(
        "payload_attribute_renamed",
        "c08_frozen_dict_log",
        "append_and_ids",
        "The event's payload attribute is called details, so readers cannot find payload.",
        (
            (
                "    def payload(self) -> dict[str, Any]:\n",
                "    def details(self) -> dict[str, Any]:\n",
            ),
            ("        p = event.payload\n", "        p = event.details\n"),
        ),
        frozenset({"read_and_resume", "reject_bad_input"}),
    ),
    Mutant(
        "refuses_extra_payload_keys",
        "c07_tuple_log",
        "reject_bad_input",
        "A payload with keys beyond the required ones is refused, though extra keys are valid.",
        (
            (
                "    if not isinstance(payload, Mapping):\n        return False\n",
                "    if not isinstance(payload, Mapping):\n        return False\n"
                "    if set(payload) - set(NEEDS[event_type]):\n        return False\n",
            ),
        ),
    ),
    Mutant(
        "refuses_a_result_after_other_events",
        "c07_tuple_log",
        "reject_bad_input",
        "A tool_result is refused unless it directly follows its call in the session.",
        (
            (
                '    return earlier == [] if event_type == "tool_call" else earlier == ["tool_call"]\n',
                "    last = [e for e in log if e.session_id == session_id][-1:]\n"
                '    if event_type == "tool_call":\n'
                "        return earlier == []\n"
                '    return earlier == ["tool_call"] and last[0].payload.get("call_id") == call_id\n',
            ),
        ),
    ),
    Mutant(
        "refuses_unusual_session_ids",
        "c07_tuple_log",
        "reject_bad_input",
        "Session ids with spaces or non-ASCII characters are refused, though any non-empty str "
        "is valid.",
        (
            (
                "    if not isinstance(session_id, str) or not session_id:\n",
                "    if not isinstance(session_id, str) or not session_id.strip() or not session_id.isascii():\n",
            ),
        ),
    ),
    Mutant(
        "refuses_non_ascii_content",
        "c07_tuple_log",
        "reject_bad_input",
        "Content with non-ASCII characters is refused, though any str is valid content.",
        (
            (
                "        if key in NON_EMPTY and not payload[key]:\n",
                '        if key == "content" and not payload[key].isascii():\n'
                "            return False\n"
                "        if key in NON_EMPTY and not payload[key]:\n",
            ),
        ),
    ),
    Mutant(
        "refuses_repeated_user_messages",
        "c07_tuple_log",
        "reject_bad_input",
        "Two user messages in a row are refused, though nothing in the contract forbids them.",
        (
            (
                '    tool_event = event_type in ("tool_call", "tool_result")\n',
                "    mine = [e.type for e in log if e.session_id == session_id]\n"
                '    if event_type == "user_message" and mine[-1:] == ["user_message"]:\n'
                '        raise ValueError("two user messages in a row")\n'
                '    tool_event = event_type in ("tool_call", "tool_result")\n',
            ),
        ),
    ),
    Mutant(
        "refused_session_still_listed",
        "c08_frozen_dict_log",
        "list_sessions",
        "The session is registered in the log's own dict before the append is checked, so a "
        "session whose only append was refused is listed.",
        (
            (
                "    _validate(log, session_id, event_type, payload)\n    event =",
                "    if isinstance(session_id, str):\n"
                "        log.sessions.setdefault(session_id, ())  # before the checks: the bug\n"
                "    _validate(log, session_id, event_type, payload)\n    event =",
            ),
        ),
    ),
    Mutant(
        "arguments_reserialised",
        "c07_tuple_log",
        "append_and_ids",
        "Tool arguments are re-serialised with json.dumps(json.loads(...)), which changes their "
        "spacing, key order and escapes; the replay shows the changed text too.",
        (
            (
                "    items = tuple((key, copy.deepcopy(value)) for key, value in payload.items())\n",
                "    items = tuple((key, _reserialised(key, value)) for key, value in payload.items())\n",
            ),
            (
                "def get_events_for_session(",
                "def _reserialised(key: str, value: Any) -> Any:\n"
                "    import json\n"
                "\n"
                "    try:\n"
                '        if key == "arguments":\n'
                "            return json.dumps(json.loads(value))\n"
                "    except ValueError:\n"
                "        pass\n"
                "    return copy.deepcopy(value)\n"
                "\n"
                "\n"
                "def get_events_for_session(",
            ),
        ),
        frozenset({"replay"}),
    ),
)

C07_ID = "    event = Event(len(log) + 1, session_id, event_type, items)\n"
C07_READ = "    return tuple(e for e in log if e.session_id == session_id and e.event_id > after_event_id)\n"
C07_ITEMS = "    items = tuple((key, copy.deepcopy(value)) for key, value in payload.items())\n"
C07_FITS = (
    "        if e.session_id == session_id\n"
    '        and e.type in ("tool_call", "tool_result")\n'
    '        and e.payload["call_id"] == call_id\n'
)
C07_TYPE = "    if not isinstance(event_type, str) or event_type not in NEEDS:\n"
C07_USER = '            messages.append({"role": "user", "content": p["content"]})\n'
C07_RESULT = '            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})\n'
C07_RUN = '            if previous == "tool_call":\n'
C07_VALID = "    if not isinstance(payload, Mapping):\n        return False\n"
C07_VERDICT = (
    '    return earlier == [] if event_type == "tool_call" else earlier == ["tool_call"]\n'
)

#: Mutants whose bug lives in an input class the examples reach only since issue 17: sizes
#: past 9, 99, 255 and 999; open alphabets (case, prefixes, Unicode forms, separators, control
#: characters); deep or odd payloads; branches; refusals deep in a history. Each names its
#: class in ``INPUT_CLASSES`` (tests/grader/test_clauses.py checks each class has one).
INPUT_CLASS_MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "ids_wrap_at_256",
        "c07_tuple_log",
        "append_and_ids",
        "Ids are kept in one byte: the 256th event gets id 1 again.",
        ((C07_ID, "    event = Event(len(log) % 255 + 1, session_id, event_type, items)\n"),),
        frozenset({"read_and_resume", "replay", "reject_bad_input"}),
        needs_size="the first wrong id is the 256th event's",
    ),
    Mutant(
        "reads_scan_the_last_100",
        "c07_tuple_log",
        "read_and_resume",
        "Reads look at the last 100 events only: a long log loses its oldest events.",
        (
            (
                C07_READ,
                "    return tuple(e for e in log[-100:] if e.session_id == session_id and e.event_id > after_event_id)\n",
            ),
        ),
        frozenset({"replay", "reject_bad_input"}),
        needs_size="a read loses events only from a log of more than 100",
    ),
    Mutant(
        "reads_sorted_by_text_id",
        "c07_tuple_log",
        "read_and_resume",
        "Reads sort events by their id as text: event 10 comes before event 9.",
        (
            (
                C07_READ,
                "    return tuple(sorted((e for e in log if e.session_id == session_id and e.event_id > after_event_id), key=lambda e: str(e.event_id)))\n",
            ),
        ),
        frozenset({"replay", "reject_bad_input"}),
        needs_size="ids sort wrongly as text only from id 10 on: a session of ten events",
    ),
    Mutant(
        "sessions_compared_after_nfc",
        "c07_tuple_log",
        "read_and_resume",
        'Reads compare session ids after Unicode normalisation: "é" written two ways is one session.',
        (
            (
                C07_READ,
                "    import unicodedata\n    return tuple(e for e in log if unicodedata.normalize('NFC', e.session_id) == unicodedata.normalize('NFC', session_id) and e.event_id > after_event_id)\n",
            ),
        ),
        frozenset({"replay", "reject_bad_input"}),
    ),
    Mutant(
        "call_ids_keyed_with_a_colon",
        "c07_tuple_log",
        "reject_bad_input",
        "Call ids are checked by a key joining session and call id with ':', so session 'a:b' calling 'c' answers session 'a' asking for 'b:c'.",
        (
            (
                C07_FITS,
                '        if f"{e.session_id}:{e.payload[\'call_id\']}" == f"{session_id}:{call_id}"\n        and e.type in ("tool_call", "tool_result")\n',
            ),
        ),
    ),
    Mutant(
        "call_ids_without_case",
        "c07_tuple_log",
        "reject_bad_input",
        'Call ids are compared without case: "Call_1" counts as "call_1".',
        (
            (
                C07_FITS,
                '        if e.session_id == session_id\n        and e.type in ("tool_call", "tool_result")\n        and e.payload["call_id"].lower() == call_id.lower()\n',
            ),
        ),
        frozenset({"append_and_ids"}),
    ),
    Mutant(
        "call_ids_checked_in_a_window",
        "c07_tuple_log",
        "reject_bad_input",
        "Call ids are checked against the last 50 events only: a call reused after a long gap is accepted.",
        (
            (
                "        for e in log\n        if e.session_id == session_id\n",
                "        for e in log[-50:]\n        if e.session_id == session_id\n",
            ),
        ),
        frozenset({"append_and_ids"}),
        needs_size="a call is forgotten only 50 events after it was made",
    ),
    Mutant(
        "long_content_refused",
        "c07_tuple_log",
        "reject_bad_input",
        "Content longer than 65,536 characters is refused.",
        (
            (
                C07_VALID,
                C07_VALID
                + "    if len(str(payload.get('content', ''))) > 65536:\n        return False\n",
            ),
        ),
        frozenset({"append_and_ids"}),
    ),
    Mutant(
        "crlf_normalised",
        "c07_tuple_log",
        "append_and_ids",
        "Line breaks in text values are normalised: \\r\\n is stored as \\n.",
        (
            (
                C07_ITEMS,
                "    items = tuple((key, value.replace('\\r\\n', '\\n') if isinstance(value, str) else copy.deepcopy(value)) for key, value in payload.items())\n",
            ),
        ),
        frozenset({"read_and_resume", "replay", "reject_bad_input"}),
    ),
    Mutant(
        "unprintable_content_refused",
        "c07_tuple_log",
        "reject_bad_input",
        "Content with control characters is refused.",
        (
            (
                C07_VALID,
                C07_VALID
                + "    if not str(payload.get('content', '')).replace('\\n', '').isprintable():\n        return False\n",
            ),
        ),
        frozenset({"append_and_ids"}),
    ),
    Mutant(
        "copy_stops_at_depth_two",
        "c07_tuple_log",
        "append_and_ids",
        "The payload is copied two levels deep: a list three levels down is still the caller's.",
        (
            (
                C07_ITEMS,
                "    def two(v, depth=0):\n        if depth >= 2:\n            return v\n        if isinstance(v, dict):\n            return {k: two(x, depth + 1) for k, x in v.items()}\n        if isinstance(v, list):\n            return [two(x, depth + 1) for x in v]\n        return v\n    items = tuple((key, two(value)) for key, value in payload.items())\n",
            ),
        ),
        frozenset({"read_and_resume"}),
    ),
    Mutant(
        "tuples_not_copied",
        "c07_tuple_log",
        "append_and_ids",
        "The copy walks dicts and lists but keeps tuples as they are: a list inside a tuple is still the caller's.",
        (
            (
                C07_ITEMS,
                "    def copied(v):\n        if isinstance(v, dict):\n            return {k: copied(x) for k, x in v.items()}\n        if isinstance(v, list):\n            return [copied(x) for x in v]\n        return v\n    items = tuple((key, copied(value)) for key, value in payload.items())\n",
            ),
        ),
        frozenset({"read_and_resume"}),
    ),
    Mutant(
        "proxy_copied_shallowly",
        "c07_tuple_log",
        "append_and_ids",
        "A MappingProxyType payload is copied by its items only: a nested list behind it is still the caller's.",
        (
            (
                C07_ITEMS,
                "    from types import MappingProxyType\n    if isinstance(payload, MappingProxyType):\n        items = tuple(payload.items())\n    else:\n        items = tuple((key, copy.deepcopy(value)) for key, value in payload.items())\n",
            ),
        ),
        frozenset({"read_and_resume"}),
    ),
    Mutant(
        "empty_reads_share_one_list",
        "c06_lists_everywhere",
        "read_and_resume",
        "A read that finds nothing returns one module-level list, the same for every caller.",
        (
            (
                "    return [e for e in log.events if e.session_id == session_id and e.event_id > after_event_id]\n",
                "    found = [e for e in log.events if e.session_id == session_id and e.event_id > after_event_id]\n    return found or NOTHING\n\n\nNOTHING: list[Event] = []\n",
            ),
        ),
    ),
    Mutant(
        "replay_cached_by_length",
        "c07_tuple_log",
        "replay",
        "Replays are cached by (session, length of the log): two branches of the same length replay alike.",
        (
            (
                'def replay_session(log: EventLog, session_id: str) -> tuple[dict[str, Any], ...]:\n    """Return the session as Chat Completions messages, built fresh on every call."""\n',
                'CACHE: dict[Any, Any] = {}\n\n\ndef replay_session(log: EventLog, session_id: str) -> tuple[dict[str, Any], ...]:\n    """Return the session as Chat Completions messages, built fresh on every call."""\n    key = (session_id, len(log))\n    if key not in CACHE:\n        CACHE[key] = _replay(log, session_id)\n    return copy.deepcopy(CACHE[key])\n\n\ndef _replay(log: EventLog, session_id: str) -> tuple[dict[str, Any], ...]:\n',
            ),
        ),
    ),
    Mutant(
        "replay_run_capped_at_five",
        "c07_tuple_log",
        "replay",
        "A run of tool calls holds at most five calls; the sixth starts a new message.",
        (
            (
                C07_RUN,
                '            if previous == "tool_call" and len(messages[-1]["tool_calls"]) < 5:\n',
            ),
        ),
        needs_size="a run of calls splits only at its sixth call",
    ),
    Mutant(
        "replay_passes_the_name_key",
        "c07_tuple_log",
        "replay",
        "A user message's extra 'name' key is copied into its chat message.",
        (
            (
                C07_USER,
                '            messages.append({"role": "user", "content": p["content"], **({"name": p["name"]} if "name" in p else {})})\n',
            ),
        ),
    ),
    Mutant(
        "replay_parses_json_results",
        "c07_tuple_log",
        "replay",
        "A tool result whose content is JSON is parsed and written back compact.",
        (
            (
                C07_RESULT,
                '            import json\n            try:\n                text = json.dumps(json.loads(p["content"]), separators=(\',\', \':\'))\n            except ValueError:\n                text = p["content"]\n            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": text})\n',
            ),
        ),
    ),
    Mutant(
        "replay_calls_join_an_empty_assistant_message",
        "c07_tuple_log",
        "replay",
        "A tool call joins the message before it when that message is an assistant message with empty text.",
        (
            (
                C07_RUN,
                '            if previous == "tool_call" or (messages and messages[-1].get("role") == "assistant" and not messages[-1].get("content") and "tool_calls" not in messages[-1] and messages[-1].setdefault("tool_calls", []) == []):\n',
            ),
        ),
    ),
    Mutant(
        "unhashable_type_raises_type_error",
        "c07_tuple_log",
        "reject_bad_input",
        "The event type is looked up in a set first: a list as the type raises TypeError, not ValueError.",
        ((C07_TYPE, "    if event_type not in set(NEEDS):\n"),),
    ),
    Mutant(
        "call_ids_with_spaces_refused",
        "c07_tuple_log",
        "reject_bad_input",
        "A call id or tool name with a space in it is refused.",
        (
            (
                C07_VALID,
                C07_VALID
                + "    if \" \" in str(payload.get('call_id', '')) + str(payload.get('name', '')):\n        return False\n",
            ),
        ),
        frozenset({"append_and_ids"}),
    ),
    Mutant(
        "call_ids_checked_against_the_last_call",
        "c07_tuple_log",
        "reject_bad_input",
        "A new call id is compared with the session's last call only: an older one may be reused.",
        (
            (
                C07_VERDICT,
                '    if event_type == "tool_call":\n'
                '        calls = [e.payload["call_id"] for e in log if e.session_id == session_id and e.type == "tool_call"]\n'
                "        return not calls or calls[-1] != call_id\n"
                '    return earlier == ["tool_call"]\n',
            ),
        ),
    ),
    Mutant(
        "call_ids_checked_in_the_last_run",
        "c07_tuple_log",
        "reject_bad_input",
        "A new call id is compared with the current run of calls only: once any other event comes, every id is free again.",
        (
            (
                C07_VERDICT,
                '    if event_type == "tool_call":\n'
                "        run: list[str] = []\n"
                "        for e in log:\n"
                "            if e.session_id == session_id:\n"
                '                run = run + [e.payload["call_id"]] if e.type == "tool_call" else []\n'
                "        return call_id not in run\n"
                '    return earlier == ["tool_call"]\n',
            ),
        ),
    ),
)
MUTANTS = MUTANTS + INPUT_CLASS_MUTANTS
