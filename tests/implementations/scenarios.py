"""One hand-written scenario per mutant: each returns True when the broken behaviour shows.

The scenarios are small on purpose: a reader can check by eye that each one really observes
the clause its file claims to break, and the soundness test checks that none of them fires on
the reference solution or on any correct file.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Mapping
from types import MappingProxyType, ModuleType
from typing import Any

from tests.implementations.clause_checks import plain

Append = tuple[str, str, dict[str, Any]]


def user(session: str, content: Any = "hi") -> Append:
    return (session, "user_message", {"content": content})


def call(session: str, call_id: str, arguments: str = "{}") -> Append:
    return (session, "tool_call", {"call_id": call_id, "name": "f", "arguments": arguments})


def result(session: str, call_id: str) -> Append:
    return (session, "tool_result", {"call_id": call_id, "content": "ok"})


def build(m: ModuleType, *appends: Append) -> tuple[Any, list[Any]]:
    """Append each ``(session, type, payload)`` in turn; return the last log and the events."""
    log, events = m.create_event_log(), []
    for append in appends:
        log, event = m.append_event(log, *append)
        events.append(event)
    return log, events


def accepted(m: ModuleType, log: Any, *append: Any) -> bool:
    """True if the append went through; a ValueError means it was (rightly or not) refused."""
    try:
        m.append_event(log, *append)
    except ValueError:
        return False
    return True


def ids(m: ModuleType, log: Any, session: str, after: int = 0) -> list[int]:
    return [e.event_id for e in m.get_events_for_session(log, session, after)]


def _gap_after_refusal(m: ModuleType) -> bool:
    log, _ = build(m, user("s"))
    accepted(m, log, "s", "no_such_type", {"content": "x"})
    return m.append_event(log, *user("s"))[1].event_id != 2


def _caller_change_leaks(nested: bool) -> Callable[[ModuleType], bool]:
    def scenario(m: ModuleType) -> bool:
        caller = {"content": "hi", "meta": {"tags": ["a"]}}
        log, _ = build(m, ("s", "user_message", caller))
        if nested:
            caller["meta"]["tags"].append("b")
        else:
            caller["content"] = "changed"
        return plain(m.get_events_for_session(log, "s")[0].payload) != {
            "content": "hi",
            "meta": {"tags": ["a"]},
        }

    return scenario


def _reader_change_leaks(m: ModuleType) -> bool:
    log, (event,) = build(m, ("s", "user_message", {"content": "hi", "meta": {"tags": ["a"]}}))
    payload = event.payload
    for change in (
        lambda: payload.__setitem__("content", "changed"),
        lambda: payload["meta"]["tags"].append("b"),  # read-only at the top: one level down
    ):
        with contextlib.suppress(Exception):
            change()
    stored = plain(m.get_events_for_session(log, "s")[0].payload)
    return stored != {"content": "hi", "meta": {"tags": ["a"]}}


def _replay_changes_after_mutation(m: ModuleType) -> bool:
    log, _ = build(m, user("s"))
    with contextlib.suppress(TypeError, AttributeError):  # frozen messages refuse the change
        m.replay_session(log, "s")[0]["content"] = "changed"
    return m.replay_session(log, "s")[0]["content"] != "hi"


def _appended_despite_refusal(m: ModuleType) -> bool:
    log, _ = build(m, user("s"))
    accepted(m, log, *result("s", "never_called"))
    return ids(m, log, "s") != [1]


def log_of(m: ModuleType, *appends: Append) -> Any:
    return build(m, *appends)[0]


def replay(m: ModuleType, session: str, *appends: Append) -> list[Any]:
    return list(m.replay_session(log_of(m, *appends), session))


def sessions(m: ModuleType, *appends: Append) -> list[str]:
    return list(m.list_sessions(log_of(m, *appends)))


def _old_log_changes(m: ModuleType) -> bool:
    log = m.create_event_log()
    m.append_event(log, *user("s"))
    return ids(m, log, "s") != [] or sessions(m) != list(m.list_sessions(log))


def _raises_non_value_error(m: ModuleType) -> bool:
    try:
        m.append_event(m.create_event_log(), "s", "user_message", None)
    except ValueError:
        return False
    except Exception:
        return True
    return False


def refused(m: ModuleType, log: Any, *append: Any) -> bool:
    """True if the append did not go through, whatever it raised."""
    try:
        m.append_event(log, *append)
    except Exception:
        return True
    return False


def _changed_after(
    change: Callable[[Any], object], read: Callable[[ModuleType, Any], Any]
) -> Callable[[ModuleType], bool]:
    """A scenario: change what ``read`` returned for a one-event log, then read again."""

    def scenario(m: ModuleType) -> bool:
        log = log_of(m, user("s"))
        before = list(read(m, log))
        try:
            change(read(m, log))
        except Exception:
            return False
        return list(read(m, log)) != before

    return scenario


def _branch_overwrites(m: ModuleType) -> bool:
    empty = m.create_event_log()
    log, _ = m.append_event(empty, *user("a"))
    m.append_event(empty, *user("b"))
    return ids(m, log, "a") != [1]


def _event_attribute_rewrites_history(m: ModuleType) -> bool:
    log, (event,) = build(m, user("s"))
    try:
        event.event_id = 99
    except Exception:
        return False
    return ids(m, log, "s") != [1]


def _split_by_another_session(m: ModuleType) -> bool:
    messages = replay(m, "s", call("s", "1"), user("t"), call("s", "2"))
    return len(messages) != 1


def _refused_session_listed(m: ModuleType) -> bool:
    log = m.create_event_log()
    refused(m, log, "z", "system", {"content": "hi"})
    return list(m.list_sessions(log)) != []


def many(session: str, count: int) -> tuple[Append, ...]:
    return tuple(user(session, f"m{n}") for n in range(count))


def spread(count: int) -> tuple[Append, ...]:
    """``count`` messages, each in a session of its own: a long log whose sessions stay short
    (a correct file that copies the appended session at every append stays quick on it)."""
    return tuple(user(f"t{n}") for n in range(count))


def _caller_value_leaks(
    payload: Any, change: Callable[[Any], object]
) -> Callable[[ModuleType], bool]:
    """A scenario: append ``payload``, ``change`` the caller's copy, see if the log changed."""

    def scenario(m: ModuleType) -> bool:
        log, _ = build(m, ("s", "user_message", payload()))
        before = plain(m.get_events_for_session(log, "s")[0].payload)
        log2, _ = build(m, ("s", "user_message", caller := payload()))
        change(caller)
        return plain(m.get_events_for_session(log2, "s")[0].payload) != before

    return scenario


def _replay_cached_across_branches(m: ModuleType) -> bool:
    base = log_of(m, user("s", "base"))
    one, _ = m.append_event(base, *user("s", "one"))
    two, _ = m.append_event(base, *user("s", "two"))
    m.replay_session(one, "s")
    return m.replay_session(two, "s")[-1]["content"] != "two"


def _empty_reads_shared(m: ModuleType) -> bool:
    log = m.create_event_log()
    with contextlib.suppress(Exception):
        m.get_events_for_session(log, "nobody").append("x")
    return list(m.get_events_for_session(m.create_event_log(), "nobody")) != []


def _unhashable_type_error(m: ModuleType) -> bool:
    try:
        m.append_event(m.create_event_log(), "s", ["user_message"], {"content": "hi"})
    except ValueError:
        return False
    except Exception:
        return True
    return False


# --- issue 28: sizes past every maximum, and mechanisms ------------------------------------
def _appends_through(m: ModuleType, *appends: Append) -> bool:
    """True when every append goes through and each event keeps its payload exactly."""
    log = m.create_event_log()
    for append in appends:
        try:
            log, event = m.append_event(log, *append)
        except Exception:
            return False
        if plain(event.payload) != plain(append[2]):
            return False
    return True


def _calls_then_results(count: int) -> tuple[Append, ...]:
    numbers = range(count)
    return (*(call("s", f"c{n}") for n in numbers), *(result("s", f"c{n}") for n in numbers))


def _second_result_after(count: int) -> Callable[[ModuleType], bool]:
    def scenario(m: ModuleType) -> bool:
        return accepted(m, log_of(m, *_calls_then_results(count)), *result("s", "c0"))

    return scenario


def _late_result(m: ModuleType) -> bool:
    return refused(m, log_of(m, call("s", "c"), *many("s", 1024)), *result("s", "c"))


def _late_reuse(m: ModuleType) -> bool:
    return accepted(m, log_of(m, call("s", "c"), *many("s", 1024)), *call("s", "c"))


def _far_result(m: ModuleType) -> bool:
    return refused(m, log_of(m, call("s", "c"), *spread(2048)), *result("s", "c"))


def _far_reuse(m: ModuleType) -> bool:
    return accepted(m, log_of(m, call("s", "c"), *spread(2048)), *call("s", "c"))


def _far_result_in_its_session(m: ModuleType) -> bool:
    return refused(m, log_of(m, call("s", "c"), *many("s", 2048)), *result("s", "c"))


def _long_branches_read_alike(m: ModuleType) -> bool:
    base = log_of(m, *spread(2049))
    left, _ = m.append_event(base, *user("s", "left"))
    right, _ = m.append_event(base, *user("s", "right"))
    m.get_events_for_session(left, "s")
    return [e.payload["content"] for e in m.get_events_for_session(right, "s")] != ["right"]


def _changed_long_list(m: ModuleType) -> bool:
    log = log_of(m, *(user(f"s{n}") for n in range(512)))
    with contextlib.suppress(Exception):
        m.list_sessions(log).clear()
    return len(m.list_sessions(log)) != 512


def _result_on_an_older_log(m: ModuleType) -> bool:
    older = log_of(m, user("s"))
    m.append_event(older, *call("s", "c1"))
    return accepted(m, older, *result("s", "c1"))


def _same_mapping_twice(m: ModuleType) -> bool:
    given = {"content": "hi", "meta": ["a"]}
    log, _ = m.append_event(m.create_event_log(), "s", "user_message", given)
    given["meta"].clear()
    _, second = m.append_event(log, "s", "user_message", given)
    return plain(second.payload) != {"content": "hi", "meta": []}


def _branch_then_newest(m: ModuleType) -> bool:
    base = newest = log_of(m, *many("s", 3))
    for n in range(2):
        newest, _ = m.append_event(newest, *user("s", f"newer {n}"))
    m.append_event(base, *user("s", "branch"))
    return ids(m, newest, "s") != [1, 2, 3, 4, 5]


def _replay_after_refusal(m: ModuleType) -> bool:
    log = log_of(m, *CALL_AND_RESULT)
    accepted(m, log, *result("s", "1"))
    return len(m.replay_session(log, "s")) != 2


def _retry_let_through(m: ModuleType) -> bool:
    log = log_of(m, *CALL_AND_RESULT)
    accepted(m, log, *result("s", "1"))
    return accepted(m, log, *result("s", "1"))


def _call_refused_then_made(m: ModuleType) -> bool:
    log = log_of(m)
    accepted(m, log, "s", "tool_call", {"call_id": "1", "name": "", "arguments": "{}"})
    return not accepted(m, log, *call("s", "1"))


def _call_made_again_after_a_refused_result(m: ModuleType) -> bool:
    log = log_of(m, *CALL_AND_RESULT)
    accepted(m, log, *result("s", "1"))
    return accepted(m, log, *call("s", "1"))


def _long_texts_alike_kept_as_one(m: ModuleType) -> bool:
    first, second = "x" * 1100 + "a", "x" * 1100 + "b"
    log = log_of(m, user("s", first), user("s", second))
    return plain(m.get_events_for_session(log, "s")[1].payload)["content"] != second


def _caller_changes_what_is_inside(
    holding: Callable[[list[int]], Any],
) -> Callable[[ModuleType], bool]:
    """Whether a change the caller makes, after the append, to a list inside ``holding(it)``
    reaches the stored payload."""

    def scenario(m: ModuleType) -> bool:
        last = [1]
        log = log_of(m, ("s", "user_message", {"content": "x", "big": holding(last)}))
        last.append(2)
        stored = plain(m.get_events_for_session(log, "s")[0].payload)["big"]
        inner = stored["last"] if isinstance(stored, dict) else stored[-1]
        return list(inner) != [1]

    return scenario


def _long_read_changed_by_its_caller(m: ModuleType) -> bool:
    log = log_of(m, *(user("s") for _ in range(300)))
    first = m.get_events_for_session(log, "s")
    with contextlib.suppress(TypeError, AttributeError):  # a tuple refuses the change
        first.clear()
    return len(m.get_events_for_session(log, "s")) != 300


def _long_replay_changed_by_its_caller(m: ModuleType) -> bool:
    return _replay_changed_by_its_caller(m, 600)


def _replay_changed_by_its_caller(m: ModuleType, length: int) -> bool:
    log = log_of(m, *(user("s") for _ in range(length)))
    with contextlib.suppress(TypeError, AttributeError):  # frozen messages refuse the change
        m.replay_session(log, "s")[0]["content"] = "changed"
    return m.replay_session(log, "s")[0]["content"] != "hi"


def _deep(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth - 1):
        value = [value]
    return value


def _bits(count: int) -> int:
    return (1 << (count - 1)) | 1


def _deep_list(depth: int) -> tuple[Any, list[Any]]:
    """A payload value ``depth`` levels deep, lists and dicts in turn, and its innermost list."""
    inner: list[Any] = ["leaf"]
    value: Any = inner
    for level in range(depth - 1):
        value = [value] if level % 2 else {"d": value}
    return value, inner


def _stored_payload_text(m: ModuleType, log: Any) -> str:
    return json.dumps(plain(m.get_events_for_session(log, "s")[0].payload))


def _caller_changes(m: ModuleType, value: Any, inner: list[Any]) -> bool:
    """The caller changes ``inner``, a list inside ``value``, after the append: does the log
    see it?"""
    log = log_of(m, ("s", "user_message", {"content": "x", "v": value}))
    inner.append("changed")
    return "changed" in _stored_payload_text(m, log)


def _reader_changes(m: ModuleType, value: Any, change: Callable[[Any], None]) -> bool:
    """A reader changes what ``change`` reaches in an event's payload: does the log see it?"""
    log = log_of(m, ("s", "user_message", {"content": "x", "v": value}))
    with contextlib.suppress(TypeError, AttributeError):  # a frozen payload refuses the change
        change(m.get_events_for_session(log, "s")[0].payload["v"])
    return "changed" in _stored_payload_text(m, log)


def _in_a_tuple_in_a_tuple() -> tuple[Any, list[Any]]:
    inner = ["x"]
    return ((inner,), 2), inner


def _innermost(value: Any) -> Any:
    while not (isinstance(value, list | tuple) and value and value[0] == "leaf"):
        value = value["d"] if isinstance(value, Mapping) else value[0]
    return value


A, B, AB = user("a"), user("b"), user("ab")
ONE_CALL = (call("s", "1"),)
TWO_CALLS = (call("s", "1"), call("s", "2"))
CALL_AND_RESULT = (call("s", "1"), result("s", "1"))

# fmt: off
BROKEN_BEHAVIOUR: dict[str, Callable[[ModuleType], bool]] = {
    "ids_start_at_zero": lambda m: build(m, user("s"))[1][0].event_id != 1,
    "ids_per_session": lambda m: ids(m, log_of(m, A, B), "b") != [2],
    "id_burned_by_refused_append": _gap_after_refusal,
    "old_log_changed": _old_log_changes,
    "payload_by_reference": _caller_change_leaks(nested=False),
    "nested_extras_shallow": _caller_change_leaks(nested=True),
    "extra_keys_dropped": lambda m: "lang" not in build(
        m, ("s", "user_message", {"content": "hi", "lang": "en"}))[1][0].payload,
    "payload_shared_mutable": _reader_change_leaks,
    "payload_proxy_nested_leak": _reader_change_leaks,
    "after_id_inclusive": lambda m: ids(m, log_of(m, user("s"), user("s")), "s", 1) != [2],
    "after_id_as_position": lambda m: ids(
        m, log_of(m, A, B, A), "a", 2) != [3],
    "newest_first": lambda m: ids(m, log_of(m, user("s"), user("s")), "s") != [1, 2],
    "reads_match_session_prefix": lambda m: ids(m, log_of(m, A, AB), "a") != [1],
    "resume_ignored_for_some_sessions": lambda m: ids(
        m, log_of(m, B, A, A), "a", 2) != [3],
    "sessions_sorted": lambda m: sessions(m, B, A) != ["b", "a"],
    "sessions_repeated": lambda m: sessions(m, A, A) != ["a"],
    "sessions_by_last_event": lambda m: sessions(m, A, B, A) != ["a", "b"],
    "replay_no_merge": lambda m: len(replay(m, "s", *TWO_CALLS)) != 1,
    "replay_merges_across_result": lambda m: len(
        replay(m, "s", *CALL_AND_RESULT, call("s", "2"))) != 3,
    "replay_calls_reversed": lambda m: [
        c["id"] for c in replay(m, "s", *TWO_CALLS)[0]["tool_calls"]] != ["1", "2"],
    "replay_camelcase_key": lambda m: "toolCallId" in replay(m, "s", *CALL_AND_RESULT)[1],
    "replay_tool_message_without_call_id": lambda m: "tool_call_id" not in replay(
        m, "s", *CALL_AND_RESULT)[1],
    "replay_cached": _replay_changes_after_mutation,
    "replay_leaks_other_sessions": lambda m: len(
        replay(m, "b", call("a", "1"), call("b", "1"), result("a", "1"))) != 1,
    "accepts_unknown_type": lambda m: accepted(m, log_of(m), "s", "thought", {}),
    "accepts_empty_session_id": lambda m: accepted(m, log_of(m), *user("")),
    "accepts_non_str_session_id": lambda m: accepted(m, log_of(m), 7, *user("s")[1:]),
    "accepts_missing_key": lambda m: accepted(m, log_of(m), "s", "user_message", {}),
    "accepts_non_str_content": lambda m: accepted(m, log_of(m), *user("s", 5)),
    "accepts_empty_call_id_or_name": lambda m: accepted(m, log_of(m), *call("s", "")),
    "accepts_reused_call_id": lambda m: accepted(m, log_of(m, *ONE_CALL), *call("s", "1")),
    "accepts_result_without_call": lambda m: accepted(m, log_of(m), *result("s", "1")),
    "accepts_second_result": lambda m: accepted(
        m, log_of(m, *CALL_AND_RESULT), *result("s", "1")),
    "call_ids_global": lambda m: not accepted(m, log_of(m, call("a", "1")), *call("b", "1")),
    "rejects_invalid_json_arguments": lambda m: not accepted(
        m, log_of(m), *call("s", "1", arguments="{not json")),
    "type_error_for_non_mapping": _raises_non_value_error,
    "appends_before_raising": _appended_despite_refusal,
    "rejects_empty_content": lambda m: not accepted(m, log_of(m), *user("s", "")),
    "tool_call_message_with_empty_content": lambda m: replay(m, "s", *ONE_CALL)[0]["content"] == "",
    "runs_split_by_other_sessions_events": _split_by_another_session,
    "answered_call_id_reusable": lambda m: accepted(
        m, log_of(m, *CALL_AND_RESULT), *call("s", "1")),
    "results_counted_across_sessions": lambda m: not accepted(
        m, log_of(m, call("b", "1"), result("b", "1")), *call("a", "1")),
    "negative_after_id_reads_nothing": lambda m: ids(m, log_of(m, user("s")), "s", -1) != [1],
    "session_ids_compared_without_case": lambda m: ids(m, log_of(m, user("A")), "a") != [],
    "sessions_listed_without_case": lambda m: sessions(m, user("A"), user("a")) != ["A", "a"],
    "payload_values_copied_one_level": _caller_change_leaks(nested=True),
    "branches_share_one_list": _branch_overwrites,
    "reads_hand_out_the_logs_list": _changed_after(
        lambda read: read.clear(), lambda m, log: m.get_events_for_session(log, "s")),
    "sessions_list_kept_in_the_log": _changed_after(
        lambda listed: listed.append("x"), lambda m, log: m.list_sessions(log)),
    "events_are_mutable": _event_attribute_rewrites_history,
    "refuses_payloads_that_are_not_dicts": lambda m: refused(
        m, log_of(m), "s", "user_message", MappingProxyType({"content": "hi"})),
    "deep_copies_a_mapping_proxy": lambda m: refused(
        m, log_of(m), "s", "user_message", MappingProxyType({"content": "hi"})),
    "pair_returned_as_a_triple": lambda m: len(
        m.append_event(m.create_event_log(), *user("s"))) != 2,
    "payload_attribute_renamed": lambda m: not hasattr(build(m, user("s"))[1][0], "payload"),
    "refuses_extra_payload_keys": lambda m: refused(
        m, log_of(m), "s", "user_message", {"content": "hi", "lang": "en"}),
    "refuses_a_result_after_other_events": lambda m: refused(
        m, log_of(m, call("s", "1"), user("s")), *result("s", "1")),
    "refuses_unusual_session_ids": lambda m: refused(m, log_of(m), *user(" ")),
    "refuses_non_ascii_content": lambda m: refused(m, log_of(m), *user("s", "é")),
    "refuses_repeated_user_messages": lambda m: refused(m, log_of(m, user("s")), *user("s")),
    "refused_session_still_listed": _refused_session_listed,
    "arguments_reserialised": lambda m: build(m, call("s", "1", '{"b": 2,  "a": 1}'))[1][0]
    .payload["arguments"] != '{"b": 2,  "a": 1}',
    "ids_wrap_at_256": lambda m: build(m, *many("s", 256))[1][-1].event_id != 256,
    "reads_scan_the_last_100": lambda m: len(ids(m, log_of(m, *many("s", 101)), "s")) != 101,
    "reads_sorted_by_text_id": lambda m: ids(m, log_of(m, *many("s", 10)), "s") != list(
        range(1, 11)),
    "sessions_compared_after_nfc": lambda m: ids(m, log_of(m, user("e\u0301")), "\u00e9") != [],
    "call_ids_keyed_with_a_colon": lambda m: accepted(
        m, log_of(m, call("a:b", "c")), *result("a", "b:c")),
    "call_ids_without_case": lambda m: accepted(
        m, log_of(m, call("s", "Call_1")), *result("s", "call_1")),
    "call_ids_checked_in_a_window": lambda m: accepted(
        m, log_of(m, call("s", "1"), *many("s", 50)), *call("s", "1")),
    "long_content_refused": lambda m: refused(m, log_of(m), *user("s", "x" * 65_537)),
    "crlf_normalised": lambda m: build(m, user("s", "a\r\nb"))[1][0].payload[
        "content"] != "a\r\nb",
    "unprintable_content_refused": lambda m: refused(m, log_of(m), *user("s", "a\x07b")),
    "copy_stops_at_depth_two": _caller_value_leaks(
        lambda: {"content": "hi", "x": [[["deep"]]]}, lambda p: p["x"][0][0].append("y")),
    "tuples_not_copied": _caller_value_leaks(
        lambda: {"content": "hi", "x": (["in"],)}, lambda p: p["x"][0].append("y")),
    "proxy_copied_shallowly": _caller_value_leaks(
        lambda: MappingProxyType({"content": "hi", "x": ["in"]}),
        lambda p: p["x"].append("y")),
    "empty_reads_share_one_list": _empty_reads_shared,
    "replay_cached_by_length": _replay_cached_across_branches,
    "replay_run_capped_at_five": lambda m: len(
        replay(m, "s", *(call("s", str(n)) for n in range(6)))) != 1,
    "replay_passes_the_name_key": lambda m: "name" in replay(
        m, "s", ("s", "user_message", {"content": "hi", "name": "ann"}))[0],
    "replay_parses_json_results": lambda m: replay(
        m, "s", call("s", "1"), ("s", "tool_result", {"call_id": "1", "content": '{"a": 1}'})
    )[1]["content"] != '{"a": 1}',
    "replay_calls_join_an_empty_assistant_message": lambda m: len(replay(
        m, "s", ("s", "assistant_message", {"content": ""}), call("s", "1"))) != 2,
    "unhashable_type_raises_type_error": _unhashable_type_error,
    "call_ids_with_spaces_refused": lambda m: refused(m, log_of(m), *call("s", "a b")),
    "call_ids_checked_against_the_last_call": lambda m: accepted(
        m, log_of(m, call("s", "1"), call("s", "2")), *call("s", "1")),
    "call_ids_checked_in_the_last_run": lambda m: accepted(
        m, log_of(m, call("s", "1"), user("s")), *call("s", "1")),
    # issue 28: sizes
    "ids_wrap_at_1024": lambda m: build(m, *many("s", 1025))[1][-1].event_id != 1025,
    "reads_return_at_most_1024_events": lambda m: len(
        ids(m, log_of(m, *many("s", 1025)), "s")) != 1025,
    "sessions_listed_up_to_1024": lambda m: len(
        sessions(m, *(user(f"s{n}") for n in range(1025)))) != 1025,
    "results_matched_among_the_last_256_calls": lambda m: not _appends_through(
        m, *_calls_then_results(257)),
    "answers_remembered_for_the_last_256_results": _second_result_after(257),
    "results_looked_for_in_the_last_1024_events": _late_result,
    "replay_runs_split_at_512_calls": lambda m: len(
        replay(m, "s", *(call("s", str(n)) for n in range(513)))) != 1,
    "replay_returns_at_most_1024_messages": lambda m: len(replay(m, "s", *many("s", 1025))) != 1025,
    "payload_lists_cut_at_2048_items": lambda m: not _appends_through(
        m, ("s", "user_message", {"content": "hi", "items": list(range(2049))})),
    "payload_keys_cut_at_2048": lambda m: not _appends_through(
        m, ("s", "user_message", {"content": "hi", **{str(n): n for n in range(2048)}})),
    "copy_stops_160_levels_down": lambda m: not _appends_through(
        m, ("s", "user_message", {"content": "hi", "deep": _deep(199)})),
    "contents_of_a_power_of_two_lose_a_character": lambda m: not _appends_through(
        m, user("s", "x" * 128)),
    "session_ids_cut_at_2048": lambda m: build(m, user("s" * 2049))[1][0].session_id != "s" * 2049,
    "call_ids_compared_by_their_first_1024_characters": lambda m: not _appends_through(
        m, call("s", "c" * 1024), call("s", "c" * 1025)),
    "ints_stored_in_4096_bits": lambda m: not _appends_through(
        m, ("s", "user_message", {"content": "hi", "n": _bits(4097)})),
    "long_lists_handed_out_from_a_cache": _changed_long_list,
    # issue 28: mechanisms
    "payload_keys_named_like_event_fields_dropped": lambda m: not _appends_through(
        m, ("s", "user_message", {"content": "hi", "session_id": "other", "event_id": 9})),
    "results_checked_against_every_call_of_the_family": _result_on_an_older_log,
    "payload_copies_cached_by_identity": _same_mapping_twice,
    "branches_cut_the_index_newer_logs_read": _branch_then_newest,
    "replay_shows_a_refused_tool_event": _replay_after_refusal,
    "arguments_with_several_keys_normalised": lambda m: not _appends_through(
        m, call("s", "1", '{"a":1,"b":2}')),
    "compact_arguments_stored_with_sorted_keys": lambda m: not _appends_through(
        m, call("s", "1", '{"b":1,"a":2}')),
    "str_subclass_event_types_refused": lambda m: refused(
        m, log_of(m), "s", type("Text", (str,), {})("user_message"), {"content": "hi"}),
    "session_ids_compared_with_surrogates_replaced": lambda m: ids(
        m, log_of(m, user("\ud800")), "?") != [],
    "session_ids_checked_for_messages_only": lambda m: accepted(
        m, log_of(m), None, *call("s", "1")[1:]),
    "a_refused_tool_event_lets_its_retry_through": _retry_let_through,
    "reused_call_ids_looked_for_in_the_last_1024_events": _late_reuse,
    "sessions_listed_by_family": lambda m: sessions(
        m, user("user.1"), user("bot.1"), user("user.2")) != ["user.1", "bot.1", "user.2"],
    "sessions_listed_with_surrogate_pairs_joined": lambda m: sessions(
        m, user("\ud83d\ude42"), user("🙂")) != ["\ud83d\ude42", "🙂"],
    "tool_call_messages_take_content_from_the_payload": lambda m: replay(
        m, "s", ("s", "tool_call", {"call_id": "1", "name": "f", "arguments": "{}", "content": "x"})
    )[0]["content"] is not None,
    "refused_calls_reserve_their_id": _call_refused_then_made,
    "a_refused_result_forgets_its_call": _call_made_again_after_a_refused_result,
    "another_sessions_result_ends_a_run": lambda m: len(replay(
        m, "s", call("t", "1"), call("s", "1"), result("t", "1"), call("s", "2"))) != 1,
    "assistant_messages_pass_refusal_through": lambda m: replay(
        m, "s", ("s", "assistant_message", {"content": "", "refusal": "no"})
    ) != [{"role": "assistant", "content": ""}],
    "sessions_seen_looked_for_in_a_joined_text": lambda m: sessions(
        m, user("a\x1fb"), user("b")) != ["a\x1fb", "b"],
    "tool_names_cleaned_into_utf8": lambda m: m.append_event(
        log_of(m), "s", "tool_call", {"call_id": "1", "name": "\ud800", "arguments": "{}"}
    )[1].payload["name"] != "\ud800",
    "payload_keys_must_be_utf8": lambda m: not accepted(
        m, log_of(m), "s", "user_message", {"content": "hi", "\udc80": 1}),
    "call_ids_compared_by_their_escaped_utf8": lambda m: not accepted(
        m, log_of(m, call("s", "\ud800")), *call("s", "\\ud800")),
    "long_texts_kept_once_by_their_first_1024_characters": _long_texts_alike_kept_as_one,
    "payload_keys_must_be_exact_strs": lambda m: not accepted(
        m, log_of(m), "s", "user_message", {"content": "hi", type("Key", (str,), {})("tag"): 1}),
    "replayed_results_clipped_at_32768_characters": lambda m: replay(
        m, "s", call("s", "1"), ("s", "tool_result", {"call_id": "1", "content": "x" * 40_000})
    )[1]["content"] != "x" * 40_000,
    "long_texts_stored_as_utf8_with_replace": lambda m: plain(m.get_events_for_session(
        log_of(m, user("s", "x" * 40_000 + "\ud800")), "s")[0].payload)["content"][-1] != "\ud800",
    "long_lists_copied_in_one_step": _caller_changes_what_is_inside(
        lambda last: [0] * 600 + [last]),
    "wide_mappings_wrapped_not_copied": _caller_changes_what_is_inside(
        lambda last: {**{str(k): 0 for k in range(1100)}, "last": last}),
    "sessions_seen_remembered_for_the_last_256": lambda m: sessions(
        m, *(user(f"s{i}") for i in range(300)), user("s0")) != [f"s{i}" for i in range(300)],
    "long_reads_handed_out_from_a_cache": _long_read_changed_by_its_caller,
    "long_replays_handed_out_from_a_cache": _long_replay_changed_by_its_caller,
    # issue 28: past the maxima of 2026-12-05
    "contents_cut_at_131072_characters": lambda m: not _appends_through(
        m, user("s", "x" * 131_073)),
    "replayed_results_clipped_at_131072_characters": lambda m: replay(
        m, "s", call("s", "1"), ("s", "tool_result", {"call_id": "1", "content": "x" * 131_073})
    )[1]["content"] != "x" * 131_073,
    "copy_keeps_the_caller_s_containers_past_192_levels": lambda m: _caller_changes(
        m, *_deep_list(199)),
    "payloads_frozen_down_to_192_levels_only": lambda m: _reader_changes(
        m, _deep_list(199)[0], lambda v: _innermost(v).append("changed")),
    "lists_past_1024_items_stored_as_lists": lambda m: _reader_changes(
        m, list(range(1025)), lambda v: v.append("changed")),
    "tuples_holding_no_list_or_dict_kept_as_given": lambda m: _caller_changes(
        m, *_in_a_tuple_in_a_tuple()),
    "answers_remembered_for_the_last_512_results": _second_result_after(513),
    "calls_joined_only_within_1024_positions": lambda m: len(replay(
        m, "s", call("s", "1"), *many("t", 1024), call("s", "2"))) != 1,
    "replays_past_1024_messages_handed_out_from_a_cache": lambda m: _replay_changed_by_its_caller(
        m, 1025),
    "results_looked_for_in_the_last_2048_events": _far_result,
    "reused_call_ids_looked_for_in_the_last_2048_events": _far_reuse,
    "reads_of_long_logs_kept_by_the_log_s_length": _long_branches_read_alike,
    "results_looked_for_in_the_session_s_last_2048_events": _far_result_in_its_session,
    "session_reads_paged_by_2048_lose_a_last_page_of_one": lambda m: len(
        m.get_events_for_session(log_of(m, *many("s", 2049)), "s")) != 2049,
    "sessions_read_by_their_crc32": lambda m: ids(
        m, log_of(m, user("fqb17i228u")), "hh578ntdii") != [],
    "session_ids_read_by_their_first_1024_characters": lambda m: ids(
        m, log_of(m, user("s" * 1024 + "a")), "s" * 1024 + "b") != [],
    "replayed_arguments_made_utf8_safe": lambda m: replay(
        m, "s", call("s", "1", '{"q": "\ud800"}')
    )[0]["tool_calls"][0]["function"]["arguments"] != '{"q": "\ud800"}',
}
# fmt: on
