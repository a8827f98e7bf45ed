"""Notebook 3 in Chinese: its markdown cells, and the code cells whose words are English,
each keyed by the fingerprint of its English."""

# ruff: noqa: E501, RUF001 - Chinese paragraphs on one line, in Chinese punctuation

from __future__ import annotations

from cells import code, md

CELLS = {
    "0d1e1b13": md(r"""
    # 3. 纯 Python 的事件日志：你的五个函数

    在碰任何数据库之前，先看思想本身：**事件日志**是一串不可变的事件，其他一切（一个会话的历史、会话列表、模型需要的聊天消息）都由它计算出来。在这篇 notebook 里，你要把这条日志写成五个普通的 Python 函数，放在这个文件夹旁边的 `exercises` 包里：

    | 文件 | 函数 |
    |---|---|
    | `exercises/event_log.py` | `create_event_log`、`append_event` |
    | `exercises/sessions.py` | `get_events_for_session`、`list_sessions` |
    | `exercises/replay.py` | `replay_session` |

    不写 SQL，不碰文件：真正要紧的约定（只追加、不可变、按会话隔离、可回放）与存储引擎毫无关系，而纯函数是世上最容易测试的东西。第 4 篇 notebook 会展示同一份约定怎样落到 SQLite 上。

    **怎么做**。在编辑器里打开一个文件，把 `raise NotImplementedError` 换成你的代码，保存，然后在这里重新运行那个任务的单元格。判题器检查的是**行为**，从不看代码长什么样：它向你的函数扔出成百上千个生成的输入，一旦某个输入违反了规则，就用一句话说出这条规则，并打印能说明问题的最短程序。

    **失败是正常的**。函数还没写的时候，它的任务显示为**尚未实现**；函数有 bug 的任务显示为**未通过**，并附上判题器找到的最小反例。无论哪种情况，下面的单元格都不会报错，所以你随时可以把整篇 notebook 跑一遍，看看自己进行到哪一步了。
    """),
    "c79869b9": md(r"""
    `%autoreload 2` 会在每个单元格运行时重新导入你的 `exercises`，所以保存文件、重新运行单元格就够了，不用重启内核。（如果某个文件根本无法导入，比如有语法错误，改好之后再运行一次上面的单元格。）判题用的辅助函数：
    """),
    "9a1e4bb3": md(r"""
    ## 任务 1：`append_and_ids`，追加与事件 id

    `create_event_log()` 返回一个空日志。`append_event(log, session_id, event_type, payload)` 返回一个**二元组**：加入了这个事件的**新**日志，以及事件本身。旧日志不能改变：它是一个值，就像元组一样，旧的值始终描述着它当初描述的那段过去。正因如此，“第 4 个事件之后的状态”才算得出来。

    事件按属性读取：`event_id`、`session_id`、`type`、`payload`。

    * **事件 id** 是所有会话共用的**一个**序列：第一个事件是 1，之后每个都是前一个 id 加 1，没有空缺。第 5 篇 notebook 用“第 4 个事件之后的全部事件”让客户端断线续传，而这只有在 id 只增不减时才行得通。
    * **payload 要复制一份**。调用方之后修改自己的字典，日志不能受影响；拿到 `event.payload` 的读取方也不能通过它改动日志（返回只读的东西，或者一份新的副本）。
    * 四种**事件类型**是 `user_message`、`assistant_message`、`tool_call` 和 `tool_result`。

    试一试（两个函数都写好之前，这个单元格显示**尚未实现**）：
    """),
    "7a518f65": md(r"""
    ## 任务 2：`read_and_resume`，一个会话的事件，以及从某个 id 之后断线续传

    `get_events_for_session(log, session_id, after_event_id=0)` 返回这个会话中 `event_id` 大于 `after_event_id` 的事件，从旧到新排列。一个函数做两件事：

    * **会话隔离**：别的会话的事件无论怎样交错，都绝不会出现。
    * **断线续传**：已经看到第 4 个事件的客户端请求 `after_event_id=4`，拿到的恰好是它错过的那些。任何数字都可以，包括属于其他会话的 id。
    """),
    "0e9b2fc4": md(r"""
    ## 任务 3：`list_sessions`，有哪些对话

    `list_sessions(log)` 返回至少有一个事件的那些会话的 id，每个只出现一次，**按各自第一个事件的顺序**排列（而不是按名字排序）。空日志没有会话。
    """),
    "074af42a": md(r"""
    ## 任务 4：`replay`，从事件回到聊天消息

    `replay_session(log, session_id)` 把会话重建成 OpenAI Chat Completions API 的消息列表，恢复出来的对话可以直接再发给模型。回放是一次**折叠**：从空的消息列表开始，按顺序应用这个会话的每一条事件。

    | 事件 | 变成 |
    |---|---|
    | `user_message` | `{"role": "user", "content": c}` |
    | `assistant_message` | `{"role": "assistant", "content": c}` |
    | `tool_call` | `{"role": "assistant", "content": None, "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}]}` |
    | `tool_result` | `{"role": "tool", "tool_call_id": call_id, "content": c}` |

    有一条规则要留心：模型可能一次调用好几个工具，而 API 要求把它们放在**同一条** assistant 消息里。所以连续的**一串** `tool_call` 事件合并成一条 assistant 消息，其中的 `tool_calls` 保持原来的顺序。没有事件的会话回放出来是空列表，而且每次调用都返回新对象（修改一次回放的结果，不能影响下一次）。
    """),
    "4a606b2a": md(r"""
    ## 任务 5：`reject_bad_input`，日志只接受合法的事件

    之后的每一次回放都以日志为事实源，所以非法输入要挡在门外：`append_event` 抛出 `ValueError`（子类也可以），并且**什么都不追加**。它拒绝：

    * 未知的事件类型，或者 `session_id` 不是字符串、是空字符串；
    * 不是映射、缺少必需的键，或者值不是字符串的 payload。必需的键：消息要有 `content`；`tool_call` 要有 `call_id`、`name`（都不能为空）和 `arguments`；`tool_result` 要有 `call_id`（不能为空）和 `content`；
    * `call_id` 在本会话里已经用过的 `tool_call`；
    * `call_id` 在本会话里从没调用过的 `tool_result`，或者对应的工具调用已经有了结果。调用 id 属于各自的会话：两个会话里的 `call_1` 是两次调用。

    以下仍然合法：空的 `content`、空的 `arguments`，以及不是合法 JSON 的 `arguments`（它们按模型生成的样子原样保存）。
    """),
    "834335ba": md(r"""
    ## 你进行到哪一步了

    一次看全部五个任务，和命令行显示的一样。在终端里运行 `python -m grader` 会得到同样的报告；`python -m grader --watch` 会在每次保存时重新判题。
    """),
    "fc80dbf8": md(r"""
    五个任务都通过时，你已经用几十行代码写出了第 4 篇 notebook 放进 SQLite 的那个存储的语义：同样的规则、同样的折叠，只是下面多了一个文件。
    """),
}

CODE = {
    "56eaf2f4": code(r'''
    %load_ext autoreload
    %autoreload 2

    from pprint import pprint

    try:
        from exercises import (
            append_event,
            create_event_log,
            get_events_for_session,
            list_sessions,
            replay_session,
        )
    except Exception as error:  # 比如改到一半的文件里有语法错误
        print(f"无法导入你的练习：{type(error).__name__}: {error}")


    def attempt(action) -> None:
        """运行 ``action()``，打印它返回了什么，或者为什么没能返回；从不抛出异常。"""
        try:
            result = action()
        except NotImplementedError as error:
            print(f"尚未实现：{error}")
        except Exception as error:  # 练习里的错误只显示出来，不抛出
            print(f"抛出了 {type(error).__name__}: {error}")
        else:
            pprint(result, width=96, sort_dicts=False)
    '''),
    "9bec30e3": code(r"""
    # check(task) 给你的 ``exercises`` 包里的一个任务判题，和 ``python -m grader --task TASK``
    # 完全一样：打印反馈，任务通过时返回 True。你的代码在一个单独的工作进程里运行，所以判题器
    # 看到的总是你最后保存的文件；没写完或者出错的练习会被报告出来，而不是抛出异常。
    from grader import check
    """),
    "c2179e6e": code(r"""
    def two_appends():
        empty = create_event_log()
        log_1, first = append_event(empty, "order-desk", "user_message", {"content": "你好"})
        _, second = append_event(log_1, "docs-assistant", "user_message", {"content": "嗨"})
        return {
            "events": [(e.event_id, e.session_id, e.type, dict(e.payload)) for e in (first, second)],
            "旧日志里仍然没有 docs-assistant 的事件": not get_events_for_session(
                log_1, "docs-assistant"
            ),
        }


    attempt(two_appends)
    """),
    "5b10cbfe": code(r"""
    def interleaved_sessions():
        log = create_event_log()
        for session, text in [("a", "1"), ("b", "2"), ("a", "3"), ("b", "4"), ("a", "5")]:
            log, _ = append_event(log, session, "user_message", {"content": text})
        return {
            "a": [e.event_id for e in get_events_for_session(log, "a")],
            "a，1 之后": [e.event_id for e in get_events_for_session(log, "a", after_event_id=1)],
            "b，4 之后": [e.event_id for e in get_events_for_session(log, "b", after_event_id=4)],
        }


    attempt(interleaved_sessions)  # 写完之后：a [1, 3, 5]，a 在 1 之后 [3, 5]，b 在 4 之后 []
    """),
    "78e36fe3": code(r"""
    def sessions_in_first_event_order():
        log = create_event_log()
        for session in ["order-desk", "docs-assistant", "order-desk", "billing"]:
            log, _ = append_event(log, session, "user_message", {"content": "."})
        return list(list_sessions(log))


    attempt(sessions_in_first_event_order)  # 写完之后：order-desk、docs-assistant、billing
    """),
    "63dbd008": code(r"""
    def parallel_tool_calls():
        steps = [
            ("user_message", {"content": "帮我查一下订单和发票"}),
            ("tool_call", {"call_id": "c1", "name": "count_orders", "arguments": "{}"}),
            ("tool_call", {"call_id": "c2", "name": "count_invoices", "arguments": "{}"}),
            ("tool_result", {"call_id": "c1", "content": "42"}),
            ("tool_result", {"call_id": "c2", "content": "7"}),
            ("assistant_message", {"content": "42 个订单，7 张发票。"}),
        ]
        log = create_event_log()
        for event_type, payload in steps:
            log, _ = append_event(log, "order-desk", event_type, payload)
        return replay_session(log, "order-desk")


    attempt(parallel_tool_calls)  # 写完之后：5 条消息，第 2 条里有两个工具调用
    """),
    "9b4b1b0f": code(r"""
    def refused_appends():
        log, _ = append_event(create_event_log(), "a", "user_message", {"content": "嗨"})
        bad_appends = {
            "未知的事件类型": ("a", "user_mesage", {"content": "拼错了"}),
            "会话 id 为空": ("", "user_message", {"content": "嗨"}),
            "没有调用过的工具结果": ("a", "tool_result", {"call_id": "c9", "content": "?"}),
        }
        outcome = {}
        for label, arguments in bad_appends.items():
            try:
                append_event(log, *arguments)
                outcome[label] = "被接受了（应当拒绝）"
            except ValueError as error:
                outcome[label] = f"被拒绝：{type(error).__name__}"
        return outcome


    attempt(refused_appends)
    """),
}
