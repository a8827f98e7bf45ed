"""Notebook 5 in Chinese: its markdown cells, and the code cells whose words are English,
each keyed by the fingerprint of its English."""

# ruff: noqa: E501, RUF001 - Chinese paragraphs on one line, in Chinese punctuation

from __future__ import annotations

from cells import code, md

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

CODE = {
    "723f9bfd": code(r'''
    import atexit
    import sqlite3
    import tempfile
    from pathlib import Path

    from sqlite_demo.server import ServerProcess
    from sqlite_demo.service.client import AgentClient

    workdir = tempfile.TemporaryDirectory()
    DB_PATH = Path(workdir.name) / "agent.db"
    server = ServerProcess(DB_PATH, log_path=Path(workdir.name) / "server.log")
    atexit.register(server.stop)  # 即使某个单元格出错，子进程也会随这个内核一起结束
    server.start()
    client = AgentClient(server.url)


    def chat(session_id: str, text: str) -> None:
        """发出一条消息，打印这一轮：回复，以及这一轮事件的 id。"""
        turn = client.send_message(session_id, text)
        ids = [event["event_id"] for event in turn["events"]]
        print(f"用户：{text}\nAgent：{turn['reply']}\n      （事件 {ids}）")


    order_desk = client.create_session("订单客服")["id"]  # 随机的 id；我们用一个名字来称呼它
    chat(order_desk, "你好")
    chat(order_desk, "帮我查一下订单数量")
    '''),
    "d06506f2": code(r'''
    def show_files() -> None:
        """列出数据库的各个文件和它们的大小。"""
        for suffix in ("", "-wal", "-shm"):
            path = Path(f"{DB_PATH}{suffix}")
            size = f"{path.stat().st_size:>7,} 字节" if path.exists() else "  （不存在）"
            print(f"{path.name:<12} {size}")


    show_files()
    '''),
    "c140c12b": code(r"""
    server.start()  # 一个全新的进程，同一个文件，同一个端口
    print("重启之后的会话标题：", [s["title"] for s in client.list_sessions()])
    print()
    for event in client.get_events(order_desk):
        print(f"{event['event_id']}  {event['type']:<18} {event['payload']}")
    """),
    "b3c75c28": code(r'''
    def show_transcript(messages: list[dict]) -> None:
        """每行打印一条回放出的聊天消息，工具调用写明细节。"""
        for message in messages:
            if message.get("tool_calls"):
                calls = ", ".join(
                    f"{call['id']} {call['function']['name']}({call['function']['arguments']})"
                    for call in message["tool_calls"]
                )
                print(f"[assistant] tool_calls: {calls}")
            elif message["role"] == "tool":
                print(f"[tool]      {message['tool_call_id']} -> {message['content']}")
            else:
                print(f"[{message['role']}]{' ' * (10 - len(message['role']))}{message['content']}")


    show_transcript(client.replay(order_desk))
    '''),
    "ee245999": code(r"""
    order_desk_before = client.replay(order_desk)

    docs_assistant = client.create_session("文档助手")["id"]
    chat(docs_assistant, "帮我总结这份文档")

    sessions = {"订单客服": order_desk, "文档助手": docs_assistant}
    for label, session_id in sessions.items():
        ids = [event["event_id"] for event in client.get_events(session_id)]
        print(f"{label:<6} {len(ids)} 个事件：{ids}")
    unchanged = client.replay(order_desk) == order_desk_before
    print("订单客服没有受另一个会话影响：", unchanged)
    """),
    "473b56ba": code(r"""
    seen = client.get_events(order_desk)[:4]  # 连接断开时客户端手上已有的事件
    print("客户端已有：", [event["event_id"] for event in seen])

    missed = client.get_events(order_desk, after=seen[-1]["event_id"])
    print("4 之后：", [(event["event_id"], event["type"]) for event in missed])

    last_id = missed[-1]["event_id"]
    up_to_date = client.get_events(order_desk, after=last_id)
    print(f"{last_id} 之后：", up_to_date, "（没有新事件：客户端已经是最新的）")
    """),
    "6a3c71d0": code(r"""
    from sqlite_demo import SqliteEventStore, VersionConflictError

    writer_1 = SqliteEventStore(DB_PATH)
    writer_2 = SqliteEventStore(DB_PATH)
    desk = writer_1.create_session("共用的客服台", session_id="shared-desk").id
    writer_1.append_event(desk, "user_message", {"content": "你好"})

    seen_by_1 = writer_1.get_events_for_session(desk)[-1].event_id
    seen_by_2 = writer_2.get_events_for_session(desk)[-1].event_id
    print(f"两个写入者读到的会话版本都是：{seen_by_1} 和 {seen_by_2}")

    answer = {"content": "你好，这是写入者 1 的回答"}
    writer_1.append_event(desk, "assistant_message", answer, expected_version=seen_by_1)
    print("写入者 1 已回答")
    try:
        answer = {"content": "你好，这是写入者 2 的回答"}
        writer_2.append_event(desk, "assistant_message", answer, expected_version=seen_by_2)
    except VersionConflictError as conflict:
        print(f"写入者 2 被拒绝了：会话已经到了事件 {conflict.actual}，不是 {conflict.expected}")
    """),
    "f1a4d50f": code(r"""
    new = writer_2.get_events_for_session(desk, after_event_id=seen_by_2)
    print("写入者 2 读取新的内容：", [(event.event_id, event.type) for event in new])
    question = {"content": "那我有多少个订单？"}
    writer_2.append_event(desk, "user_message", question, expected_version=new[-1].event_id)

    for event in writer_1.get_events_for_session(desk):
        print(f"{event.event_id}  {event.type:<18} {event.payload['content']}")
    writer_1.close()
    writer_2.close()
    """),
    "d84d0c5d": code(r"""
    second_server = ServerProcess(DB_PATH, log_path=Path(workdir.name) / "server2.log")
    atexit.register(second_server.stop)
    second_server.start()
    second_client = AgentClient(second_server.url)

    request = ("帮我查一下订单数量", "order-question-1")
    first = client.send_message(order_desk, *request)
    again = second_client.send_message(order_desk, *request)
    for name, turn in (("第一个服务", first), ("第二个服务", again)):
        ids = [event["event_id"] for event in turn["events"]]
        print(f"{name}：{turn['reply']!r}，事件 {ids}，repeated: {turn['repeated']}")

    second_client.close()
    second_server.stop()
    """),
    "7d8fafe3": code(r"""
    client.close()
    server.stop()
    show_files()

    check = sqlite3.connect(DB_PATH)
    count = check.execute("SELECT count(*) FROM events").fetchone()[0]
    check.close()
    print(f"\n主文件里的事件：{count} 个")
    """),
    "30631571": code(r"""
    import importlib.util
    import subprocess
    import sys

    HAVE_SDK = importlib.util.find_spec("agents") is not None
    SDK_DB = Path(workdir.name) / "sdk.db"
    AGENT = [sys.executable, "-m", "sqlite_demo.sdk_agent", "--db", str(SDK_DB)]
    QUESTIONS = ["我有多少个订单？", "其中有多少个已经发货了？"]

    if HAVE_SDK:
        agent_a = subprocess.Popen(
            [*AGENT, "--session", "orders", "--slow-warehouse", "ask", *QUESTIONS],
            stdout=subprocess.PIPE,
            text=True,
        )
        for line in agent_a.stdout:
            print("A:", line, end="")
            if "query_shipped_count" in line:  # 工具开始运行了（用套件的语言说）
                agent_a.kill()  # SIGKILL，就在工具里面
                break
        print("A 的退出状态：", agent_a.wait())
    else:
        print('这一节需要 OpenAI Agents SDK：pip install -e ".[agents]"')
    """),
    "bf5f20f0": code(r"""
    if HAVE_SDK:
        from sqlite_demo import EventLogSession

        sdk_session = EventLogSession("orders", SDK_DB)
        print("项数：", len(await sdk_session.get_items()))
        taken = await sdk_session.pop_item()
        print("取出的一项：", taken["content"][0]["text"])
        print("现在的项数：", len(await sdk_session.get_items()))
        with SqliteEventStore(SDK_DB) as sdk_store:
            events = sdk_store.get_events_for_session("orders")
            last_two = [(event.type, event.payload.get("supersedes")) for event in events[-2:]]
            print("日志的最后两项：", last_two)
            print("回放出的角色：", [message["role"] for message in sdk_store.replay_session("orders")])
        sdk_session.close()
    """),
}
