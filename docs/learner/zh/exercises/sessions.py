"""读取日志：一个会话的事件、从某个 id 之后断线续传，以及会话列表。"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def get_events_for_session(log: Any, session_id: str, after_event_id: int = 0) -> Sequence[Any]:
    """返回这个会话中 ``event_id`` 大于 ``after_event_id`` 的事件。

    ``after_event_id`` 用于断线续传：客户端的连接在第 4 个事件之后断开，就请求第 4 个之后的全部事
    件，一个也不会漏掉。

    约定：
        - 只返回这个会话的事件，从旧到新排列，每个都和 append_event 当初返回的一样：别的会话的事件绝
          不能混进来（会话 id 精确比较："a" 不等于 "A"、"ab"、"a "，也不等于用另一种 Unicode 形式写
          出的同样字母）。
        - 恰好是 event_id 大于 after_event_id 的那些事件，不管 after_event_id 是多少（0、负数、别的
          会话的 id、比所有 id 都大）。
        - 返回的序列归调用方所有（用元组最简单）：修改它，或者修改其中事件的 payload，都不会改动日
          志，返回空序列时也一样。

    示例：
        >>> log = create_event_log()
        >>> log, _ = append_event(log, "a", "user_message", {"content": "hi"})
        >>> log, _ = append_event(log, "b", "user_message", {"content": "yo"})
        >>> log, _ = append_event(log, "a", "assistant_message", {"content": "hello"})
        >>> [e.event_id for e in get_events_for_session(log, "a")]
        [1, 3]
        >>> [e.event_id for e in get_events_for_session(log, "a", after_event_id=1)]
        [3]
    """
    raise NotImplementedError("get_events_for_session 尚未实现")


def list_sessions(log: Any) -> Sequence[str]:
    """返回有事件的那些会话的 id。

    约定：
        - 每个有事件的会话各出现一次，按各自第一个事件的顺序排列（空日志没有会话；唯一一次追加被拒绝
          的会话没有事件）。
        - 返回的序列归调用方所有：修改它不会影响下一次调用的结果，返回空序列时也一样。

    示例：
        >>> log = create_event_log()
        >>> for session in ["b", "a", "b"]:
        ...     log, _ = append_event(log, session, "user_message", {"content": "."})
        >>> list(list_sessions(log))
        ['b', 'a']
    """
    raise NotImplementedError("list_sessions 尚未实现")
