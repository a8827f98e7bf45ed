"""回放：把一个会话的事件折叠成模型 API 能接受的聊天消息。"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def replay_session(log: Any, session_id: str) -> Sequence[dict[str, Any]]:
    """把会话重建成 OpenAI Chat Completions 格式的消息，可以直接再发给模型。

    回放就是一次折叠：从空的消息列表开始，按从旧到新的顺序，把会话的事件逐个应用上去：

    - user_message      -> ``{"role": "user", "content": c}``
    - assistant_message -> ``{"role": "assistant", "content": c}``
    - tool_call         -> ``{"role": "assistant", "content": None, "tool_calls": [{"id": call_id,
      "type": "function", "function": {"name": name, "arguments": arguments}}]}``。连续的一串
      tool_call 事件合并成一条 assistant 消息，其中的 ``tool_calls`` 保持原来的顺序：API 要求
      并行的工具调用放在同一条消息里，紧接着就是它们的结果。
    - tool_result       -> ``{"role": "tool", "tool_call_id": call_id, "content": c}``

    约定：
        - 每个事件都变成它那种类型的消息（user、assistant 或 tool 消息；工具调用变成带 tool_calls 的
          assistant 消息），从旧到新排列：只有这些键，没有别的（payload 里多出来的键不带进来），每个
          字符串都保持存入时的样子（不做解析）。
        - 会话中连续的 tool_call 事件合并成一条 assistant 消息，tool_calls 保持原来的顺序，不管有多
          少个；同一会话的任何其他事件都会结束这一串（assistant 消息也算，哪怕是空的），别的会话的事
          件则不会。
        - 只算这个会话的事件：没有事件的会话回放出来是空序列。
        - 每次调用都构造新对象：调用方修改返回的消息，不管改在哪一层，都不会影响下一次回放的结果。

    为什么这样设计：日志保存的是发生过的事，回放从中推导出模型需要的状态。崩溃之后，恢复一段对话不过
    是把它回放一遍。

    示例：
        >>> log = create_event_log()
        >>> log, _ = append_event(log, "a", "user_message", {"content": "how many orders?"})
        >>> log, _ = append_event(
        ...     log, "a", "tool_call",
        ...     {"call_id": "call_1", "name": "query_order_count", "arguments": "{}"})
        >>> log, _ = append_event(log, "a", "tool_result", {"call_id": "call_1", "content": "42"})
        >>> [m["role"] for m in replay_session(log, "a")]
        ['user', 'assistant', 'tool']
    """
    raise NotImplementedError("replay_session 尚未实现")
