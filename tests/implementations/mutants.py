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

C07_ITEMS_AND_ID = C07_ITEMS + C07_ID
C07_FITS_CALL = (
    '    if tool_event and not _call_id_fits(log, session_id, event_type, payload["call_id"]):\n'
)
C07_SESSIONS = "    return tuple(dict.fromkeys(e.session_id for e in log))\n"
C07_RETURN_MESSAGES = "        previous = event.type\n    return tuple(messages)\n"
C07_CALL_MESSAGE = '{"role": "assistant", "content": None, "tool_calls": [call]}'
C07_EARLIER = (
    "    earlier = [\n        e.type\n        for e in log\n        if e.session_id == session_id\n"
)

#: The rest of a depth-counting copy of c07's payload, once its own rule for ``depth`` ran.
C07_COPIED_DEEPER = (
    "        if isinstance(v, Mapping):\n"
    "            return {k: copied(x, depth + 1) for k, x in v.items()}\n"
    "        if isinstance(v, list | tuple):\n"
    "            return type(v)(copied(x, depth + 1) for x in v)\n"
    "        return v\n"
    "    items = tuple((key, copied(value)) for key, value in payload.items())\n"
)

#: c11 with its payload frozen once, when it is stored, and handed out as stored (the
#: reference's way): what a reader gets is the log's own, so a freeze that stops short shows.
C11_FREEZE = (
    "def freeze(value: Any) -> Any:\n"
    '    """A read-only copy of ``value``: dicts become read-only mappings, lists tuples."""\n'
    "    if isinstance(value, Mapping):\n"
    "        return MappingProxyType({key: freeze(item) for key, item in value.items()})\n"
    "    if isinstance(value, list | tuple):\n"
    "        return tuple(freeze(item) for item in value)\n"
    "    return value\n"
)
C11_HANDED_OUT_AS_STORED = (
    (
        "        return freeze(dict(self.payload_items))\n",
        "        return MappingProxyType(dict(self.payload_items))\n",
    ),
    (
        "    items = tuple((key, copy.deepcopy(value)) for key, value in payload.items())\n",
        "    items = tuple((key, freeze(value)) for key, value in payload.items())\n",
    ),
)

#: Mutants whose bug only an example of issue 28 reaches: a size past the largest example
#: before it (at a power of two, or one past it), or a mechanism no example exercised.
#: tests/grader/test_edge_examples.py names the one example that catches each, and shows
#: the mutant gets full marks on its task without it.
EDGE_MUTANTS: tuple[Mutant, ...] = (
    # --- sizes ------------------------------------------------------------------------------
    Mutant(
        "ids_wrap_at_1024",
        "c07_tuple_log",
        "append_and_ids",
        "Ids are kept in ten bits: the 1,025th event gets id 1 again.",
        ((C07_ID, "    event = Event(len(log) % 1024 + 1, session_id, event_type, items)\n"),),
        frozenset({"read_and_resume", "list_sessions", "replay", "reject_bad_input"}),
        needs_size="the first wrong id is the 1,025th event's",
    ),
    Mutant(
        "reads_return_at_most_1024_events",
        "c07_tuple_log",
        "read_and_resume",
        "A read returns a page of 1,024 events at most: the rest of a longer session is lost.",
        (
            (
                C07_READ,
                "    return tuple(e for e in log if e.session_id == session_id and e.event_id > after_event_id)[:1024]\n",
            ),
        ),
        frozenset({"replay", "reject_bad_input"}),
        needs_size="a read loses events only from a session of more than 1,024",
    ),
    Mutant(
        "sessions_listed_up_to_1024",
        "c07_tuple_log",
        "list_sessions",
        "list_sessions returns the first 1,024 sessions only.",
        ((C07_SESSIONS, "    return tuple(dict.fromkeys(e.session_id for e in log))[:1024]\n"),),
        needs_size="a list loses sessions only past 1,024 of them",
    ),
    Mutant(
        "results_matched_among_the_last_256_calls",
        "c07_tuple_log",
        "reject_bad_input",
        "A result is matched against the session's 256 newest calls only: with more calls open, "
        "the oldest can no longer be answered.",
        (
            (
                C07_VERDICT,
                '    if event_type == "tool_result":\n'
                '        calls = [e.payload["call_id"] for e in log if e.session_id == session_id and e.type == "tool_call"]\n'
                "        if call_id not in calls[-256:]:\n"
                "            return False\n" + C07_VERDICT,
            ),
        ),
        needs_size="a call is forgotten only once 256 newer calls are open",
    ),
    Mutant(
        "answers_remembered_for_the_last_256_results",
        "c07_tuple_log",
        "reject_bad_input",
        "Answers are remembered for the session's 256 newest results only: an older call can be "
        "answered a second time.",
        (
            (
                C07_VERDICT,
                '    if event_type == "tool_result":\n'
                '        answers = [e.payload["call_id"] for e in log if e.session_id == session_id and e.type == "tool_result"]\n'
                '        return "tool_call" in earlier and call_id not in answers[-256:]\n'
                + C07_VERDICT,
            ),
        ),
        needs_size="an answer is forgotten only after 256 newer results",
    ),
    Mutant(
        "results_looked_for_in_the_last_1024_events",
        "c07_tuple_log",
        "reject_bad_input",
        "A result's call is looked for among the log's last 1,024 events: a result that comes "
        "later than that is refused.",
        (
            (
                C07_VERDICT,
                '    if event_type == "tool_result" and not any(e.session_id == session_id and e.type == "tool_call" and e.payload["call_id"] == call_id for e in log[-1024:]):\n'
                "        return False\n" + C07_VERDICT,
            ),
        ),
        needs_size="a call is forgotten only 1,024 events after it was made",
    ),
    Mutant(
        "replay_runs_split_at_512_calls",
        "c07_tuple_log",
        "replay",
        "A run of tool calls holds 512 calls at most: the 513th starts a new message.",
        (
            (
                C07_RUN,
                '            if previous == "tool_call" and len(messages[-1]["tool_calls"]) < 512:\n',
            ),
        ),
        needs_size="a run of calls splits only at its 513th call",
    ),
    Mutant(
        "replay_returns_at_most_1024_messages",
        "c07_tuple_log",
        "replay",
        "A replay returns 1,024 messages at most: a longer session loses its newest.",
        (
            (
                C07_RETURN_MESSAGES,
                "        previous = event.type\n    return tuple(messages[:1024])\n",
            ),
        ),
        needs_size="a replay loses messages only past 1,024 of them",
    ),
    Mutant(
        "payload_lists_cut_at_2048_items",
        "c07_tuple_log",
        "append_and_ids",
        "A list or tuple in a payload keeps its first 2,048 items: a longer one is cut.",
        (
            (
                C07_ITEMS,
                "    items = tuple((key, copy.deepcopy(value[:2048] if isinstance(value, list | tuple) else value)) for key, value in payload.items())\n",
            ),
        ),
    ),
    Mutant(
        "payload_keys_cut_at_2048",
        "c07_tuple_log",
        "append_and_ids",
        "A payload keeps its first 2,048 keys: the keys of a wider one past that are lost.",
        (
            (
                C07_ITEMS,
                "    items = tuple((key, copy.deepcopy(value)) for key, value in list(payload.items())[:2048])\n",
            ),
        ),
    ),
    Mutant(
        "copy_stops_160_levels_down",
        "c07_tuple_log",
        "append_and_ids",
        "The copy goes 160 levels down at most, to stay clear of the recursion limit, and keeps "
        "None below: a deeper payload loses its innermost values.",
        (
            (
                C07_ITEMS,
                "    def copied(v, depth=1):\n"
                "        if isinstance(v, list | tuple | Mapping) and depth >= 160:\n"
                "            return None\n" + C07_COPIED_DEEPER,
            ),
        ),
    ),
    Mutant(
        "contents_of_a_power_of_two_lose_a_character",
        "c07_tuple_log",
        "append_and_ids",
        "A content is copied into a buffer of the next power of two from 128 up, one slot kept "
        "for a terminator: a content of exactly 128, 256, ... characters loses its last one.",
        (
            (
                C07_ITEMS,
                "    def buffered(key, v):\n"
                '        if key == "content" and isinstance(v, str) and len(v) >= 128 and len(v) & (len(v) - 1) == 0:\n'
                "            return v[:-1]\n"
                "        return copy.deepcopy(v)\n"
                "    items = tuple((key, buffered(key, value)) for key, value in payload.items())\n",
            ),
        ),
    ),
    Mutant(
        "session_ids_cut_at_2048",
        "c07_tuple_log",
        "append_and_ids",
        "Session ids are stored cut to 2,048 characters.",
        ((C07_ID, "    event = Event(len(log) + 1, session_id[:2048], event_type, items)\n"),),
    ),
    Mutant(
        "call_ids_compared_by_their_first_1024_characters",
        "c07_tuple_log",
        "append_and_ids",
        "Call ids are compared by their first 1,024 characters: a longer id that shares them with "
        "an earlier one counts as reused.",
        (
            (
                C07_FITS,
                C07_FITS.replace(
                    'e.payload["call_id"] == call_id',
                    'e.payload["call_id"][:1024] == call_id[:1024]',
                ),
            ),
        ),
        frozenset({"reject_bad_input"}),
    ),
    Mutant(
        "ints_stored_in_4096_bits",
        "c07_tuple_log",
        "append_and_ids",
        "Ints are stored as 512 bytes (4,096 bits): a larger one raises OverflowError.",
        (
            (
                C07_ITEMS,
                "    def stored(v):\n"
                "        if isinstance(v, int) and not isinstance(v, bool):\n"
                '            return int.from_bytes(v.to_bytes(512, "big", signed=True), "big", signed=True)\n'
                "        if isinstance(v, list | tuple):\n"
                "            return type(v)(stored(x) for x in v)\n"
                "        return copy.deepcopy(v)\n"
                "    items = tuple((key, stored(value)) for key, value in payload.items())\n",
            ),
        ),
    ),
    Mutant(
        "long_lists_handed_out_from_a_cache",
        "c07_tuple_log",
        "list_sessions",
        "A list of 512 sessions or more is cached and the cached list handed out: a caller who "
        "changes it changes the next list.",
        (
            (
                C07_SESSIONS,
                "    found = list(dict.fromkeys(e.session_id for e in log))\n"
                "    if len(found) < 512:\n"
                "        return tuple(found)\n"
                "    kept = LONG_LISTS.setdefault(id(log), (log, found))\n"
                "    return kept[1] if kept[0] is log else found  # type: ignore[return-value]\n\n\n"
                "LONG_LISTS: dict[Any, Any] = {}\n",
            ),
        ),
        needs_size="a list is cached only from 512 sessions on",
    ),
    # --- mechanisms -------------------------------------------------------------------------
    Mutant(
        "payload_keys_named_like_event_fields_dropped",
        "c07_tuple_log",
        "append_and_ids",
        "The payload is stored beside the event's fields in one record, so its own event_id and "
        "session_id keys are dropped.",
        (
            (
                C07_ITEMS,
                '    items = tuple((key, copy.deepcopy(value)) for key, value in payload.items() if key not in ("event_id", "session_id"))\n',
            ),
        ),
    ),
    Mutant(
        "results_checked_against_every_call_of_the_family",
        "c07_tuple_log",
        "reject_bad_input",
        "Calls are registered for the whole family of logs an empty log starts, so a result on an "
        "older log, or on a branch, is accepted for a call only a newer log made.",
        (
            (
                C07_VERDICT,
                '    if event_type == "tool_result" and log and (session_id, call_id) in CALLED.get(id(log[0]), (None, set()))[1]:\n'
                '        return "tool_result" not in earlier\n' + C07_VERDICT,
            ),
            (
                "    return (*log, event), event\n",
                '    if event_type == "tool_call":\n'
                "        root = log[0] if log else event\n"
                '        CALLED.setdefault(id(root), (root, set()))[1].add((session_id, payload["call_id"]))\n'
                "    return (*log, event), event\n\n\n"
                "CALLED: dict[int, Any] = {}\n",
            ),
        ),
    ),
    Mutant(
        "branches_cut_the_index_newer_logs_read",
        "c07_tuple_log",
        "read_and_resume",
        "Logs appended one after the other share an index of their sessions' events, which a "
        "whole read of a log of four events or more uses; a branch cuts that index back to its "
        "base in place, so the logs newer than the base lose their later events.",
        (
            (
                "    event = Event(len(log) + 1, session_id, event_type, items)\n    return (*log, event), event\n",
                "    event = Event(len(log) + 1, session_id, event_type, items)\n"
                "    new, entry = (*log, event), LINES.get(id(log))\n"
                "    line = entry[1] if entry and entry[0] is log else None\n"
                '    if line is not None and line["end"] == len(log):  # the newest log of its line\n'
                '        line["sessions"].setdefault(session_id, []).append(event)\n'
                '        line["end"] += 1\n'
                "    else:\n"
                "        if line is not None:  # a branch: the line is cut back to its base, in place\n"
                '            for events in line["sessions"].values():\n'
                "                events[:] = [e for e in events if e.event_id <= len(log)]\n"
                '            line["end"] = min(line["end"], len(log))\n'
                '        line = {"end": len(new), "sessions": {}}\n'
                "        for e in new:\n"
                '            line["sessions"].setdefault(e.session_id, []).append(e)\n'
                "    LINES[id(new)] = (new, line)\n"
                "    return new, event\n\n\n"
                "LINES: dict[int, Any] = {}\n",
            ),
            (
                C07_READ,
                "    entry = LINES.get(id(log))\n"
                "    if after_event_id <= 0 and len(log) >= 4 and entry and entry[0] is log:\n"
                '        return tuple(e for e in entry[1]["sessions"].get(session_id, ()) if e.event_id <= len(log))\n'
                + C07_READ,
            ),
        ),
        frozenset({"replay"}),
    ),
    Mutant(
        "payload_copies_cached_by_identity",
        "c07_tuple_log",
        "append_and_ids",
        "The copy of a payload is cached by the mapping's identity: the same dict passed again, "
        "changed since, is stored as it was the first time.",
        (
            (
                C07_ITEMS,
                "    kept = COPIES.get(id(payload))\n"
                "    if kept is None or kept[0] is not payload:\n"
                "        kept = COPIES[id(payload)] = (payload, tuple((key, copy.deepcopy(value)) for key, value in payload.items()))\n"
                "    items = kept[1]\n",
            ),
            (
                'NON_EMPTY = ("call_id", "name")\n',
                'NON_EMPTY = ("call_id", "name")\nCOPIES: dict[int, Any] = {}\n',
            ),
        ),
    ),
    Mutant(
        "replay_shows_a_refused_tool_event",
        "c07_tuple_log",
        "replay",
        "append_event writes each tool event on a scratch list of its log before checking its "
        "call id, and forgets to take it off when the check refuses it; replay shows what the "
        "scratch list holds.",
        (
            (
                C07_FITS_CALL,
                "    scratch = SCRATCH.setdefault(id(log), (log, []))\n"
                "    if tool_event and scratch[0] is log:\n"
                "        scratch[1].append((session_id, event_type, dict(payload)))\n"
                + C07_FITS_CALL,
            ),
            (
                C07_ITEMS,
                "    if tool_event and scratch[0] is log:\n        scratch[1].pop()\n" + C07_ITEMS,
            ),
            (
                "    for event in get_events_for_session(log, session_id):\n        p = event.payload\n",
                "    pending = SCRATCH.get(id(log), (None, []))\n"
                "    kept = pending[1] if pending[0] is log else []\n"
                "    extra = [Event(0, s, t, tuple(p.items())) for s, t, p in kept if s == session_id]\n"
                "    for event in [*get_events_for_session(log, session_id), *extra]:\n        p = event.payload\n",
            ),
            (
                'NON_EMPTY = ("call_id", "name")\n',
                'NON_EMPTY = ("call_id", "name")\nSCRATCH: dict[int, Any] = {}\n',
            ),
        ),
    ),
    Mutant(
        "arguments_with_several_keys_normalised",
        "c07_tuple_log",
        "append_and_ids",
        "Tool arguments that are a JSON object of several keys are written back with json.dumps, "
        "which changes their spacing, escapes and repeated keys.",
        (
            (
                C07_ITEMS,
                "    def normal(key, v):\n"
                "        import json\n"
                "        try:\n"
                '            if key == "arguments" and isinstance(json.loads(v), dict) and len(json.loads(v)) > 1:\n'
                "                return json.dumps(json.loads(v))\n"
                "        except (TypeError, ValueError):\n"
                "            pass\n"
                "        return copy.deepcopy(v)\n"
                "    items = tuple((key, normal(key, value)) for key, value in payload.items())\n",
            ),
        ),
        frozenset({"replay"}),
    ),
    Mutant(
        "compact_arguments_stored_with_sorted_keys",
        "c07_tuple_log",
        "append_and_ids",
        "Tool arguments already in compact JSON are written back with sorted keys, 'so that "
        "equal calls compare equal': spacing is kept, the order of the keys is not.",
        (
            (
                C07_ITEMS,
                "    def normal(key, v):\n"
                "        import json\n"
                "        try:\n"
                "            parsed = json.loads(v) if key == 'arguments' else None\n"
                "        except (TypeError, ValueError):\n"
                "            parsed = None\n"
                "        if isinstance(parsed, dict) and json.dumps(parsed, separators=(',', ':')) == v:\n"
                "            return json.dumps(parsed, separators=(',', ':'), sort_keys=True)\n"
                "        return copy.deepcopy(v)\n"
                "    items = tuple((key, normal(key, value)) for key, value in payload.items())\n",
            ),
        ),
    ),
    Mutant(
        "str_subclass_event_types_refused",
        "c07_tuple_log",
        "reject_bad_input",
        "The event type is checked with type(event_type) is str, so a subclass of str naming a "
        "valid type is refused.",
        ((C07_TYPE, "    if type(event_type) is not str or event_type not in NEEDS:\n"),),
    ),
    Mutant(
        "session_ids_compared_with_surrogates_replaced",
        "c07_tuple_log",
        "read_and_resume",
        'Reads compare session ids encoded with errors="replace": a lone surrogate reads as "?", '
        'so session "\\ud800" reads the events of session "?".',
        (
            (
                C07_READ,
                '    return tuple(e for e in log if e.session_id.encode("utf-8", "replace") == session_id.encode("utf-8", "replace") and e.event_id > after_event_id)\n',
            ),
        ),
        frozenset({"replay"}),
    ),
    Mutant(
        "session_ids_checked_for_messages_only",
        "c07_tuple_log",
        "reject_bad_input",
        "The session id is checked for user and assistant messages only: a tool event with a "
        "session id that is not a non-empty str is accepted.",
        (
            (
                "    if not isinstance(session_id, str) or not session_id:\n",
                '    if event_type in ("user_message", "assistant_message") and (not isinstance(session_id, str) or not session_id):\n',
            ),
        ),
    ),
    Mutant(
        "a_refused_tool_event_lets_its_retry_through",
        "c07_tuple_log",
        "reject_bad_input",
        "A refused tool event is remembered on its log, and the same one tried again is let "
        "through as a retry.",
        (
            (
                C07_FITS_CALL
                + "        raise ValueError(f\"call_id {payload['call_id']!r} does not fit this session\")\n",
                C07_FITS_CALL
                + "        tried = RETRIES.setdefault(id(log), (log, set()))\n"
                + '        key = (session_id, event_type, payload["call_id"])\n'
                + "        if tried[0] is not log or key not in tried[1]:\n"
                + "            tried[1].add(key)\n"
                + "            raise ValueError(f\"call_id {payload['call_id']!r} does not fit this session\")\n",
            ),
            (
                'NON_EMPTY = ("call_id", "name")\n',
                'NON_EMPTY = ("call_id", "name")\nRETRIES: dict[int, Any] = {}\n',
            ),
        ),
    ),
    Mutant(
        "reused_call_ids_looked_for_in_the_last_1024_events",
        "c07_tuple_log",
        "reject_bad_input",
        "A new call's id is looked for among the log's last 1,024 events only: an id first used "
        "longer ago may be used again.",
        (
            (
                C07_VERDICT,
                '    if event_type == "tool_call":\n'
                '        return not any(e.session_id == session_id and e.type in ("tool_call", "tool_result") and e.payload["call_id"] == call_id for e in log[-1024:])\n'
                + C07_VERDICT,
            ),
        ),
        needs_size="a call id is forgotten only 1,024 events after it was used",
    ),
    Mutant(
        "sessions_listed_by_family",
        "c07_tuple_log",
        "list_sessions",
        'Sessions are listed family by family (the part of the id before the first "."), each '
        "family where its first session came: user.1, user.2, bot.1 instead of user.1, bot.1, "
        "user.2.",
        (
            (
                C07_SESSIONS,
                "    seen = tuple(dict.fromkeys(e.session_id for e in log))\n"
                '    families = dict.fromkeys(s.split(".")[0] for s in seen)\n'
                '    return tuple(s for f in families for s in seen if s.split(".")[0] == f)\n',
            ),
        ),
    ),
    Mutant(
        "sessions_listed_with_surrogate_pairs_joined",
        "c07_tuple_log",
        "list_sessions",
        "Session ids are listed as JSON text would spell them: a surrogate pair joined into the "
        "character it encodes, so that pair and that character are listed as one session.",
        (
            (
                C07_SESSIONS,
                "    return tuple(dict.fromkeys(\n"
                '        e.session_id.encode("utf-16-le", "surrogatepass").decode(\n'
                '            "utf-16-le", "surrogatepass"\n'
                "        )\n"
                "        for e in log\n"
                "    ))\n",
            ),
        ),
    ),
    Mutant(
        "tool_call_messages_take_content_from_the_payload",
        "c07_tuple_log",
        "replay",
        "A tool call's message takes its content from the payload's own \"content\" key, which a "
        "tool_call does not have to hold, instead of None.",
        (
            (
                C07_CALL_MESSAGE,
                '{"role": "assistant", "content": p.get("content"), "tool_calls": [call]}',
            ),
        ),
    ),
    Mutant(
        "refused_calls_reserve_their_id",
        "c07_tuple_log",
        "reject_bad_input",
        "A tool_call refused for its payload still reserves its call id on the log it was tried "
        "on, until that log is extended (as a store shared by log versions, rebuilt for a "
        "branch, would): the same call, made right at once, is refused.",
        (
            (
                'NON_EMPTY = ("call_id", "name")\n',
                'NON_EMPTY = ("call_id", "name")\nRESERVED: dict[int, Any] = {}\n',
            ),
            (
                "    if not _valid_payload(event_type, payload):\n",
                "    held = RESERVED.get(id(log))\n"
                "    call_id = payload.get('call_id') if isinstance(payload, Mapping) else None\n"
                "    key = (session_id, call_id) if isinstance(call_id, str) and call_id else None\n"
                "    if event_type == 'tool_call' and held and held[0] is log and key in held[1]:\n"
                "        raise ValueError(f'call_id {call_id!r} is already used')\n"
                "    if not _valid_payload(event_type, payload):\n"
                "        if event_type == 'tool_call' and key is not None:\n"
                "            RESERVED.setdefault(id(log), (log, set()))[1].add(key)\n",
            ),
            (
                "    return (*log, event), event\n",
                "    RESERVED.pop(id(log), None)\n    return (*log, event), event\n",
            ),
        ),
    ),
    Mutant(
        "a_refused_result_forgets_its_call",
        "c07_tuple_log",
        "reject_bad_input",
        "A second result refused for an answered call makes the log it was tried on forget the "
        "call: the same call id is then let through as a new call there.",
        (
            (
                'NON_EMPTY = ("call_id", "name")\n',
                'NON_EMPTY = ("call_id", "name")\nFORGOTTEN: dict[int, Any] = {}\n',
            ),
            (
                C07_FITS_CALL,
                "    held = FORGOTTEN.get(id(log))\n"
                "    forgotten = held[1] if held and held[0] is log else set()\n"
                "    key = (session_id, payload['call_id']) if tool_event else None\n"
                "    if event_type == 'tool_call' and key in forgotten:\n"
                "        tool_event = False\n"
                "    if tool_event and event_type == 'tool_result' and not _call_id_fits(\n"
                "        log, session_id, event_type, payload['call_id']\n"
                "    ):\n"
                "        FORGOTTEN.setdefault(id(log), (log, set()))[1].add(key)\n" + C07_FITS_CALL,
            ),
        ),
    ),
    Mutant(
        "another_sessions_result_ends_a_run",
        "c07_tuple_log",
        "replay",
        "Replay walks the whole log, and a tool_result of any session ends the run of calls "
        "being built, so a run with another session's result inside it is split in two.",
        (
            (
                "    for event in get_events_for_session(log, session_id):\n",
                "    for event in log:\n"
                "        if event.session_id != session_id:\n"
                "            previous = None if event.type == 'tool_result' else previous\n"
                "            continue\n",
            ),
        ),
    ),
    Mutant(
        "assistant_messages_pass_refusal_through",
        "c07_tuple_log",
        "replay",
        'An assistant message also takes a "refusal" from its payload when there is one, a '
        "field the API knows, instead of holding only the keys the contract shows.",
        (
            (
                '            messages.append({"role": "assistant", "content": p["content"]})\n',
                '            message = {"role": "assistant", "content": p["content"]}\n'
                '            messages.append({**message, **{k: p[k] for k in ("refusal",) if k in p}})\n',
            ),
        ),
    ),
    Mutant(
        "sessions_seen_looked_for_in_a_joined_text",
        "c07_tuple_log",
        "list_sessions",
        "The sessions seen are kept in one text, each followed by a unit separator, and an id "
        "counts as seen when it occurs there between two: a piece of an earlier id that "
        "holds the separator is never listed.",
        (
            (
                C07_SESSIONS,
                '    seen, listed = "\\x1f", []\n'
                "    for e in log:\n"
                '        if f"\\x1f{e.session_id}\\x1f" not in seen:\n'
                '            seen += e.session_id + "\\x1f"\n'
                "            listed.append(e.session_id)\n"
                "    return tuple(listed)\n",
            ),
        ),
    ),
    Mutant(
        "tool_names_cleaned_into_utf8",
        "c07_tuple_log",
        "append_and_ids",
        "A tool's name is stored cleaned into UTF-8 (encoded with errors='replace'), so a lone "
        "surrogate in it becomes '?'.",
        (
            (
                C07_ITEMS,
                "    def clean(key, value):\n"
                "        if event_type == 'tool_call' and key == 'name':\n"
                "            return value.encode('utf-8', 'replace').decode('utf-8')\n"
                "        return copy.deepcopy(value)\n"
                "    items = tuple((key, clean(key, value)) for key, value in payload.items())\n",
            ),
        ),
    ),
    Mutant(
        "payload_keys_must_be_utf8",
        "c07_tuple_log",
        "append_and_ids",
        "Payload keys must encode as UTF-8 (so that they can be stored as text), so a payload "
        "with a lone surrogate in a key is refused.",
        ((C07_VALID, C07_VALID + "    for key in payload:\n        key.encode('utf-8')\n"),),
    ),
    Mutant(
        "call_ids_compared_by_their_escaped_utf8",
        "c07_tuple_log",
        "append_and_ids",
        "Call ids are compared by their UTF-8 with errors='backslashreplace', so a lone "
        "surrogate and the six characters of its escape are one id.",
        (
            (
                '        and e.payload["call_id"] == call_id\n',
                '        and e.payload["call_id"].encode("utf-8", "backslashreplace")\n'
                '        == call_id.encode("utf-8", "backslashreplace")\n',
            ),
        ),
    ),
    Mutant(
        "replayed_arguments_made_utf8_safe",
        "c07_tuple_log",
        "replay",
        "Replay makes a call's arguments safe to send as UTF-8 (encoded with errors='replace'), "
        "so a lone surrogate in them comes back as '?'.",
        (
            (
                '            function = {"name": p["name"], "arguments": p["arguments"]}\n',
                '            safe = p["arguments"].encode("utf-8", "replace").decode("utf-8")\n'
                '            function = {"name": p["name"], "arguments": safe}\n',
            ),
        ),
    ),
    Mutant(
        "sessions_read_by_their_crc32",
        "c07_tuple_log",
        "read_and_resume",
        "Reads compare sessions by the CRC-32 of their ids ('an int is cheaper to compare than "
        "a long string'): two ids with one checksum read as one session.",
        (
            (
                C07_READ,
                "    from zlib import crc32\n"
                "    def key(s):\n"
                "        return crc32(s.encode('utf-8', 'surrogatepass'))\n"
                "    return tuple(e for e in log if key(e.session_id) == key(session_id)"
                " and e.event_id > after_event_id)\n",
            ),
        ),
    ),
    Mutant(
        "session_ids_read_by_their_first_1024_characters",
        "c07_tuple_log",
        "read_and_resume",
        "Reads compare session ids by their first 1,024 characters, the width of the column "
        "they would be kept in: two ids that differ only later read as one session.",
        (
            (
                C07_READ,
                "    return tuple(e for e in log if e.session_id[:1024] == session_id[:1024]"
                " and e.event_id > after_event_id)\n",
            ),
        ),
    ),
    Mutant(
        "long_texts_kept_once_by_their_first_1024_characters",
        "c07_tuple_log",
        "append_and_ids",
        "Long texts are kept once each ('tool outputs repeat a lot'), under their length and "
        "first 1,024 characters: a later text alike in both is stored as the first one.",
        (
            (
                'NON_EMPTY = ("call_id", "name")\n',
                'NON_EMPTY = ("call_id", "name")\nLONG_TEXTS: dict[Any, str] = {}\n',
            ),
            (
                C07_ITEMS,
                "    def kept(value):\n"
                "        if isinstance(value, str) and len(value) > 1024:\n"
                "            return LONG_TEXTS.setdefault((len(value), value[:1024]), value)\n"
                "        return copy.deepcopy(value)\n"
                "    items = tuple((key, kept(value)) for key, value in payload.items())\n",
            ),
        ),
    ),
    Mutant(
        "payload_keys_must_be_exact_strs",
        "c07_tuple_log",
        "reject_bad_input",
        "Payload keys must be exactly of type str (meant to refuse int keys), so a payload "
        "whose key is a subclass of str is refused.",
        (
            (
                C07_VALID,
                C07_VALID
                + "    if any(type(key) is not str for key in payload):\n        return False\n",
            ),
        ),
    ),
    Mutant(
        "replayed_results_clipped_at_32768_characters",
        "c07_tuple_log",
        "replay",
        "Replay cuts a tool result's content to its first 32,768 characters, to fit a model's "
        "context.",
        (
            (
                C07_RESULT,
                C07_RESULT.replace('"content": p["content"]', '"content": p["content"][:32768]'),
            ),
        ),
        needs_size="a tool result of more than 32,768 characters",
    ),
    Mutant(
        "long_texts_stored_as_utf8_with_replace",
        "c07_tuple_log",
        "append_and_ids",
        "Texts longer than 32,768 characters are stored as UTF-8 (to be compressed) with "
        "errors='replace', so a lone surrogate in a long text comes back as '?'.",
        (
            (
                C07_ITEMS,
                "    def kept(value):\n"
                "        if isinstance(value, str) and len(value) > 32768:\n"
                "            return value.encode('utf-8', 'replace').decode('utf-8')\n"
                "        return copy.deepcopy(value)\n"
                "    items = tuple((key, kept(value)) for key, value in payload.items())\n",
            ),
        ),
        needs_size="a text of more than 32,768 characters",
    ),
    Mutant(
        "long_lists_copied_in_one_step",
        "c07_tuple_log",
        "append_and_ids",
        "A list of more than 512 items is taken for a row of data and copied in one step, "
        "tuple(value): a container inside it stays the caller's.",
        (
            (
                C07_ITEMS,
                "    def kept(value):\n"
                "        if isinstance(value, list) and len(value) > 512:\n"
                "            return tuple(value)\n"
                "        return copy.deepcopy(value)\n"
                "    items = tuple((key, kept(value)) for key, value in payload.items())\n",
            ),
        ),
        needs_size="a list of more than 512 items, changed by its caller",
    ),
    Mutant(
        "wide_mappings_wrapped_not_copied",
        "c07_tuple_log",
        "append_and_ids",
        "A mapping of more than 1,024 keys is kept as a view over the caller's own (a ChainMap "
        "of it) instead of copied: the caller can still change it.",
        (
            (
                C07_ITEMS,
                "    def kept(value):\n"
                "        if isinstance(value, dict) and len(value) > 1024:\n"
                "            return __import__('collections').ChainMap(value)\n"
                "        return copy.deepcopy(value)\n"
                "    items = tuple((key, kept(value)) for key, value in payload.items())\n",
            ),
        ),
        needs_size="a mapping of more than 1,024 keys, changed by its caller",
    ),
    Mutant(
        "sessions_seen_remembered_for_the_last_256",
        "c07_tuple_log",
        "list_sessions",
        "The list remembers the 256 sessions seen most recently, to skip repeats: a session "
        "that comes back after 256 others is listed again.",
        (
            (
                C07_SESSIONS,
                "    recent, listed = {}, []\n"
                "    for e in log:\n"
                "        if recent.pop(e.session_id, 0) == 0:\n"
                "            listed.append(e.session_id)\n"
                "        recent[e.session_id] = 1\n"
                "        if len(recent) > 256:\n"
                "            del recent[next(iter(recent))]\n"
                "    return tuple(listed)\n",
            ),
        ),
        needs_size="a session back after 256 others",
    ),
    Mutant(
        "long_reads_handed_out_from_a_cache",
        "c07_tuple_log",
        "read_and_resume",
        "A read of more than 256 events is kept on the side and the same list handed out again, "
        "skipping the copy: a caller who changes it changes the next read.",
        (
            (
                'NON_EMPTY = ("call_id", "name")\n',
                'NON_EMPTY = ("call_id", "name")\nREADS: dict[Any, Any] = {}\n',
            ),
            (
                C07_READ,
                "    found = [e for e in log if e.session_id == session_id"
                " and e.event_id > after_event_id]\n"
                "    if len(found) <= 256:\n"
                "        return tuple(found)\n"
                "    key = (id(log), session_id, after_event_id)\n"
                "    if key not in READS or READS[key][0] is not log:\n"
                "        READS[key] = (log, found)\n"
                "    return READS[key][1]\n",
            ),
        ),
        needs_size="a read of more than 256 events, changed by its caller",
    ),
    Mutant(
        "long_replays_handed_out_from_a_cache",
        "c07_tuple_log",
        "replay",
        "A replay of more than 512 messages is kept and the same messages handed out again "
        "('long replays are worth keeping'): a caller who changes one changes the next replay.",
        (
            (
                'NON_EMPTY = ("call_id", "name")\n',
                'NON_EMPTY = ("call_id", "name")\nREPLAYS: dict[Any, Any] = {}\n',
            ),
            (
                C07_RETURN_MESSAGES,
                "        previous = event.type\n"
                "    key = (id(log), session_id)\n"
                "    if len(messages) > 512 and (key not in REPLAYS or REPLAYS[key][0] is not log):\n"
                "        REPLAYS[key] = (log, tuple(messages))\n"
                "    return REPLAYS[key][1] if len(messages) > 512 else tuple(messages)\n",
            ),
        ),
        needs_size="a replay of more than 512 messages, changed by its caller",
    ),
    # --- past the maxima of 2026-12-05 (the red sets of issue 28) ---------------------------
    Mutant(
        "contents_cut_at_131072_characters",
        "c07_tuple_log",
        "append_and_ids",
        "A message's content is stored cut to 2**17 characters, a safety limit on what one "
        "message may hold.",
        (
            (
                C07_ITEMS,
                "    def kept(key, value):\n"
                '        if key == "content" and isinstance(value, str) and event_type.endswith("_message"):\n'
                "            return value[: 2**17]\n"
                "        return copy.deepcopy(value)\n"
                "    items = tuple((key, kept(key, value)) for key, value in payload.items())\n",
            ),
        ),
        needs_size="a message of more than 131,072 characters",
    ),
    Mutant(
        "replayed_results_clipped_at_131072_characters",
        "c07_tuple_log",
        "replay",
        "Replay cuts a tool result's content to its first 2**17 characters: a model cannot read "
        "more anyway.",
        (
            (
                C07_RESULT,
                C07_RESULT.replace('"content": p["content"]', '"content": p["content"][: 2**17]'),
            ),
        ),
        needs_size="a tool result of more than 131,072 characters",
    ),
    Mutant(
        "copy_keeps_the_caller_s_containers_past_192_levels",
        "c07_tuple_log",
        "append_and_ids",
        "The copy stops 192 levels down, a guard against runaway recursion, and keeps what is "
        "deeper as the caller's own: a change there reaches the log.",
        (
            (
                C07_ITEMS,
                "    def copied(v, depth=2):\n"
                "        if depth > 192:\n"
                "            return v\n" + C07_COPIED_DEEPER,
            ),
        ),
        needs_size="a payload nested more than 192 levels deep, changed by its caller",
    ),
    Mutant(
        "tuples_holding_no_list_or_dict_kept_as_given",
        "c07_tuple_log",
        "append_and_ids",
        "A tuple none of whose own items is a list or a dict is taken for immutable and kept as "
        "given: a list inside a tuple inside it stays the caller's.",
        (
            (
                C07_ITEMS,
                "    def copied(v):\n"
                "        if isinstance(v, Mapping):\n"
                "            return {k: copied(x) for k, x in v.items()}\n"
                "        if isinstance(v, tuple) and not any(isinstance(x, list | dict) for x in v):\n"
                "            return v  # nothing mutable inside, it seems\n"
                "        if isinstance(v, list | tuple):\n"
                "            return type(v)(copied(x) for x in v)\n"
                "        return v\n"
                "    items = tuple((key, copied(value)) for key, value in payload.items())\n",
            ),
        ),
    ),
    Mutant(
        "payloads_frozen_down_to_192_levels_only",
        "c11_deep_frozen",
        "append_and_ids",
        "The payload is frozen once, when it is stored, and handed out as stored; past 192 "
        "levels it is only copied, so a reader can change the log's own list there.",
        (
            *C11_HANDED_OUT_AS_STORED,
            (
                C11_FREEZE,
                "def freeze(value: Any, depth: int = 1) -> Any:\n"
                '    """A read-only copy of ``value``: dicts become read-only mappings, lists tuples."""\n'
                "    if depth > 192:\n"
                "        return copy.deepcopy(value)  # nobody nests a chat payload that deep\n"
                "    if isinstance(value, Mapping):\n"
                "        return MappingProxyType({key: freeze(item, depth + 1) for key, item in value.items()})\n"
                "    if isinstance(value, list | tuple):\n"
                "        return tuple(freeze(item, depth + 1) for item in value)\n"
                "    return value\n",
            ),
        ),
        needs_size="a payload nested more than 192 levels deep, changed by a reader",
    ),
    Mutant(
        "lists_past_1024_items_stored_as_lists",
        "c11_deep_frozen",
        "append_and_ids",
        "The payload is frozen once, when it is stored, and handed out as stored; a list of more "
        "than 1,024 items is kept a (new) list, to save a second copy, which a reader can change.",
        (
            *C11_HANDED_OUT_AS_STORED,
            (
                C11_FREEZE,
                "def freeze(value: Any) -> Any:\n"
                '    """A read-only copy of ``value``: dicts become read-only mappings, lists tuples."""\n'
                "    if isinstance(value, Mapping):\n"
                "        return MappingProxyType({key: freeze(item) for key, item in value.items()})\n"
                "    if isinstance(value, list) and len(value) > 1024:\n"
                "        return [freeze(item) for item in value]\n"
                "    if isinstance(value, list | tuple):\n"
                "        return tuple(freeze(item) for item in value)\n"
                "    return value\n",
            ),
        ),
        needs_size="a list of more than 1,024 items, changed by a reader",
    ),
    Mutant(
        "answers_remembered_for_the_last_512_results",
        "c07_tuple_log",
        "reject_bad_input",
        "Answers are remembered for the session's 512 newest results only: an older call can be "
        "answered a second time.",
        (
            (
                C07_VERDICT,
                '    if event_type == "tool_result":\n'
                '        answers = [e.payload["call_id"] for e in log if e.session_id == session_id and e.type == "tool_result"]\n'
                '        return "tool_call" in earlier and call_id not in answers[-512:]\n'
                + C07_VERDICT,
            ),
        ),
        needs_size="an answer is forgotten only after 512 newer results",
    ),
    Mutant(
        "calls_joined_only_within_1024_positions",
        "c07_tuple_log",
        "replay",
        "Two calls of the session are joined into one message only when at most 1,024 log "
        "positions apart ('a turn is short'): another session's long stretch of events between "
        "them splits the run, which the contract says only the session's own events end.",
        (
            ("    previous = None\n", "    previous = None\n    last_call = 0\n"),
            (
                C07_RUN,
                '            if previous == "tool_call" and event.event_id - last_call <= 1024:\n',
            ),
            (
                C07_RETURN_MESSAGES,
                "        previous = event.type\n"
                '        last_call = event.event_id if event.type == "tool_call" else 0\n'
                "    return tuple(messages)\n",
            ),
        ),
        needs_size="two calls of a run with 1,024 events of another session between them",
    ),
    Mutant(
        "replays_past_1024_messages_handed_out_from_a_cache",
        "c07_tuple_log",
        "replay",
        "A replay of more than 1,024 messages is kept and the same messages handed out again: a "
        "caller who changes one changes the next replay.",
        (
            (
                'NON_EMPTY = ("call_id", "name")\n',
                'NON_EMPTY = ("call_id", "name")\nREPLAYS: dict[Any, Any] = {}\n',
            ),
            (
                C07_RETURN_MESSAGES,
                "        previous = event.type\n"
                "    key = (id(log), session_id)\n"
                "    if len(messages) > 1024 and (key not in REPLAYS or REPLAYS[key][0] is not log):\n"
                "        REPLAYS[key] = (log, tuple(messages))\n"
                "    return REPLAYS[key][1] if len(messages) > 1024 else tuple(messages)\n",
            ),
        ),
        needs_size="a replay of more than 1,024 messages, changed by its caller",
    ),
    # issue 28: past the maxima of 2026-12-05 (a log of 1,317 events; the long gaps reach 4,097,
    # the dimension table's to show)
    Mutant(
        "results_looked_for_in_the_last_2048_events",
        "c07_tuple_log",
        "reject_bad_input",
        "A result's call is looked for among the log's last 2,048 events: a result that comes "
        "later than that is refused.",
        (
            (
                C07_VERDICT,
                '    if event_type == "tool_result" and not any(e.session_id == session_id and e.type == "tool_call" and e.payload["call_id"] == call_id for e in log[-2048:]):\n'
                "        return False\n" + C07_VERDICT,
            ),
        ),
        needs_size="a call is forgotten only 2,048 events after it was made",
    ),
    Mutant(
        "reused_call_ids_looked_for_in_the_last_2048_events",
        "c07_tuple_log",
        "reject_bad_input",
        "A new call's id is looked for among the log's last 2,048 events only: an id first used "
        "longer ago may be used again.",
        (
            (
                C07_VERDICT,
                '    if event_type == "tool_call":\n'
                '        return not any(e.session_id == session_id and e.type in ("tool_call", "tool_result") and e.payload["call_id"] == call_id for e in log[-2048:])\n'
                + C07_VERDICT,
            ),
        ),
        needs_size="a call id is forgotten only 2,048 events after it was used",
    ),
    Mutant(
        "reads_of_long_logs_kept_by_the_log_s_length",
        "c07_tuple_log",
        "read_and_resume",
        "A read of a log of more than 2,048 events is kept under the log's length, the session "
        "and the id: a branch of the same length reads its sibling's events.",
        (
            (
                'NON_EMPTY = ("call_id", "name")\n',
                'NON_EMPTY = ("call_id", "name")\nREADS: dict[Any, Any] = {}\n',
            ),
            (
                C07_READ,
                "    key = (len(log), session_id, after_event_id)\n"
                "    if len(log) > 2048 and key in READS:\n"
                "        return READS[key]\n"
                "    found = tuple(e for e in log if e.session_id == session_id and e.event_id > after_event_id)\n"
                "    if len(log) > 2048:\n"
                "        READS[key] = found\n"
                "    return found\n",
            ),
        ),
        needs_size="two branches of the same length, past 2,048 events",
    ),
    Mutant(
        "results_looked_for_in_the_session_s_last_2048_events",
        "c07_tuple_log",
        "reject_bad_input",
        "A result's call is looked for among its session's last 2,048 events: a result that "
        "comes later in a long session is refused.",
        (
            (
                C07_VERDICT,
                '    if event_type == "tool_result" and not any(e.type == "tool_call" and e.payload["call_id"] == call_id for e in [e for e in log if e.session_id == session_id][-2048:]):\n'
                "        return False\n" + C07_VERDICT,
            ),
        ),
        needs_size="a call is forgotten only 2,048 of its session's events after it was made",
    ),
    Mutant(
        "session_reads_paged_by_2048_lose_a_last_page_of_one",
        "c07_tuple_log",
        "reject_bad_input",  # only the long gaps' session, in task 5, grows so far
        "A session longer than 2,048 events is read in pages of 2,048, and the count of pages "
        "rounds a last page of one event away.",
        (
            (
                C07_READ,
                "    mine = tuple(e for e in log if e.session_id == session_id)\n"
                "    pages = len(mine) // 2048 + (len(mine) % 2048 > 1) if len(mine) > 2048 else 1\n"
                "    return tuple(e for e in mine[: pages * 2048] if e.event_id > after_event_id)\n",
            ),
        ),
        needs_size="a session of exactly 2,049 events (or 4,097...)",
    ),
)
MUTANTS = MUTANTS + EDGE_MUTANTS
