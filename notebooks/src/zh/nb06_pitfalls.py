"""Notebook 6 in Chinese: its markdown cells, and the code cells whose words are English,
each keyed by the fingerprint of its English."""

# ruff: noqa: E501, RUF001 - Chinese paragraphs on one line, in Chinese punctuation

from __future__ import annotations

from cells import code, md

CELLS = {
    "892918c7": md(r"""
    # 6. 六个坑，逐个复现

    前面几篇 notebook 的每一项保证都建立在一个设计决策上。这里我们把这些决策逐个撤回，看看会坏掉什么：

    1. 写入提交之前就回复；
    2. 允许更新或删除事件日志；
    3. 在事件的事务之外写投影；
    4. 忘了 `PRAGMA foreign_keys = ON`；
    5. 误判 WAL 的保证（以及复制文件时漏掉 `-wal`）；
    6. 把事件表当成当前状态表。

    其中两个需要在精确的时刻真正崩溃一次。我们用第 1 篇 notebook 的办法做到：代码跑在一个 fork 出来的子进程里，它一走到关键的那一行，就通过管道告诉我们，我们当场 `SIGKILL` 它。不靠计时，也不靠运气：子进程每次都死在同一步。
    """),
    "f7933b44": md(r"""
    ## 坑一：先回复，后落库

    模型一开口就回复用户，事后再保存这一轮（“放到后台”“等响应发出去之后”），这种做法很诱人。两步之间一旦崩溃，用户就**看到了**一个日志从未记录的回答。下次回放这段对话时，这一轮不见了：模型看到的是一个没有回答的问题，用户看到的历史和自己屏幕上的对不上。
    """),
    "2f5e606b": md(r"""
    先发回复，日志的结尾就是一个没有回答的问题：用户看到过的那一轮永远丢了。先写入的话，崩溃最多让一条回复没能送达，客户端只要再问一次就行：回答就在日志里。**先落库再回复**。（套件里的 Agent 还会把被崩溃打断的一轮对话补完：见 `sqlite_demo/service/agent.py`。）

    ## 坑二：可以修改的事件日志

    一旦允许“改一下 payload 就好”，就再也没人能信任回放了：这究竟是模型当时说的话，还是后来有人让它这么说的？套件的表结构用两个触发器把这条规则落到实处：无论是谁发来的，对 `events` 的任何 `UPDATE` 或 `DELETE` 都会被拒绝：
    """),
    "b675dccc": md(r"""
    更正一个回答的正确做法是**追加**一条更正事件。payload 里多出来的键会保留，所以它可以指明自己取代的是哪条事件。错误和更正都按顺序留有记录：
    """),
    "e55c765d": md(r"""
    ## 坑三：在事件的事务之外写投影

    投影（`messages`）是从事件派生出来的。事件在一个事务里写、投影行在另一个事务里写，两者之间一旦崩溃，它们就对不上了。下面，一个天真的写入者提交了事件、报告了一声，然后在写投影行之前被杀掉。
    """),
    "e1ae35a9": md(r"""
    现在聊天窗口（读投影）和模型（读回放）看到的是两段不同的对话，而且没有任何东西会自己让它们重新一致。投影是派生数据，所以可以丢掉，再从事件重新折叠出来，`rebuild_projections()` 做的正是这件事：
    """),
    "171ba11c": md(r"""
    套件的存储从来不需要这种修补，因为它把事件和投影行放在**同一个**事务里写入。单独追加的一条消息是一条语句，SQLite 把它当作一个独立的事务来执行：一个视图的触发器写下这两行，所以两者之间没有可以让崩溃落进去的时刻。一轮对话作为一批追加时，是 `BEGIN IMMEDIATE ... COMMIT` 包住从 Python 执行的各个步骤。所以为了验证，我们在这条路径最糟糕的时刻杀掉一个子进程：第一个事件行已经插入，下一步是它的投影行，事务还没结束。（子进程换上一个会报告并等待的投影步骤；`writes.py` 通过 `projections` 模块调用它，就是为了这类测试。）
    """),
    "f8e8bc05": md(r"""
    要么都成功，要么都不发生：未提交的事件和它的投影行一起消失了，所以两条读路径仍然一致。调用方从没收到这次追加成功的答复，所以什么都没有保证过；重试是安全的（带上幂等键的话，即使第一次其实**已经**提交了也没关系）。**派生数据和它的来源一起提交**。

    ## 坑四：外键不打开就是关着的

    在没有执行 `PRAGMA foreign_keys = ON` 的连接上，表结构里的 `REFERENCES sessions (id)` 什么也不做，而默认情况下每个连接都是这样：一个维护脚本、第二个服务、在 `sqlite3` 命令行里的一次临时修补。这样的连接可以为一个不存在的会话写入事件：
    """),
    "cb32e891": md(r"""
    这个孤儿事件现在显示成了一个从未创建过的“活跃会话”：数据模型保证的会话隔离被打破了。按存储自己的方式打开的连接（`foreign_keys = ON`）执行同一条语句时，会被数据库本身拒绝：
    """),
    "ea60d075": md(r"""
    ## 坑五：WAL 保证了什么、没保证什么

    **它保证的**。`journal_mode = WAL` 加上 `synchronous = NORMAL`，能让每一个已提交的事务扛过**进程**的崩溃（第 5 篇 notebook）。它并不保证扛过操作系统崩溃或断电：最后几次提交可能还待在操作系统的缓存里。如果这很重要，就用 `synchronous="FULL"` 打开存储，代价是每次追加一次 `fsync`：
    """),
    "3828bc80": md(r"""
    **数据在哪里**。已提交的事务在检查点把它们复制进主文件之前，一直待在 `-wal` 文件里。只复制 `agent.db` 的备份（用 `cp`、`shutil.copy`、文件同步工具）会悄无声息地把它们落下。这里第一段对话在它的存储关闭时做了检查点；第二段对话写入时存储一直开着，所以我们复制的那一刻，它只存在于 `-wal` 文件里：
    """),
    "5323556b": md(r"""
    复制出来的文件打开时毫无怨言，只是少了最新的那段对话。`backup_database` **通过** SQLite 读取数据库，连同 WAL，作为一份一致的快照，写成一个自成一体的单个文件。（在命令行里：`python -m sqlite_demo backup SRC DEST`。）

    ## 坑六：把事件表当成状态表

    ORM 养成的习惯会说：一条消息已读，就在它那一行上设 `read = 1`。在事件表上，这是一次 `UPDATE`，坑二的触发器会拒绝它：
    """),
    "d0d51bce": md(r"""
    事件表是一本账：事实只进不出，什么都不改。**确实**会变的状态（“读到这里了”“已置顶”“改了标题”）属于投影，或者一张自己的小元数据表，那里可以随便更新。每个会话一行、记住用户读到的最后一个事件，就足以回答“有几条未读？”：
    """),
    "169c95f3": md(r"""
    ## 小结

    | 坑 | 坏掉的是什么 | 规则 |
    |---|---|---|
    | 先回复后落库 | 用户看到过的一轮对话在日志里不见了 | 先提交事件，再回复 |
    | 事件可以修改 | 没有哪次回放值得信任 | 触发器拒绝 `UPDATE`/`DELETE`；靠追加来更正 |
    | 投影在自己的事务里 | 崩溃后聊天窗口和模型对不上 | 派生数据和它的来源一起提交 |
    | `foreign_keys` 关着 | 孤儿事件，会话隔离失效 | 每个连接都打开它 |
    | 误判 WAL | `NORMAL` 下断电；备份漏掉最近的提交 | 在意断电就用 `FULL`；通过 SQLite 备份 |
    | 把事件当状态 | 更新被拒绝，或者更糟：被允许 | 可变的状态放进投影或元数据表 |
    """),
}

CODE = {
    "f14fb10a": code(r'''
    import json
    import multiprocessing
    import os
    import shutil
    import signal
    import sqlite3
    import tempfile
    from pathlib import Path

    from sqlite_demo import SqliteEventStore, backup_database
    from sqlite_demo.store.sqlite import projections
    from sqlite_demo.store.sqlite.connection import open_connection

    workdir = tempfile.TemporaryDirectory()
    WORKDIR = Path(workdir.name)
    FORK = multiprocessing.get_context("fork")
    QUESTION, ANSWER = "帮我查一下订单数量", "你当前有 42 个订单。"


    def new_database(name: str, *, turns: int = 1) -> Path:
        """一个只有一个会话 ``order-desk`` 的数据库，里面有 ``turns`` 轮一问一答。"""
        path = WORKDIR / f"{name}.db"
        with SqliteEventStore(path) as store:
            store.create_session("订单客服", session_id="order-desk")
            for _ in range(turns):
                store.append_event("order-desk", "user_message", {"content": QUESTION})
                store.append_event("order-desk", "assistant_message", {"content": ANSWER})
        return path


    def crash_when_told(step, *args) -> str:
        """在子进程里运行 ``step(pipe, *args)``；它一报告就 SIGKILL 它；返回它的报告。

        子进程运行期间，这个进程里不要打开同一个文件的连接：SQLite 的连接不能跨 fork 共用。
        """
        ours, theirs = FORK.Pipe()
        child = FORK.Process(target=step, args=(theirs, *args))
        child.start()
        report = ours.recv()  # 子进程已经走到它报告的那一行……
        os.kill(child.pid, signal.SIGKILL)  # ……并在下一行之前死掉
        child.join()
        return report


    def replayed_roles(path: Path) -> list[str]:
        """订单客服回放出的各条消息的角色，由一个新打开的存储读出。"""
        with SqliteEventStore(path) as store:
            return [message["role"] for message in store.replay_session("order-desk")]
    '''),
    "2b27145b": code(r"""
    def reply_then_write(pipe, path: Path) -> None:
        store = SqliteEventStore(path)
        store.append_event("order-desk", "user_message", {"content": QUESTION})
        pipe.send(ANSWER)  # 用户看到了回复……
        pipe.recv()  # ……本来接下来才写入：崩溃就发生在这里
        store.append_event("order-desk", "assistant_message", {"content": ANSWER})


    def write_then_reply(pipe, path: Path) -> None:
        store = SqliteEventStore(path)
        store.append_event("order-desk", "user_message", {"content": QUESTION})
        store.append_event("order-desk", "assistant_message", {"content": ANSWER})
        pipe.send(ANSWER)  # 事件提交之后，回复才发出去
        pipe.recv()


    for handler in (reply_then_write, write_then_reply):
        path = new_database(handler.__name__, turns=0)
        seen = crash_when_told(handler, path)
        print(f"{handler.__name__}：用户看到了 {seen!r}，日志回放出 {replayed_roles(path)}")
    """),
    "dc41857f": code(r"""
    path = new_database("append_only")
    raw = sqlite3.connect(path, isolation_level=None)  # 一个普通的连接，不经过存储
    attempts = [
        "UPDATE events SET payload = json_object('content', '你当前有 41 个订单。') WHERE event_id = 2",
        "DELETE FROM events WHERE event_id = 2",
    ]
    for sql in attempts:
        try:
            raw.execute(sql)
        except sqlite3.IntegrityError as error:
            print(f"被拒绝：{sql.split()[0]} 被触发器挡下了（{error.sqlite_errorname}）")
    raw.close()
    """),
    "7a164462": code(r"""
    with SqliteEventStore(path) as store:
        store.append_event(
            "order-desk",
            "assistant_message",
            {"content": "更正：你当前有 41 个订单。", "supersedes": 2},
        )
        for event in store.get_events_for_session("order-desk"):
            print(event.event_id, event.type, dict(event.payload))
    """),
    "4afbf6c7": code(r'''
    def event_then_projection(pipe, path: Path) -> None:
        """两次分开的提交：先是事件，然后（结果是永远没有）它的投影。"""
        db = open_connection(path)  # 自动提交：每条语句是它自己的事务
        payload = json.dumps({"content": QUESTION})
        db.execute(
            "INSERT INTO events (session_id, type, payload, created_at) VALUES (?, ?, ?, 0)",
            ("order-desk", "user_message", payload),
        )
        pipe.send("事件已提交")
        pipe.recv()  # 崩溃发生在两次写入之间
        db.execute("INSERT INTO messages ...")  # 永远走不到这里


    path = new_database("drift")
    print("子进程：", crash_when_told(event_then_projection, path))
    with SqliteEventStore(path) as store:
        print("回放（事件）：    ", [m["role"] for m in store.replay_session("order-desk")])
        print("投影（messages）：", [row.role for row in store.get_messages("order-desk")])
    '''),
    "567fceb5": code(r"""
    with SqliteEventStore(path) as store:
        store.rebuild_projections()
        print("重建之后的投影：", [row.role for row in store.get_messages("order-desk")])
    """),
    "490a5b14": code(r"""
    def store_append_killed_midway(pipe, path: Path) -> None:
        def report_and_wait(connection, event) -> None:
            pipe.send(f"事件 {event.event_id} 已插入，接下来写投影，还没有提交")
            pipe.recv()

        projections.write_projection = report_and_wait  # 只在这个子进程里
        store = SqliteEventStore(path)
        turn = [("user_message", {"content": QUESTION}), ("assistant_message", {"content": ANSWER})]
        store.append_events("order-desk", turn)


    path = new_database("one_transaction")
    print("子进程：", crash_when_told(store_append_killed_midway, path))
    with SqliteEventStore(path) as store:
        print("回放（事件）：    ", [m["role"] for m in store.replay_session("order-desk")])
        print("投影（messages）：", [row.role for row in store.get_messages("order-desk")])
    """),
    "9355fa82": code(r"""
    path = new_database("orphans")
    loose = sqlite3.connect(path, isolation_level=None)
    print("普通连接上的 foreign_keys：", loose.execute("PRAGMA foreign_keys").fetchone()[0])
    loose.execute(
        "INSERT INTO events (session_id, type, payload, created_at)"
        " VALUES ('no-such-session', 'user_message', '{\"content\": \"hi\"}', 0)"
    )
    print("foreign_key_check 找到的孤儿事件：", loose.execute("PRAGMA foreign_key_check").fetchall())
    loose.close()

    with SqliteEventStore(path) as store:
        print("有事件的会话：", store.list_active_session_ids())
        print("存在的会话：  ", [session.id for session in store.list_all_sessions()])
    """),
    "c7c9b0b2": code(r"""
    strict = open_connection(path)  # 存储自己的 pragma，其中包括 foreign_keys = ON
    try:
        strict.execute(
            "INSERT INTO events (session_id, type, payload, created_at)"
            " VALUES ('another-ghost', 'user_message', '{\"content\": \"hi\"}', 0)"
        )
    except sqlite3.IntegrityError as error:
        print(f"被拒绝：外键约束挡下了这次插入（{error.sqlite_errorname}）")
    strict.close()
    """),
    "18b9ffbe": code(r"""
    path = new_database("live")  # 订单客服这一轮：已经做过检查点，并回了主文件
    store = SqliteEventStore(path)
    store.create_session("文档助手", session_id="docs-assistant")
    store.append_event("docs-assistant", "user_message", {"content": "帮我总结这份文档"})
    store.append_event("docs-assistant", "assistant_message", {"content": "摘要：……"})

    shutil.copy(path, WORKDIR / "file_copy.db")  # 只复制了主文件
    backup_database(path, WORKDIR / "backup.db")  # SQLite 的在线备份 API
    store.close()

    for name in ("file_copy.db", "backup.db"):
        copy = sqlite3.connect(WORKDIR / name)
        sessions = [row[0] for row in copy.execute("SELECT id FROM sessions ORDER BY rowid")]
        events = copy.execute("SELECT count(*) FROM events").fetchone()[0]
        print(f"{name:<13} 会话 {sessions}，{events} 个事件")
        copy.close()
    """),
    "c884c346": code(r"""
    db.execute(
        "CREATE TABLE read_marks (session_id TEXT PRIMARY KEY REFERENCES sessions (id),"
        " last_read_event_id INTEGER NOT NULL)"
    )
    UNREAD = (
        "SELECT count(*) FROM events WHERE session_id = :session"
        " AND event_id > coalesce((SELECT last_read_event_id FROM read_marks"
        " WHERE session_id = :session), 0)"
    )
    ORDER_DESK = {"session": "order-desk"}
    print("读之前的未读数：", db.execute(UNREAD, ORDER_DESK).fetchone()[0])
    db.execute(
        "INSERT INTO read_marks VALUES ('order-desk', 2)"
        " ON CONFLICT (session_id) DO UPDATE SET last_read_event_id = excluded.last_read_event_id"
    )
    print("读到事件 2 之后的未读数：", db.execute(UNREAD, ORDER_DESK).fetchone()[0])
    db.close()
    """),
    "1295e505": code(r"""
    path = new_database("read_state", turns=2)
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("UPDATE events SET payload = json_set(payload, '$.read', 1) WHERE event_id = 2")
    except sqlite3.IntegrityError as error:
        print(f"被拒绝：事件日志只能追加，触发器挡下了这次修改（{error.sqlite_errorname}）")
    """),
}
