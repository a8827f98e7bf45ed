"""你要实现的五个事件日志函数。用 ``python -m grader`` 给它们判题。

请按下面的顺序来写；判题时每个任务只需要它自己的函数，外加两个用来构造日志的函数：

1. ``create_event_log`` 和 ``append_event``（``event_log.py``）：任务 1，以及之后的每个任务；
2. ``get_events_for_session``（``sessions.py``）：任务 2 和任务 5（它要读取被拒绝的追加留下了什
   么）；写好之后，任务 1 也会用它查看日志的内容；
3. ``list_sessions``（``sessions.py``）：任务 3；
4. ``replay_session``（``replay.py``）：任务 4。

只能使用标准库：判题器在一个单独的解释器里运行你的代码，那里除了标准库什么都没有（``import`` 其他任
何东西都会报告为加载错误）。
"""

from __future__ import annotations

from exercises.event_log import append_event, create_event_log
from exercises.replay import replay_session
from exercises.sessions import get_events_for_session, list_sessions

__all__ = [
    "append_event",
    "create_event_log",
    "get_events_for_session",
    "list_sessions",
    "replay_session",
]
