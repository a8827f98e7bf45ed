"""The exercises' docstrings in Chinese (see :mod:`maintainer.translations.docstrings`).

``ZH`` maps each docstring's key (``"event_log"`` for a module, ``"event_log.append_event"``
for a function) to ``(fingerprint of the English, translation)``; the English is the stub's
docstring without its promise bullets, whose Chinese is the grader's. A long line is wrapped
when the stub is built, so a paragraph is written on one line; a line already short enough
(a table, an example) is kept as it is.
"""
# ruff: noqa: E501, RUF001 - paragraphs on one line, in Chinese punctuation

from __future__ import annotations

from inspect import cleandoc


def doc(fingerprint: str, translation: str) -> tuple[str, str]:
    """An entry: the fingerprint, and the translation without its source indentation."""
    return fingerprint, cleandoc(translation)


ZH: dict[str, tuple[str, str]] = {
    "__init__": doc(
        "4cd19179",
        r"""
        你要实现的五个事件日志函数。用 ``python -m grader`` 给它们判题。

        请按下面的顺序来写；判题时每个任务只需要它自己的函数，外加两个用来构造日志的函数：

        1. ``create_event_log`` 和 ``append_event``（``event_log.py``）：任务 1，以及之后的每个任务；
        2. ``get_events_for_session``（``sessions.py``）：任务 2 和任务 5（它要读取被拒绝的追加留下了什么）；写好之后，任务 1 也会用它查看日志的内容；
        3. ``list_sessions``（``sessions.py``）：任务 3；
        4. ``replay_session``（``replay.py``）：任务 4。

        只能使用标准库：判题器在一个单独的解释器里运行你的代码，那里除了标准库什么都没有（``import`` 其他任何东西都会报告为加载错误）。
        """,
    ),
    "event_log": doc(
        "128050e7",
        r"""
        创建日志、向日志追加事件：日志只能这样变长。

        按顺序逐个实现下面的函数，每写完一个就运行一次 ``python -m grader``：它会告诉你违反了哪条约定，并给出能复现问题的最小反例。

        payload 里可以放什么。顶层是任意以字符串为键的映射（``dict``、``types.MappingProxyType``，或者你自己写的 ``Mapping`` 类）。它的值是用 Python 写出来的 JSON 数据：``str``、``int``（最多 4,300 位数字）、``float``（有限值）、``bool``、``None``，由 JSON 数据组成的列表和元组，以及以字符串为键的字典，最多 200 层，payload 本身算第一层（判题器不会嵌套得更深，所以递归复制没有问题）。其他东西（bytes、集合、任意对象、不是字符串的键、NaN、超过 4,300 位数字的 int、同一个映射里按 JSON 计数会变成同一个的两个键：一对代理项和它编码的那个字符）都不在约定之内：保留、转换还是拒绝，由你决定；判题器从不传入这类值。（4,300 位是 Python 能写成文本、也能从文本读回的最大位数，所以经由 JSON 文本复制，约定允许的每个 int 都能保留。）

        payload 的“相等”是什么意思。键相同，每个键对应的值都与传入的值相等，而且类型一致：``str`` 仍是 ``str``，字符相同（按 JSON 的方式计数：能配成一对的两个代理项 ``"\ud83d\ude42"`` 就是它们编码的那一个字符 ``"🙂"``；落单的代理项保持原样）；``int`` 仍是 ``int``（``True`` 不等于 ``1``，``1.0`` 也不等于 ``1``）；``float`` 仍是 ``float``，值和符号都相同（``-0.0`` 不等于 ``0.0``）；``bool`` 仍是 ``bool``；列表和元组可以互换，只要逐项相等；映射可以换成任意映射，只要逐键相等。所以冻结后的副本（列表变成元组、字典变成只读映射）与传入的值相等，从 JSON 文本解析回来的副本也一样。
        """,
    ),
    "event_log.create_event_log": doc(
        "9e44f575",
        r"""
        返回一个空的事件日志。

        日志是不可变的值：追加永远不会改变它，而是返回一个新日志。日志内部长什么样由你决定（由事件组成的元组、装着这个元组的冻结 dataclass……）；判题器从不查看日志内部，只会把它交回给你的其他函数。

        为什么要不可变？因为事件日志是一本账。旧的日志值始终准确地描述着它当初描述的那段过去，正因如此，你才能重建任意一个较早事件时的状态。

        示例：
            >>> log = create_event_log()
            >>> list_sessions(log)
            ()
        """,
    ),
    "event_log.append_event": doc(
        "197ae197",
        r"""
        追加一个事件，返回 ``(new_log, event)``；``log`` 本身不能改变。

        参数：
            log: 要扩展的日志：最新的那个，或者任何一个更早的。
            session_id: 事件所属的对话：一个非空的 ``str``（``str`` 的子类也行），按原样精确比较，按 Python 的方式逐个字符比较：大小写、空格和 Unicode 形式都算数，一对代理项（``"\\ud83d\\ude42"``）和它编码的那个字符（``"🙂"``）是两个不同的 id。
            event_type: ``user_message``、``assistant_message``、``tool_call``、``tool_result`` 之一（值为其中之一的 ``str`` 子类也行：凡是要字符串的地方，``str`` 的子类都是 ``str``）。
            payload: 事件的详细内容（可以包含什么，见模块的 docstring）。必需的键如下，值都是字符串：
                user_message / assistant_message：``content``；
                tool_call：``call_id``（不能为空，比较方式与会话 id 相同）和 ``name``（不能为空），以及 ``arguments``（模型生成的 JSON 文本，即使不是合法的 JSON 也按原样保存）；
                tool_result：``call_id``（不能为空）和 ``content``。

        返回：
            新日志，以及事件：任何带有 ``event_id``（``int``，不能是 ``bool``）、``session_id``（``str``）、``type``（``str``）和 ``payload``（映射）这几个属性的对象。

        约定：

        为什么这样设计：事件日志是唯一的事实源。在入口就拒绝非法输入，之后的每一次回放才能保持有效；而“从第 4 个事件之后断线续传”，靠的正是全局递增的事件 id。

        示例：
            >>> log = create_event_log()
            >>> log, event = append_event(log, "sess_a", "user_message", {"content": "hello"})
            >>> event.event_id, event.session_id, event.type, dict(event.payload)
            (1, 'sess_a', 'user_message', {'content': 'hello'})
        """,
    ),
    "sessions": doc(
        "7199eb75",
        r"""
        读取日志：一个会话的事件、从某个 id 之后断线续传，以及会话列表。
        """,
    ),
    "sessions.get_events_for_session": doc(
        "8ee3aba1",
        r"""
        返回这个会话中 ``event_id`` 大于 ``after_event_id`` 的事件。

        ``after_event_id`` 用于断线续传：客户端的连接在第 4 个事件之后断开，就请求第 4 个之后的全部事件，一个也不会漏掉。

        约定：

        示例：
            >>> log = create_event_log()
            >>> log, _ = append_event(log, "a", "user_message", {"content": "hi"})
            >>> log, _ = append_event(log, "b", "user_message", {"content": "yo"})
            >>> log, _ = append_event(log, "a", "assistant_message", {"content": "hello"})
            >>> [e.event_id for e in get_events_for_session(log, "a")]
            [1, 3]
            >>> [e.event_id for e in get_events_for_session(log, "a", after_event_id=1)]
            [3]
        """,
    ),
    "sessions.list_sessions": doc(
        "a58f51ac",
        r"""
        返回有事件的那些会话的 id。

        约定：

        示例：
            >>> log = create_event_log()
            >>> for session in ["b", "a", "b"]:
            ...     log, _ = append_event(log, session, "user_message", {"content": "."})
            >>> list(list_sessions(log))
            ['b', 'a']
        """,
    ),
    "replay": doc(
        "dadd5c6b",
        r"""
        回放：把一个会话的事件折叠成模型 API 能接受的聊天消息。
        """,
    ),
    "replay.replay_session": doc(
        "4889b59b",
        r"""
        把会话重建成 OpenAI Chat Completions 格式的消息，可以直接再发给模型。

        回放就是一次折叠：从空的消息列表开始，按从旧到新的顺序，把会话的事件逐个应用上去：

        - user_message      -> ``{"role": "user", "content": c}``
        - assistant_message -> ``{"role": "assistant", "content": c}``
        - tool_call         -> ``{"role": "assistant", "content": None, "tool_calls": [{"id": call_id,
          "type": "function", "function": {"name": name, "arguments": arguments}}]}``。连续的一串
          tool_call 事件合并成一条 assistant 消息，其中的 ``tool_calls`` 保持原来的顺序：API 要求
          并行的工具调用放在同一条消息里，紧接着就是它们的结果。
        - tool_result       -> ``{"role": "tool", "tool_call_id": call_id, "content": c}``

        约定：

        为什么这样设计：日志保存的是发生过的事，回放从中推导出模型需要的状态。崩溃之后，恢复一段对话不过是把它回放一遍。

        示例：
            >>> log = create_event_log()
            >>> log, _ = append_event(log, "a", "user_message", {"content": "how many orders?"})
            >>> log, _ = append_event(
            ...     log, "a", "tool_call",
            ...     {"call_id": "call_1", "name": "query_order_count", "arguments": "{}"})
            >>> log, _ = append_event(log, "a", "tool_result", {"call_id": "call_1", "content": "42"})
            >>> [m["role"] for m in replay_session(log, "a")]
            ['user', 'assistant', 'tool']
        """,
    ),
}
