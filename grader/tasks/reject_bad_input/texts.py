"""Task 5's words: its name, append_event's promises about input (and each kind of bad or
unusual input as a promise of its own), and a hint for each."""

from __future__ import annotations

EN = {
    "task.reject_bad_input.name": "Rejecting bad input",
    "promise.append.accepts_valid": (
        "Any valid append is accepted, unusual ones too: empty or long content, any characters "
        "(control characters, line breaks, any script); arguments that are not valid JSON; extra "
        "payload keys; a call_id or name with spaces or any characters; a call_id another session "
        "used; a tool_result with other events between it and its call; any non-empty str as "
        "session id; any mapping as payload."
    ),
    "promise.append.refuses_bad_input": (
        "Bad input raises ValueError (or a subclass), never another exception. Bad input is: an "
        "unknown event type (of any type, a list included); a session id that is not a non-empty "
        "str; a payload that is not a mapping; a missing required key; a required value that is "
        "not a str; an empty call_id or name; a tool_call whose call_id this session already used; "
        "a tool_result whose call_id this session never called; a tool_result for a call that "
        'already has a result. Call ids are compared exactly ("call_1" is not "Call_1") and scoped '
        "to their session."
    ),
    "promise.append.refusal_leaves_no_trace": (
        "A refused append leaves no trace: no log changes, no id is used up, and no call id "
        "becomes used or answered."
    ),
    # each kind of valid but unusual append (append.accepts_valid, one case at a time)
    "promise.accept.plain": "append_event accepts every valid append.",
    "promise.accept.empty_content": "Empty content is valid: append_event accepts it.",
    "promise.accept.unusual_text": "Content may hold any characters (control characters, line breaks, any script): append_event accepts it.",
    "promise.accept.long_text": "Content may be long (tens of thousands of characters): append_event accepts it.",
    "promise.accept.arguments_not_json": "Tool arguments are stored as given, even when they are not valid JSON (or empty): append_event accepts them.",
    "promise.accept.extra_keys": "Extra payload keys are valid, whatever their names: append_event accepts them.",
    "promise.accept.unusual_call_id": "A call_id may hold spaces or any characters: append_event accepts it.",
    "promise.accept.unusual_name": "A tool name may hold spaces or any characters: append_event accepts it.",
    "promise.accept.shared_call_id": "Call ids are scoped to their session: the same call_id may be used in two sessions.",
    "promise.accept.result_after_gap": "A tool_result may come after its call with other events in between, however many: append_event accepts it.",
    "promise.accept.unusual_session_id": "Any non-empty str is a session id (spaces, control characters, any script): append_event accepts it.",
    "promise.accept.text_subclass": "A subclass of str is a str: append_event accepts it as a session id.",
    "promise.accept.mapping_payload": "Any mapping is a payload, not only a dict (a types.MappingProxyType, a Mapping of one's own): append_event accepts it.",
    # each kind of bad append (append.refuses_bad_input, one rule at a time)
    "promise.refuse.unknown_type": "An unknown event type, of any type (None, a number, a list), raises ValueError.",
    "promise.refuse.bad_session_id": 'A session id that is not a non-empty str (None, bytes, a number, a list, "") raises ValueError.',
    "promise.refuse.payload_not_mapping": "A payload that is not a mapping (a list of pairs, a str, None) raises ValueError.",
    "promise.refuse.missing_key": "A payload without a required key raises ValueError.",
    "promise.refuse.wrong_value_type": "A required value that is not a str (None, a number, bytes, a list) raises ValueError.",
    "promise.refuse.empty_value": "An empty call_id or name raises ValueError.",
    "promise.refuse.call_id_reused": "A tool_call whose call_id this session already used, however long ago, raises ValueError.",
    "promise.refuse.result_without_call": "A tool_result whose call_id this session never called (another session's, or one that differs by case or a space) raises ValueError.",
    "promise.refuse.result_already_given": "A tool_result for a call that already has a result, however long ago, raises ValueError.",
    "hint.append.accepts_valid.1": "Raise ValueError only in the cases the docstring lists; accept everything else.",
    "hint.append.accepts_valid.2": "Check types and presence, never contents: any str is a valid session id, content, call_id or name (non-empty where the docstring says so).",
    "hint.append.refuses_bad_input.1": "Check everything before you build anything, and raise ValueError for each case the docstring lists.",
    "hint.append.refuses_bad_input.2": "A check that fails with another exception (a TypeError from an unhashable type, a KeyError) must become a ValueError: test types before you use a value.",
    "hint.append.refusal_leaves_no_trace.1": "Check every rule before you create the event, the new log or any record of the call.",
    "hint.append.refusal_leaves_no_trace.2": "Raise before anything is built or remembered: no id drawn from a counter, no call id noted, no cache touched.",
    "hint.accept.plain.1": "Accept every valid append: raise ValueError only in the cases the docstring lists.",
    "hint.accept.plain.2": "Check types and presence, never contents.",
    "hint.accept.empty_content.1": "Empty content is valid: check that it is a str, not that it has a length.",
    "hint.accept.empty_content.2": "Only call_id and name must be non-empty.",
    "hint.accept.unusual_text.1": "Content is any str: do not encode, strip or check its characters.",
    "hint.accept.unusual_text.2": "A lone surrogate or a NUL is still a str; store it as it is.",
    "hint.accept.long_text.1": "There is no length limit on content.",
    "hint.accept.long_text.2": "Store the str as it is, whatever its length.",
    "hint.accept.arguments_not_json.1": "Store arguments as the text it is; never parse it.",
    "hint.accept.arguments_not_json.2": "json.loads would refuse it or change it: arguments is any str.",
    "hint.accept.extra_keys.1": "Keep extra payload keys: copy the whole payload, then check the required keys.",
    "hint.accept.extra_keys.2": "An extra key may be named like anything (call_id on a message, role, name): only the required keys of the event's type matter.",
    "hint.accept.unusual_call_id.1": "A call_id is any non-empty str: do not check its characters.",
    "hint.accept.unusual_call_id.2": "Compare call ids exactly; never strip, split or normalise them.",
    "hint.accept.unusual_name.1": "A tool name is any non-empty str: do not check its characters.",
    "hint.accept.unusual_name.2": "Only an empty name is refused.",
    "hint.accept.shared_call_id.1": "Check call ids within one session only.",
    "hint.accept.shared_call_id.2": "Key what you remember by (session_id, call_id) as a pair, never by a joined string.",
    "hint.accept.result_after_gap.1": "A tool_result may come after other events: look for its call among all of this session's earlier events.",
    "hint.accept.result_after_gap.2": "Not only the last event, not only the last few: however far back the call is.",
    "hint.accept.unusual_session_id.1": "Any non-empty str is a session id: do not strip or check its characters.",
    "hint.accept.unusual_session_id.2": 'isinstance(session_id, str) and session_id != "" is the whole check.',
    "hint.accept.text_subclass.1": "Check with isinstance(session_id, str), not type(session_id) is str.",
    "hint.accept.text_subclass.2": "A subclass of str is a str.",
    "hint.accept.mapping_payload.1": "Accept any collections.abc.Mapping, not only dict.",
    "hint.accept.mapping_payload.2": "Read it through the Mapping interface (keys, items, []); copy.deepcopy cannot copy a types.MappingProxyType, dict(payload) first can.",
    "hint.refuse.unknown_type.1": "Accept exactly user_message, assistant_message, tool_call and tool_result; raise ValueError for any other type.",
    "hint.refuse.unknown_type.2": "A list or a dict as the type must raise ValueError too: `in` a set raises TypeError for them, `in` a tuple does not.",
    "hint.refuse.bad_session_id.1": 'Require isinstance(session_id, str) and session_id != "".',
    "hint.refuse.bad_session_id.2": "Anything else (None, bytes, a number, a list) raises ValueError, not TypeError.",
    "hint.refuse.payload_not_mapping.1": "Require isinstance(payload, collections.abc.Mapping).",
    "hint.refuse.payload_not_mapping.2": "A list of pairs or a str raises ValueError, not TypeError.",
    "hint.refuse.missing_key.1": "Each type has required keys: raise ValueError when one is missing.",
    "hint.refuse.missing_key.2": "content; call_id, name and arguments; call_id and content.",
    "hint.refuse.wrong_value_type.1": "Every required value must be a str.",
    "hint.refuse.wrong_value_type.2": "None, bytes, a number or a list raises ValueError.",
    "hint.refuse.empty_value.1": "call_id and name must be non-empty strings.",
    "hint.refuse.empty_value.2": "content and arguments may be empty.",
    "hint.refuse.call_id_reused.1": "Before a tool_call, look at all of this session's earlier tool_calls.",
    "hint.refuse.call_id_reused.2": "However long ago, however many calls since: the same call_id in the same session is refused.",
    "hint.refuse.result_without_call.1": "A tool_result needs an earlier tool_call with the same call_id in the same session.",
    "hint.refuse.result_without_call.2": "Calls of other sessions do not count, and ids are compared exactly (case, spaces and all).",
    "hint.refuse.result_already_given.1": "A call gets one result.",
    "hint.refuse.result_already_given.2": "Remember which calls of the session were answered, however long ago.",
}
