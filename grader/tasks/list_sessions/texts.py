"""Task 3's words: its name, list_sessions's promises, and a hint for each."""
# ruff: noqa: RUF001 - the Chinese sentences use Chinese punctuation

from __future__ import annotations

EN = {
    "task.list_sessions.name": "Listing sessions",
    "promise.list.sessions": (
        "Every session that has events, each once, in the order of its first event (none for an "
        "empty log; a session whose only append was refused has no events)."
    ),
    "promise.list.result_is_a_copy": (
        "The sequence returned is the caller's own: changing it changes nothing the next call "
        "returns, also when it is empty."
    ),
    "hint.list.sessions.1": "Walk the events oldest first and keep each session id the first time you see it.",
    "hint.list.sessions.2": (
        "tuple(dict.fromkeys(e.session_id for e in events)): dict keys keep insertion order "
        "and drop repeats. Compare ids exactly, and keep nothing between calls."
    ),
    "hint.list.result_is_a_copy.1": "Build the answer anew on every call.",
    "hint.list.result_is_a_copy.2": "Return a new tuple every time, an empty one too; never a list the log keeps.",
}

#: The Chinese: id -> (fingerprint of the English it translates, translation); see
#: :func:`grader.i18n.fingerprint`. One entry a line, in the order of EN.
# fmt: off
ZH: dict[str, tuple[str, str]] = {
    "task.list_sessions.name": ("98b44e5c", "列出会话"),
    "promise.list.sessions": ("986e1753", "每个有事件的会话各出现一次，按各自第一个事件的顺序排列（空日志没有会话；唯一一次追加被拒绝的会话没有事件）。"),
    "promise.list.result_is_a_copy": ("3b02e98c", "返回的序列归调用方所有：修改它不会影响下一次调用的结果，返回空序列时也一样。"),
    "hint.list.sessions.1": ("1c4c99dd", "从最早的事件开始遍历，每个会话 id 第一次出现时记下它。"),
    "hint.list.sessions.2": ("f6514416", "tuple(dict.fromkeys(e.session_id for e in events))：dict 的键保持插入顺序，并且自动去重。会话 id 要精确比较，调用之间不要保留任何东西。"),
    "hint.list.result_is_a_copy.1": ("60070b01", "每次调用都重新构造结果。"),
    "hint.list.result_is_a_copy.2": ("107ccb26", "每次都返回一个新的元组，空的也一样；不要返回日志内部保存的列表。"),
}
# fmt: on
