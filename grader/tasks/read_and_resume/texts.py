"""Task 2's words: its name, get_events_for_session's promises, and a hint for each."""
# ruff: noqa: RUF001 - the Chinese sentences use Chinese punctuation

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

#: The Chinese: id -> (fingerprint of the English it translates, translation); see
#: :func:`grader.i18n.fingerprint`. One entry a line, in the order of EN.
# fmt: off
ZH: dict[str, tuple[str, str]] = {
    "task.read_and_resume.name": ("0797d83d", "读取会话与断线续传"),
    "promise.read.session_only": ("1ca1903d", "只返回这个会话的事件，从旧到新排列，每个都和 append_event 当初返回的一样：别的会话的事件绝不能混进来（会话 id 精确比较：\"a\" 不等于 \"A\"、\"ab\"、\"a \"，也不等于用另一种 Unicode 形式写出的同样字母）。"),
    "promise.read.after": ("42cfa52c", "恰好是 event_id 大于 after_event_id 的那些事件，不管 after_event_id 是多少（0、负数、别的会话的 id、比所有 id 都大）。"),
    "promise.read.result_is_a_copy": ("17ac7b8e", "返回的序列归调用方所有（用元组最简单）：修改它，或者修改其中事件的 payload，都不会改动日志，返回空序列时也一样。"),
    "hint.read.session_only.1": ("4b371e0e", "只保留 session_id 与查询的会话 id 相等（用 ==）的事件，顺序与追加顺序一致。"),
    "hint.read.session_only.2": ("5ca25a8b", "会话 id 按原样比较：不要 lower()、strip()、startswith()，不要做 Unicode 规范化，也不要用会话 id 和别的东西拼出来的键。"),
    "hint.read.after.1": ("0e445ba9", "比较事件 id，而不是位置：保留 event_id > after_event_id 的事件。"),
    "hint.read.after.2": ("1414efe0", "任何 int 都是合法的 after_event_id：0、负数、别的会话的 id，或者超过末尾的 id。按 id 过滤，不要按位置或数量切片。"),
    "hint.read.result_is_a_copy.1": ("7ca65ac0", "每次调用都返回一个新序列，不要返回日志内部保存的列表。"),
    "hint.read.result_is_a_copy.2": ("7cc255c4", "每次都新建一个元组（空的也一样：对所有未知会话都返回同一个 []，就等于给了所有调用方一个谁都能改的列表），里面事件的 payload 谁都改不了。"),
}
# fmt: on
