"""Task 4's words: its name, replay_session's promises, and a hint for each."""
# ruff: noqa: RUF001 - the Chinese sentences use Chinese punctuation

from __future__ import annotations

EN = {
    "task.replay.name": "Replaying a session into chat messages",
    "promise.replay.mapping": (
        "Each event becomes the message of its type (a user, an assistant or a tool message; a "
        "tool call, an assistant message with tool_calls), oldest first: those keys and no "
        "others (extra payload keys stay out), every string as it was stored (never parsed)."
    ),
    "promise.replay.merge": (
        "Consecutive tool_call events of the session become one assistant message whose "
        "tool_calls keep their order, however many there are; any other event of the same "
        "session ends the run (an assistant message too, even an empty one), events of other "
        "sessions do not."
    ),
    "promise.replay.isolated": (
        "Only this session's events count: a session without events replays to an empty sequence."
    ),
    "promise.replay.fresh": (
        "Every call builds fresh objects: a caller who edits the returned messages, at any depth, "
        "does not change what the next replay returns."
    ),
    "hint.replay.mapping.1": (
        "Build each message from the payload's own keys only, exactly as the docstring shows: "
        "never copy the payload into the message."
    ),
    "hint.replay.mapping.2": (
        "A tool result's content and a call's arguments are text: keep them as they are, never "
        "json.loads them."
    ),
    "hint.replay.merge.1": (
        "A tool_call joins the previous message when the session's previous event was also a "
        "tool_call; any other event of the session ends the run."
    ),
    "hint.replay.merge.2": (
        "Decide by the previous event's type, not by the previous message's shape: an empty "
        "assistant message is not a run of calls. A run has no length limit."
    ),
    "hint.replay.isolated.1": "Replay only the given session's events: filter by session_id first.",
    "hint.replay.isolated.2": "A session without events replays to an empty sequence; keep no cache between calls.",
    "hint.replay.fresh.1": "Build new dicts and lists on every call.",
    "hint.replay.fresh.2": "Do not cache messages, and do not share a dict or list with the log or with an earlier replay.",
}

#: The Chinese: id -> (fingerprint of the English it translates, translation); see
#: :func:`grader.i18n.fingerprint`. One entry a line, in the order of EN.
# fmt: off
ZH: dict[str, tuple[str, str]] = {
    "task.replay.name": ("f1c8792c", "把会话回放成聊天消息"),
    "promise.replay.mapping": ("5872168e", "每个事件都变成它那种类型的消息（user、assistant 或 tool 消息；工具调用变成带 tool_calls 的 assistant 消息），从旧到新排列：只有这些键，没有别的（payload 里多出来的键不带进来），每个字符串都保持存入时的样子（不做解析）。"),
    "promise.replay.merge": ("4e295386", "会话中连续的 tool_call 事件合并成一条 assistant 消息，tool_calls 保持原来的顺序，不管有多少个；同一会话的任何其他事件都会结束这一串（assistant 消息也算，哪怕是空的），别的会话的事件则不会。"),
    "promise.replay.isolated": ("042121dc", "只算这个会话的事件：没有事件的会话回放出来是空序列。"),
    "promise.replay.fresh": ("72523ccc", "每次调用都构造新对象：调用方修改返回的消息，不管改在哪一层，都不会影响下一次回放的结果。"),
    "hint.replay.mapping.1": ("ddfc0fcd", "只用 payload 里对应的键来构造每条消息，严格照 docstring 的样子：不要把整个 payload 复制进消息。"),
    "hint.replay.mapping.2": ("3b487c8b", "工具结果的 content 和工具调用的 arguments 都是文本：保持原样，不要 json.loads。"),
    "hint.replay.merge.1": ("76846e91", "如果会话的上一个事件也是 tool_call，这个 tool_call 就并入上一条消息；这个会话的任何其他事件都会结束这一串。"),
    "hint.replay.merge.2": ("9a9aea38", "根据上一个事件的类型来判断，而不是看上一条消息长什么样：空的 assistant 消息不是一串工具调用。一串工具调用没有长度上限。"),
    "hint.replay.isolated.1": ("be927875", "只回放指定会话的事件：先按 session_id 过滤。"),
    "hint.replay.isolated.2": ("8d696fb0", "没有事件的会话回放为空序列；调用之间不要保留缓存。"),
    "hint.replay.fresh.1": ("9696043a", "每次调用都新建字典和列表。"),
    "hint.replay.fresh.2": ("85caf77e", "不要缓存消息，也不要和日志或之前的回放结果共用字典或列表。"),
}
# fmt: on
