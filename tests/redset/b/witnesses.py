"""The witness of every wrong file: a short program on which it and the reference differ.

Each witness is a function of a ``Trace`` (see ``harness.py``): ``t.new()``, ``t.add(log,
session_id, type, payload)`` (returns the new log and the event, or the same log and None
when refused), ``t.get``, ``t.sessions``, ``t.replay``, ``t.poke(x)`` (change x at every
depth, where it lets itself be changed) and ``t.note(x)``. The program's control flow never
depends on the implementation, only what is recorded does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from programs import Bag, Text

WITNESSES: dict[str, "Witness"] = {}


@dataclass(frozen=True)
class Witness:
    program: Callable[[Any], None]
    what: str
    size: str


def witness(stem: str, what: str, size: str) -> Callable[[Callable[[Any], None]], Any]:
    def register(program: Callable[[Any], None]) -> Callable[[Any], None]:
        assert stem not in WITNESSES, stem
        WITNESSES[stem] = Witness(program, what, size)
        return program

    return register


def user(text: str = "hi") -> dict[str, Any]:
    return {"content": text}


def call(call_id: str, name: str = "f", arguments: str = "{}") -> dict[str, Any]:
    return {"call_id": call_id, "name": name, "arguments": arguments}


def result(call_id: str, content: str = "ok") -> dict[str, Any]:
    return {"call_id": call_id, "content": content}


def fill(t: Any, log: Any, session_id: str, count: int, kind: str = "user_message") -> Any:
    for i in range(count):
        log, _ = t.add(log, session_id, kind, {"content": f"m{i}"}, quiet=True)
    return log


def nested_lists(depth: int) -> tuple[list[Any], list[Any]]:
    """A list nested ``depth`` lists deep, and the innermost one."""
    inner: list[Any] = [0]
    outer = inner
    for _ in range(depth - 1):
        outer = [outer]
    return outer, inner


def calls_then(t: Any, log: Any, session_id: str, count: int, *, answer: bool) -> Any:
    for i in range(count):
        log, _ = t.add(log, session_id, "tool_call", call(f"c{i}"), quiet=True)
        if answer:
            log, _ = t.add(log, session_id, "tool_result", result(f"c{i}"), quiet=True)
    return log


# ----------------------------------------------------------------- sizes: payload shape


@witness("w01_freeze_depth_192", "nesting depth of a payload", "a list 195 deep (payload 196 levels)")
def _(t: Any) -> None:
    deep, inner = nested_lists(195)
    log, _ = t.add(t.new(), "a", "user_message", {"content": "x", "deep": deep})
    inner.append(1)
    t.get(log, "a")


@witness("w02_long_list_shallow_512", "items in a list", "513 items")
def _(t: Any) -> None:
    rows = [[i] for i in range(513)]
    log, _ = t.add(t.new(), "a", "user_message", {"content": "x", "rows": rows})
    rows[0].append("changed")
    t.get(log, "a")


@witness("w03_flat_probe_64", "items in a list", "65 items, a dict last")
def _(t: Any) -> None:
    items: list[Any] = [0] * 64 + [{"k": 1}]
    log, _ = t.add(t.new(), "a", "user_message", {"content": "x", "items": items})
    items[64]["k"] = 2
    t.get(log, "a")


@witness("w04_big_dict_view_1024", "keys in a mapping", "1025 keys")
def _(t: Any) -> None:
    table = {f"k{i}": i for i in range(1025)}
    log, _ = t.add(t.new(), "a", "user_message", {"content": "x", "table": table})
    table["k0"] = "changed"
    t.get(log, "a")


# ----------------------------------------------------------------- sizes: integers, texts


@witness("w05_json_copy_int_digits", "size of an integer", "10**4300 (4301 digits)")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "user_message", {"content": "x", "n": 10**4300})
    t.get(log, "a")


@witness("w06_int64_to_text", "size of an integer", "2**63")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "user_message", {"content": "x", "n": 2**63})
    t.get(log, "a")


@witness("w07_big_int_as_float", "size of an integer", "2**53 + 1")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "user_message", {"content": "x", "n": 2**53 + 1})
    t.get(log, "a")


@witness("w08_number_intern_table", "interning table; 1 vs 1.0, 0.0 vs -0.0", "2 appends")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "user_message", {"content": "x", "n": 1.0, "z": 0.0})
    log, _ = t.add(log, "a", "user_message", {"content": "y", "n": 1, "z": -0.0})
    t.get(log, "a")


@witness("w09_text_intern_by_prefix", "length of a text (interning)", "2 texts of 1025 chars")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "user_message", {"content": "a" * 1024 + "b"})
    log, _ = t.add(log, "a", "user_message", {"content": "a" * 1024 + "c"})
    t.get(log, "a")


@witness("w10_text_chunks_2_17", "length of a text (chunked)", "131073 chars (2**17 + 1)")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "user_message", {"content": "x" * 2**17 + "y"})
    t.get(log, "a")


@witness("w11_replay_clips_results", "length of a text in a replay", "131073 chars")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "tool_call", call("c"))
    log, _ = t.add(log, "a", "tool_result", result("c", "r" * (2**17 + 1)))
    t.replay(log, "a")


@witness("w12_sqlite_varchar_255", "length of a session id", "2 ids of 256 chars")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "s" * 255 + "1", "user_message", user("one"))
    log, _ = t.add(log, "s" * 255 + "2", "user_message", user("two"))
    t.get(log, "s" * 255 + "1")


# ----------------------------------------------------------------- sizes: calls, runs, replays


@witness("w13_result_lookback_1024", "gap between a call and its result", "1024 events")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "tool_call", call("c"))
    log = fill(t, log, "a", 1024)
    log, _ = t.add(log, "a", "tool_result", result("c"))


@witness("w14_reuse_lookback_2048", "a call id reused long after", "2048 events later")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "tool_call", call("c"))
    log, _ = t.add(log, "a", "tool_result", result("c"))
    log = fill(t, log, "b", 2048)
    log, _ = t.add(log, "a", "tool_call", call("c"))


@witness("w15_run_cap_256", "a run of consecutive calls", "257 calls")
def _(t: Any) -> None:
    log = calls_then(t, t.new(), "a", 257, answer=False)
    t.replay(log, "a")


@witness("w16_replay_window_1024", "messages in a replay", "1025 messages")
def _(t: Any) -> None:
    t.replay(fill(t, t.new(), "a", 1025), "a")


@witness("w17_replay_memo_512", "size of a replay changed by the caller", "513 messages")
def _(t: Any) -> None:
    log = fill(t, t.new(), "a", 513)
    t.poke(t.replay(log, "a"))
    t.replay(log, "a")


# ----------------------------------------------------------------- extra keys named like fields


@witness("w18_flat_row_drops_type_key", "extra keys named like the event's fields", "1 append")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "user_message", {"content": "x", "type": "note"})
    t.get(log, "a")


@witness("w19_flat_row_payload_wins", "extra keys named like the event's fields", "1 append")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "user_message", {"content": "x", "session_id": "b"})
    t.get(log, "a")
    t.sessions(log)


@witness("w20_call_message_keeps_content", "extra key named like a message field", "1 call")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "tool_call", {**call("c"), "content": "let me look"})
    t.replay(log, "a")


@witness("w21_call_type_from_payload", "extra key named like a message field", "1 call")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "tool_call", {**call("c"), "type": "custom"})
    t.replay(log, "a")


@witness("w22_user_name_passthrough", "extra key named like a message field", "1 message")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "user_message", {"content": "x", "name": "bob"})
    t.replay(log, "a")


@witness("w23_result_prefers_tool_call_id", "extra key named like a message field", "2 events")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "tool_call", call("c"))
    log, _ = t.add(log, "a", "tool_result", {**result("c"), "tool_call_id": "other"})
    t.replay(log, "a")


@witness("w24_assistant_fields_passthrough", "extra key named like a message field", "1 message")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "assistant_message", {"content": "x", "refusal": "no"})
    t.replay(log, "a")


# ----------------------------------------------------------------- str subclasses


@witness("w25_exact_str_required", "a str subclass as a required value", "1 append")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "user_message", {"content": Text("hi")})
    t.get(log, "a")


@witness("w26_exact_str_event_type", "a str subclass as the event type", "1 append")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", Text("user_message"), {"content": "hi"})
    t.get(log, "a")


@witness("w27_strict_json_scalars", "a str subclass in an extra key", "1 append")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "user_message", {"content": "x", "tags": [Text("t")]})
    t.get(log, "a")


# ----------------------------------------------------------------- lone surrogates


@witness("w28_session_key_utf8_replace", "lone surrogate beside its replacement (session)", "2 sessions")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a\ud800", "user_message", user("one"))
    log, _ = t.add(log, "a?", "user_message", user("two"))
    t.get(log, "a?")
    t.sessions(log)


@witness("w29_call_key_utf8_ignore", "lone surrogate beside its removal (call id)", "2 calls")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "tool_call", call("c\udfff"))
    log, _ = t.add(log, "a", "tool_call", call("c"))


@witness("w30_tool_name_utf8_replace", "lone surrogate in a tool name", "1 call")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "tool_call", call("c", name="f\ud800"))
    t.replay(log, "a")


# ----------------------------------------------------------------- keys of sessions and calls


@witness("w31_session_key_64_chars", "length of a session id", "2 ids of 65 chars")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "s" * 64 + "1", "user_message", user("one"))
    log, _ = t.add(log, "s" * 64 + "2", "user_message", user("two"))
    t.get(log, "s" * 64 + "2")


@witness("w32_call_key_256_chars", "length of a call id", "2 ids of 257 chars")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "tool_call", call("x" * 256 + "1"))
    log, _ = t.add(log, "a", "tool_call", call("x" * 256 + "2"))


@witness("w33_session_key_crc32", "hash-bucketed session index", "2 ids with one CRC-32")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "s29685295", "user_message", user("one"))
    log, _ = t.add(log, "s32060020", "user_message", user("two"))
    t.get(log, "s32060020")


@witness("w34_call_key_joined", "session ids related by a separator", "2 calls")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a/b", "tool_call", call("c"))
    log, _ = t.add(log, "a", "tool_call", call("b/c"))


@witness("w35_calls_in_flight_256", "open calls", "257 open calls")
def _(t: Any) -> None:
    log = calls_then(t, t.new(), "a", 257, answer=False)
    t.add(log, "a", "tool_result", result("c0"))


@witness("w36_answered_history_512", "answered calls", "513 answered calls")
def _(t: Any) -> None:
    log = calls_then(t, t.new(), "a", 513, answer=True)
    t.add(log, "a", "tool_call", call("c0"))


@witness("w37_unhashable_call_id", "a bad value of an unhashable type, tool_result", "1 append")
def _(t: Any) -> None:
    t.add(t.new(), "a", "tool_result", {"call_id": ["c"], "content": "x"})


# ----------------------------------------------------------------- results the caller changes


@witness("w38_resume_blocks_256", "events in one session", "256 events")
def _(t: Any) -> None:
    t.get(fill(t, t.new(), "a", 256), "a")


@witness("w39_read_cache_1024", "size of a read changed by the caller", "1024 events")
def _(t: Any) -> None:
    log = fill(t, t.new(), "a", 1024)
    t.poke(t.get(log, "a"))
    t.get(log, "a")


@witness("w40_session_list_cache_128", "size of a session list changed by the caller", "129 sessions")
def _(t: Any) -> None:
    log = t.new()
    for i in range(129):
        log, _ = t.add(log, f"s{i}", "user_message", user(), quiet=True)
    t.poke(t.sessions(log))
    t.sessions(log)


@witness("w41_no_events_shared", "an empty read changed by the caller", "1 event")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "user_message", user())
    t.poke(t.get(log, "nobody"))
    t.get(log, "other")


@witness("w42_no_sessions_shared", "an empty session list changed by the caller", "0 events")
def _(t: Any) -> None:
    t.poke(t.sessions(t.new()))
    t.sessions(t.new())


@witness("w43_no_messages_shared", "an empty replay changed by the caller", "1 event")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "user_message", user())
    t.poke(t.replay(log, "nobody"))
    t.replay(log, "other")


@witness("w44_event_attributes_shared", "assignment to an event's attributes", "1 event")
def _(t: Any) -> None:
    log, event = t.add(t.new(), "a", "user_message", user())
    t.poke(event)
    t.get(log, "a")


# ----------------------------------------------------------------- copies of the caller's payload


@witness("w45_tuples_kept_as_is", "a list inside a tuple", "1 append")
def _(t: Any) -> None:
    inner = [1]
    log, _ = t.add(t.new(), "a", "user_message", {"content": "x", "t": (inner,)})
    inner.append(2)
    t.get(log, "a")


@witness("w46_other_mappings_shallow", "a list inside a payload that is a custom Mapping", "1 append")
def _(t: Any) -> None:
    inner = [1]
    log, _ = t.add(t.new(), "a", "user_message", Bag({"content": "x", "l": inner}))
    inner.append(2)
    t.get(log, "a")


@witness("w47_tool_handlers_skip_session", "an empty session id, tool_call", "1 call")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "", "tool_call", call("c"))
    t.sessions(log)


@witness("w48_numbers_plus_zero", "-0.0 in a payload", "1 append")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "user_message", {"content": "x", "z": -0.0})
    t.get(log, "a")


@witness("w49_freeze_memo_by_identity", "one mapping, two appends, changed in between", "2 appends")
def _(t: Any) -> None:
    payload = {"content": "first"}
    log, _ = t.add(t.new(), "a", "user_message", payload)
    payload["content"] = "later"
    log, _ = t.add(log, "a", "user_message", payload)
    t.get(log, "a")


# ----------------------------------------------------------------- arguments


@witness("w50_arguments_sorted_keys", "JSON arguments with several keys", "2 keys")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "tool_call", call("c", arguments='{"b":1,"a":2}'))
    t.replay(log, "a")


@witness("w51_arguments_pretty_compacted", "JSON arguments with line breaks", "1 call")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "tool_call", call("c", arguments='{\n  "a": 1\n}'))
    t.replay(log, "a")


# ----------------------------------------------------------------- bad input


@witness("w52_event_type_set_lookup", "a list as the event type", "1 append")
def _(t: Any) -> None:
    t.add(t.new(), "a", ["user_message"], user())


@witness("w53_blank_name_refused", "a tool name of spaces", "1 call")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "tool_call", call("c", name=" "))
    t.replay(log, "a")


@witness("w54_assistant_null_content", "None as assistant content", "1 append")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "assistant_message", {"content": None})
    t.get(log, "a")


@witness("w55_arguments_default_empty", "a missing key, tool_call", "1 append")
def _(t: Any) -> None:
    t.add(t.new(), "a", "tool_call", {"call_id": "c", "name": "f"})


@witness("w56_result_content_default", "a missing key, tool_result", "2 appends")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "tool_call", call("c"))
    t.add(log, "a", "tool_result", {"call_id": "c"})


# ----------------------------------------------------------------- sessions: order and families


@witness("w57_seen_sessions_lru_256", "sessions, interleaved", "257 sessions, then the first again")
def _(t: Any) -> None:
    log = t.new()
    for i in [*range(257), 0]:
        log, _ = t.add(log, f"s{i}", "user_message", user(), quiet=True)
    t.sessions(log)


@witness("w58_sessions_joined_text", "session ids related by a separator", "2 sessions")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "p\x1eq", "user_message", user())
    log, _ = t.add(log, "p", "user_message", user())
    t.sessions(log)


# ----------------------------------------------------------------- replay runs


@witness("w59_empty_assistant_takes_calls", "an empty assistant message ends a run", "2 events")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "assistant_message", {"content": ""})
    log, _ = t.add(log, "a", "tool_call", call("c"))
    t.replay(log, "a")


@witness("w60_foreign_result_ends_run", "another session's result inside a run", "4 events")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "tool_call", call("a1"))
    log, _ = t.add(log, "b", "tool_call", call("b1"))
    log, _ = t.add(log, "b", "tool_result", result("b1"))
    log, _ = t.add(log, "a", "tool_call", call("a2"))
    t.replay(log, "a")


# ----------------------------------------------------------------- chunk borders


@witness("w61_chunk_sealed_early", "events in a log", "1025 events")
def _(t: Any) -> None:
    t.get(fill(t, t.new(), "a", 1025), "a", 1020)


@witness("w62_resume_chunk_border", "events in a log (resume at a border)", "1100 events, after 1023")
def _(t: Any) -> None:
    t.get(fill(t, t.new(), "a", 1100), "a", 1023)


# ----------------------------------------------------------------- the shared store


@witness("w63_refused_call_reserves_id", "a refused append leaves no used call id", "2 calls")
def _(t: Any) -> None:
    log = t.new()
    t.add(log, "a", "tool_call", call("c", name=""))
    t.add(log, "a", "tool_call", call("c"))


@witness("w64_refused_result_forgets_call", "a refused second result, then another rule", "4 appends")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "tool_call", call("c"))
    log, _ = t.add(log, "a", "tool_result", result("c"))
    log, _ = t.add(log, "a", "tool_result", result("c"))
    t.add(log, "a", "tool_call", call("c"))


@witness("w65_branch_checked_at_tip", "an append tried on an older log", "3 appends")
def _(t: Any) -> None:
    older, _ = t.add(t.new(), "a", "tool_call", call("c"))
    t.add(older, "a", "tool_result", result("c"))
    t.add(older, "a", "tool_result", result("c"))


@witness("w66_branch_shares_positions", "a branch, then a read of a newer log", "3 appends")
def _(t: Any) -> None:
    older, _ = t.add(t.new(), "a", "user_message", user("a1"))
    newer, _ = t.add(older, "b", "user_message", user("b1"))
    t.add(older, "a", "user_message", user("a2"))
    t.get(newer, "a")


@witness("w67_branch_shares_first_seen", "a branch, then a list of a newer log", "3 appends")
def _(t: Any) -> None:
    older, _ = t.add(t.new(), "a", "user_message", user())
    newer, _ = t.add(older, "b", "user_message", user())
    t.add(older, "c", "user_message", user())
    t.sessions(newer)


@witness("w68_refused_session_registered", "a session whose only append was refused", "2 appends")
def _(t: Any) -> None:
    log = t.new()
    t.add(log, "x", "tool_result", result("nope"))
    log, _ = t.add(log, "y", "user_message", user())
    t.sessions(log)


@witness("w69_refused_result_replayed", "a refused append followed by a replay", "2 appends")
def _(t: Any) -> None:
    log, _ = t.add(t.new(), "a", "user_message", user())
    t.add(log, "a", "tool_result", result("nope"))
    t.replay(log, "a")
