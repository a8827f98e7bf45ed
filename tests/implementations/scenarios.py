"""One hand-written scenario per wrong file: each returns True when the broken behaviour shows.

The scenarios are small on purpose: a reader can check by eye that each one really observes
the clause its file claims to break, and the soundness test checks that none of them fires on
the reference solution or on any correct file.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

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
        return dict(m.get_events_for_session(log, "s")[0].payload) != {
            "content": "hi",
            "meta": {"tags": ["a"]},
        }

    return scenario


def _reader_change_leaks(m: ModuleType) -> bool:
    log, (event,) = build(m, ("s", "user_message", {"content": "hi", "meta": {"tags": ["a"]}}))
    payload = event.payload
    try:
        payload["content"] = "changed"
    except TypeError:
        payload["meta"]["tags"].append("b")  # read-only at the top: try one level down
    stored = m.get_events_for_session(log, "s")[0].payload
    return stored["content"] != "hi" or stored["meta"]["tags"] != ["a"]


def _replay_changes_after_mutation(m: ModuleType) -> bool:
    log, _ = build(m, user("s"))
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


A, B, AB = user("a"), user("b"), user("ab")
ONE_CALL = (call("s", "1"),)
TWO_CALLS = (call("s", "1"), call("s", "2"))
CALL_AND_RESULT = (call("s", "1"), result("s", "1"))

# fmt: off
BROKEN_BEHAVIOUR: dict[str, Callable[[ModuleType], bool]] = {
    "w01_ids_start_at_zero": lambda m: build(m, user("s"))[1][0].event_id != 1,
    "w02_ids_per_session": lambda m: ids(m, log_of(m, A, B), "b") != [2],
    "w03_id_burned_by_refused_append": _gap_after_refusal,
    "w04_old_log_changed": _old_log_changes,
    "w05_payload_by_reference": _caller_change_leaks(nested=False),
    "w06_nested_extras_shallow": _caller_change_leaks(nested=True),
    "w07_extra_keys_dropped": lambda m: "lang" not in build(
        m, ("s", "user_message", {"content": "hi", "lang": "en"}))[1][0].payload,
    "w08_payload_shared_mutable": _reader_change_leaks,
    "w09_payload_proxy_nested_leak": _reader_change_leaks,
    "w10_after_id_inclusive": lambda m: ids(m, log_of(m, user("s"), user("s")), "s", 1) != [2],
    "w11_after_id_as_position": lambda m: ids(
        m, log_of(m, A, B, A), "a", 2) != [3],
    "w12_newest_first": lambda m: ids(m, log_of(m, user("s"), user("s")), "s") != [1, 2],
    "w13_reads_match_session_prefix": lambda m: ids(m, log_of(m, A, AB), "a") != [1],
    "w14_resume_ignored_for_some_sessions": lambda m: ids(
        m, log_of(m, B, A, A), "a", 2) != [3],
    "w15_sessions_sorted": lambda m: sessions(m, B, A) != ["b", "a"],
    "w16_sessions_repeated": lambda m: sessions(m, A, A) != ["a"],
    "w17_sessions_by_last_event": lambda m: sessions(m, A, B, A) != ["a", "b"],
    "w18_replay_no_merge": lambda m: len(replay(m, "s", *TWO_CALLS)) != 1,
    "w19_replay_merges_across_result": lambda m: len(
        replay(m, "s", *CALL_AND_RESULT, call("s", "2"))) != 3,
    "w20_replay_calls_reversed": lambda m: [
        c["id"] for c in replay(m, "s", *TWO_CALLS)[0]["tool_calls"]] != ["1", "2"],
    "w21_replay_camelcase_key": lambda m: "toolCallId" in replay(m, "s", *CALL_AND_RESULT)[1],
    "w22_replay_tool_message_without_call_id": lambda m: "tool_call_id" not in replay(
        m, "s", *CALL_AND_RESULT)[1],
    "w23_replay_cached": _replay_changes_after_mutation,
    "w24_replay_leaks_other_sessions": lambda m: len(
        replay(m, "b", call("a", "1"), call("b", "1"), result("a", "1"))) != 1,
    "w25_accepts_unknown_type": lambda m: accepted(m, log_of(m), "s", "thought", {}),
    "w26_accepts_empty_session_id": lambda m: accepted(m, log_of(m), *user("")),
    "w27_accepts_non_str_session_id": lambda m: accepted(m, log_of(m), 7, *user("s")[1:]),
    "w28_accepts_missing_key": lambda m: accepted(m, log_of(m), "s", "user_message", {}),
    "w29_accepts_non_str_content": lambda m: accepted(m, log_of(m), *user("s", 5)),
    "w30_accepts_empty_call_id_or_name": lambda m: accepted(m, log_of(m), *call("s", "")),
    "w31_accepts_reused_call_id": lambda m: accepted(m, log_of(m, *ONE_CALL), *call("s", "1")),
    "w32_accepts_result_without_call": lambda m: accepted(m, log_of(m), *result("s", "1")),
    "w33_accepts_second_result": lambda m: accepted(
        m, log_of(m, *CALL_AND_RESULT), *result("s", "1")),
    "w34_call_ids_global": lambda m: not accepted(m, log_of(m, call("a", "1")), *call("b", "1")),
    "w35_rejects_invalid_json_arguments": lambda m: not accepted(
        m, log_of(m), *call("s", "1", arguments="{not json")),
    "w36_type_error_for_non_mapping": _raises_non_value_error,
    "w37_appends_before_raising": _appended_despite_refusal,
    "w38_rejects_empty_content": lambda m: not accepted(m, log_of(m), *user("s", "")),
}
# fmt: on
