"""创建日志、向日志追加事件：日志只能这样变长。

按顺序逐个实现下面的函数，每写完一个就运行一次 ``python -m grader``：它会告诉你违反了哪条约定，并给
出能复现问题的最小反例。

payload 里可以放什么。顶层是任意以字符串为键的映射（``dict``、``types.MappingProxyType``，或者你自己
写的 ``Mapping`` 类）。它的值是用 Python 写出来的 JSON 数据：``str``、``int``（最多 4,300 位数字）、
``float``（有限值）、``bool``、``None``，由 JSON 数据组成的列表和元组，以及以字符串为键的字典，最多
200 层，payload 本身算第一层（判题器不会嵌套得更深，所以递归复制没有问题）。其他东西（bytes、集合、
任意对象、不是字符串的键、NaN、超过 4,300 位数字的 int、同一个映射里按 JSON 计数会变成同一个的两个
键：一对代理项和它编码的那个字符）都不在约定之内：保留、转换还是拒绝，由你决定；判题器从不传入这类
值。（4,300 位是 Python 能写成文本、也能从文本读回的最大位数，所以经由 JSON 文本复制，约定允许的每个
int 都能保留。）

payload 的“相等”是什么意思。键相同，每个键对应的值都与传入的值相等，而且类型一致：``str`` 仍是
``str``，字符相同（按 JSON 的方式计数：能配成一对的两个代理项 ``"\\ud83d\\ude42"`` 就是它们编码的那
一个字符 ``"🙂"``；落单的代理项保持原样）；``int`` 仍是 ``int``（``True`` 不等于 ``1``，``1.0`` 也不
等于 ``1``）；``float`` 仍是 ``float``，值和符号都相同（``-0.0`` 不等于 ``0.0``）；``bool`` 仍是
``bool``；列表和元组可以互换，只要逐项相等；映射可以换成任意映射，只要逐键相等。所以冻结后的副本（列
表变成元组、字典变成只读映射）与传入的值相等，从 JSON 文本解析回来的副本也一样。
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def create_event_log() -> Any:
    """返回一个空的事件日志。

    日志是不可变的值：追加永远不会改变它，而是返回一个新日志。日志内部长什么样由你决定（由事件组成的
    元组、装着这个元组的冻结 dataclass……）；判题器从不查看日志内部，只会把它交回给你的其他函数。

    为什么要不可变？因为事件日志是一本账。旧的日志值始终准确地描述着它当初描述的那段过去，正因如此，
    你才能重建任意一个较早事件时的状态。

    示例：
        >>> log = create_event_log()
        >>> list_sessions(log)
        ()
    """
    raise NotImplementedError("create_event_log 尚未实现")


def append_event(
    log: Any, session_id: str, event_type: str, payload: Mapping[str, Any]
) -> tuple[Any, Any]:
    """追加一个事件，返回 ``(new_log, event)``；``log`` 本身不能改变。

    参数：
        log: 要扩展的日志：最新的那个，或者任何一个更早的。
        session_id: 事件所属的对话：一个非空的 ``str``（``str`` 的子类也行），按原样精确比较，按
            Python 的方式逐个字符比较：大小写、空格和 Unicode 形式都算数，一对代理项
            （``"\\\\ud83d\\\\ude42"``）和它编码的那个字符（``"🙂"``）是两个不同的 id。
        event_type: ``user_message``、``assistant_message``、``tool_call``、``tool_result`` 之一（值
            为其中之一的 ``str`` 子类也行：凡是要字符串的地方，``str`` 的子类都是 ``str``）。
        payload: 事件的详细内容（可以包含什么，见模块的 docstring）。必需的键如下，值都是字符串：
            user_message / assistant_message：``content``；
            tool_call：``call_id``（不能为空，比较方式与会话 id 相同）和 ``name``（不能为空），以及
            ``arguments``（模型生成的 JSON 文本，即使不是合法的 JSON 也按原样保存）；
            tool_result：``call_id``（不能为空）和 ``content``。

    返回：
        新日志，以及事件：任何带有 ``event_id``（``int``，不能是 ``bool``）、``session_id``
        （``str``）、``type``（``str``）和 ``payload``（映射）这几个属性的对象。

    约定：
        - 返回一个二元组：先是新日志，再是事件。
        - 事件有 event_id（int）、session_id 和 type（str）以及 payload（映射）这几个属性。
        - 所有会话共用同一个事件 id 序列：第一个事件是 1，之后每个事件都是前一个 id 加 1，中间没有空
          缺，日志再长也一样。
        - 事件带着追加时给的 session_id 和 type，payload 与传入的相等，类型也要一样（1 不等于 True，
          也不等于 1.0），多出来的键也要保留。
        - 传入的日志永远不变：这次追加之后，再向它追加或者读取它，结果都和追加之前一样。
        - 日志是互相独立的值：向一个旧日志追加会开出一个分支（新事件拿到那个日志的下一个 id，新日志
          里是那个日志的事件加上这个新事件），而向一个日志追加永远不会改变另一个日志。
        - payload 会被复制一份：调用方之后修改自己的映射，不管改在哪一层（元组里的列表、
          MappingProxyType 背后的字典），日志都不受影响。
        - 谁都不能通过 payload 改动日志：修改 ``event.payload`` 里的内容（比如嵌套的列表），之后的读
          取和追加都看不到任何变化。
        - 事件是既成事实：给它的属性赋值（如果这个类允许的话）不会改动日志。
        - 任何合法的追加都要接受，少见的也一样：content 为空或很长、包含任意字符（控制字符、换行、任
          何文字）；arguments 不是合法的 JSON；payload 里有多余的键；call_id 或 name 带空格或任意字
          符；别的会话用过的 call_id；tool_result 和它的工具调用之间隔着其他事件；任何非空 str 作为
          会话 id；任何映射作为 payload。
        - 非法输入抛出 ValueError（或其子类），不能是别的异常。非法输入包括：未知的事件类型（不管
          type 本身是什么值，列表也算）；会话 id 不是 str 或者是空串；payload 不是映射；缺少必需的
          键；必需的值不是 str；call_id 或 name 为空；tool_call 的 call_id 在本会话已经用过；
          tool_result 的 call_id 在本会话从没调用过；tool_result 对应的工具调用已经有结果。调用 id
          精确比较（"call_1" 不等于 "Call_1"），只在各自的会话内有效。
        - 被拒绝的追加不留痕迹：日志不变，不占用 id，也不会让任何调用 id 变成已使用或已有结果。

    为什么这样设计：事件日志是唯一的事实源。在入口就拒绝非法输入，之后的每一次回放才能保持有效；而
    “从第 4 个事件之后断线续传”，靠的正是全局递增的事件 id。

    示例：
        >>> log = create_event_log()
        >>> log, event = append_event(log, "sess_a", "user_message", {"content": "hello"})
        >>> event.event_id, event.session_id, event.type, dict(event.payload)
        (1, 'sess_a', 'user_message', {'content': 'hello'})
    """
    raise NotImplementedError("append_event 尚未实现")
