"""Notebook 5 in Chinese: its markdown cells, keyed by the fingerprint of their English."""

# ruff: noqa: E501, RUF001 - Chinese paragraphs on one line, in Chinese punctuation

from __future__ import annotations

from cells import md

CELLS = {
    "d75938c2": md(r"""
    # 5. 崩溃恢复与断线续传

    第 1 篇 notebook 杀掉了一个把记忆放在内存里的 Agent，它忘掉了一切。这里我们对套件里真正的 Agent 服务做同样的事，它在每次回复之前都先把事件写进 SQLite：

    1. 把服务作为一个单独的进程启动，和它对话；
    2. 用 `SIGKILL` 杀掉它，任何清理代码都不会运行；
    3. 看看它留下了哪些文件，特别是 `-wal` 文件；
    4. 在同一个文件上启动一个新进程，回放这段对话；
    5. 再开一个会话，检查两个会话互不干扰；
    6. 让一个只看到了前四条事件的客户端断线续传；
    7. 在同一个文件上再放一个写入者：两个写入者、一次冲突、一次重试；
    8. 杀掉一个以这条日志为会话的 OpenAI Agents SDK Agent，再在别处把它续上。

    整个实验画成时序图：

    ```mermaid
    sequenceDiagram
        accTitle: 一段对话、SIGKILL、在同一个文件上重启、回放、从第 4 个事件之后断线续传
        autonumber
        participant C as 客户端（本 notebook）
        participant S as Agent 服务（第一个进程）
        participant DB as SQLite 文件及其 -wal
        participant S2 as Agent 服务（重启后）
        C->>S: POST /sessions/ID/messages "how many orders do I have?"
        S->>DB: BEGIN IMMEDIATE，INSERT user_message，COMMIT
        S->>S: 模型要求调用工具 query_order_count
        S->>DB: INSERT tool_call，COMMIT
        S->>DB: INSERT tool_result "42"，COMMIT
        S->>DB: INSERT assistant_message，COMMIT
        S-->>C: 回复 "You have 42 orders."
        Note over S: SIGKILL：进程死亡，没有任何清理代码运行
        C->>S2: 在同一个文件上启动一个新进程
        S2->>DB: 打开文件，SQLite 从 -wal 恢复每一个已提交的事务
        C->>S2: GET /sessions/ID/replay
        S2->>DB: SELECT events WHERE session_id = ID ORDER BY event_id
        DB-->>S2: 6 条事件
        S2-->>C: 完整的对话，连同工具调用
        C->>S2: GET /sessions/ID/events?after=4
        S2-->>C: 只有事件 5 和 6
    ```
    """),
    "776e8e4f": md(r"""
    ## 启动服务，和它对话

    `sqlite_demo.server.ServerProcess` 以子进程的形式运行 `python -m sqlite_demo serve --db FILE`，等它能应答 `/health`，还可以用 `SIGKILL` 把它 `kill()` 掉。`sqlite_demo.service.client.AgentClient` 负责调用它的 HTTP API。服务里的模型是脚本化的，所以每次运行的回复都一样。
    """),
    "776995ac": md(r"""
    ## 提交的内容在哪里：`-wal` 文件

    在 WAL 模式下，提交并不会重写数据库文件。SQLite 把改动过的页追加到 `agent.db-wal`，并把最后一页标记为一次提交。只有到了**检查点**（默认在 WAL 里攒够 1000 页时，或者最后一个连接正常关闭时），这些页才会被复制进 `agent.db`。我们的六条事件远远没到这个门槛，所以此刻它们**只**存在于 `-wal` 文件里。（`-shm` 是 WAL 的一个小小的共享索引。）
    """),
    "7374bffa": md(r"""
    ## 崩溃

    `SIGKILL` 无法被捕获：进程停在两条指令之间。没有 `finally` 块，没有 `atexit` 钩子，没有 `store.close()`，也没有检查点。
    """),
    "0a820caf": md(r"""
    文件完全保持着死去的进程留下的样子：主文件里仍然没有这段对话，`-wal` 文件里仍然有。在 `synchronous=NORMAL` 下，SQLite 没有在每次提交时 `fsync`，也不需要：`COMMIT` 时这些字节已经交给了操作系统的文件缓存，而**进程**死掉时操作系统会保住它们。（操作系统崩溃或断电则是另一回事：`synchronous=FULL` 每次提交付出一次 `fsync`，防的就是这个。）

    ## 重启：回放把对话带回来

    一个新进程打开同一个文件。读取任何东西之前，SQLite 先查看 `-wal` 文件，保留直到最后一条提交记录为止的每一帧，忽略其后的一切（半途中断的事务就当从没发生过）。之后，一条普通的查询就能看到每一条已提交的事件。
    """),
    "a7be3e0a": md(r"""
    回放把这些事件折叠成模型需要的消息，于是 Agent 可以像什么都没发生过一样继续这段对话：工具调用和它的结果也都回来了。
    """),
    "c0c7956a": md(r"""
    ## 两个会话，靠数据隔离

    在订单客服旁边再开一段对话：文档助手。这里的会话隔离不是服务内存里的一个字典：每一行事件都带着自己的 `session_id`，每次读取都按它过滤。我们在文档助手对话前后各回放一次订单客服，并数一数每个会话的事件。
    """),
    "05e63818": md(r"""
    事件 id 是一个全局序列，所以文档助手的事件拿到接下来的编号 7 和 8；每个会话的读取只返回它自己的行。重启后的进程像对待任何对话一样服务这段新对话：它里面没有任何东西知道曾经崩溃过。

    ## 从第 4 个事件之后断线续传

    网页客户端在事件写入时就收到它们。假设它的连接在收到第 4 个事件（工具调用）之后断开了。重新连接时，它不需要再要整个会话，也不用去猜：它发出看到的最后一个事件的 id，拿到的恰好是它错过的那些。
    """),
    "932a357c": md(r"""
    这行得通，是因为 id 只增不减、永不复用：“4 之后”今天是什么意思，明天还是什么意思。它和第 3 篇 notebook 练习里的 `get_events_for_session(log, session_id, after_event_id=4)` 是同一个查询，由第 4 篇 notebook 里的索引来支撑。
    """),
    "eba1859a": md(r"""
    ## 两个写入者，一个文件：冲突与重试

    要横向扩展，或者不停机地重启，第一步就是在同一个文件上再跑一个服务进程。每个进程有自己的连接；SQLite 一次只让一个写入（`BEGIN IMMEDIATE` 让它们排队），但光靠这一点，并不能阻止两个进程都读到同一个问题、又都去回答它。

    所以每次追加都可以声明它的决定所依据的**版本**：写入者读取时会话的最后一个事件 id（空会话为 0）。存储在写事务里、拿到写锁之后检查它。如果在此期间会话已经往前走了，这次追加就以 `VersionConflictError` 被拒绝，什么都不写。这就是 EventStoreDB 和 `eventsourcing` 库里的 expected revision（预期版本）。

    我们的文件上的两个存储代表两个进程（各自打开自己的连接，就像第二个服务那样）。两者读到同一个问题，都决定回答它：
    """),
    "546287d3": md(r"""
    输掉的一方做的，正是 Agent 每次遇到冲突时做的事：读出新内容，根据现在看到的重新决定。这个问题已经有了回答，所以写入者 2 没有什么要补充的；它被要求保存的那条消息，以新的版本排在回答之后。
    """),
    "ae21f95c": md(r"""
    “hello” 只有一个回答，而不是两个：不管哪个进程先到，一个会话都不会连着出现两条回复，一个工具结果也不会被写两次。

    这一切服务都会自己完成。下面，第二个服务进程加入进来，和第一个共用同一个文件；同一个请求带着同一个 `Idempotency-Key` 到达了两者（就像一个没看到第一次回答、于是换到另一台服务上重试的客户端）。两者都回答同一轮对话和它的 assistant 回复；消息只保存一次。
    """),
    "c1c1492e": md(r"""
    ## 作为对比：正常关闭

    被礼貌地停止时，服务会关闭它的存储。最后一个关闭的连接会执行一次检查点，把 WAL 复制进主文件，并删掉 `-wal` 文件：
    """),
    "9f6dd1e8": md(r"""
    ## 小结

    * `SIGKILL` 之后，每一条已提交的事件都还在：在 `-wal` 文件里，下一个进程打开数据库时，SQLite 把它们并回了数据库。
    * 恢复不需要我们多写任何代码，只需要每个请求本来就在做的事：读出会话的事件，回放它们。
    * 会话之间互不干扰，因为每一行都打了标签，每次读取都按这个标签过滤。
    * 客户端用“N 之后的事件”断线续传，全局、永不复用的 id 让这件事分毫不差。
    * 同一个文件上的两个写入者永远不会都去回答：每次追加都声明它所依据的版本，输掉的一方重新读取、重新决定。
    * Agent 框架也可以把记忆放在这里：在工具里被杀掉的 SDK Agent 什么都没丢，一个新进程从日志出发把对话接着做完了。

    第 6 篇 notebook 会故意打破这些保证，一次一个坑。
    """),
    "3f22a9f0": md(r"""
    ## 同一条日志，作为 OpenAI Agents SDK 的会话

    大多数 Agent 都是用框架搭起来的。OpenAI Agents SDK 通过它的 `Session` 协议保存对话，而 `sqlite_demo.EventLogSession` 就是站在这个协议背后的这个存储：`Runner.run(agent, question, session=EventLogSession("orders", "agent.db"))`。每次 `add_items` 都是一个事务；`pop_item` 和 `clear_session` 追加的是说明自己撤下了什么的事件，什么都不删除。

    下面的进程 A 运行一个带两个工具的 SDK Agent，驱动它的是 SDK 自带的脚本化模型（不联网，不要密钥；见 `sqlite_demo/sdk_agent.py`）。它先回答第一个问题，接着开始第二个、很慢的工具调用，我们就在那里 `SIGKILL` 它。这一节需要 SDK（`pip install -e ".[agents]"`；贡献者的安装已经包含它）。
    """),
    "532c933f": md(r"""
    日志留下了什么？完整的第一轮，以及第二个问题。A 正在执行的那次调用从没进入日志（runner 要等一轮的工具都做完，才保存这一轮的条目），所以日志里没有任何东西在等一个永远不会来的输出：
    """),
    "c03edfc5": md(r"""
    进程 B 打开同一个文件，在日志现有的内容上跑一轮，不额外添加任何东西。脚本化模型像真正的模型一样，读的是发给它的历史：历史的最后是一个问题，于是它去问仓库，然后作答。
    """),
    "db953bcb": md(r"""
    在 notebook 里通过 SDK 的协议把会话读回来，再用 `pop_item` 撤下最后一个条目。日志保留着那个回答，并记下它已被撤下（一条指向它的 `item_removed`）；每个读取方都会把它略过。
    """),
}
