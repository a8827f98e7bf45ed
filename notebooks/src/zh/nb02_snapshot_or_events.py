"""Notebook 2 in Chinese: its markdown cells, and the code cells whose words are English,
each keyed by the fingerprint of its English."""

# ruff: noqa: E501, RUF001 - Chinese paragraphs on one line, in Chinese punctuation

from __future__ import annotations

from cells import code, md

CELLS = {
    "2280944d": md(r"""
    # 2. 快照还是事件溯源？

    要让对话活得比进程久，就得把它存到某个地方。保存一个随时间变化的东西，有两种经典做法：

    * **快照**保存的是**现在的样子**。每段对话一行，存着完整的消息列表；每来一条新消息，就用更长的列表把这一行覆盖一次。读取当前状态只需要查一次。
    * **事件溯源**保存的是**怎样一步步变成现在的样子**。发生的每一件事（用户发了消息、模型调用了工具、工具返回了结果、模型作了回复）都是一条**事件**，追加到日志里，之后永不修改、永不删除。当前状态根本不存储：需要时把会话的事件按顺序**回放**一遍，折叠成消息列表，就得到了当前状态。

    常用的比喻是银行账户：对账单列出每一笔交易，余额是把它们加起来得到的。没有人会去改上周二的那笔交易。

    这篇 notebook 在同一段对话上把两种模型都跑一遍，重建每一个较早事件时的状态，并实测两者各自的开销。
    """),
    "5531ce26": md(r"""
    对话是这样的：用户向订单客服打招呼，然后问自己有多少个订单。模型通过调用工具 `query_order_count` 来回答，工具返回 42。一共六条事件：
    """),
    "feb965c9": md(r"""
    ## 模型一：每个会话一个快照

    一张表，每个会话一行。保存就是“插入这一行，如果已经有了就覆盖它”（SQLite 的 upsert）；读取就是一次主键查找。
    """),
    "86791919": md(r"""
    ## 模型二：只追加的事件日志

    事件这边我们直接用套件里真正的存储 `SqliteEventStore`（第 4 篇 notebook 会把它拆开来看）。`append_event` 往 `events` 表里加一行，并返回存好的事件和它的 `event_id`：这个编号来自所有会话共用的同一个序列。`replay_session` 按顺序读出会话的事件，再用 `eventlog.replay_events` 把它们折叠成聊天消息。

    我们给会话起一个好读的 id `order-desk`，这样下面的输出每次运行都一样（否则存储会随机生成一个）。
    """),
    "2da57d44": md(r"""
    每一轮，快照都要把**整段对话重写一遍**；事件日志只写**刚刚发生的事**。两者保存的当前状态仍然相同：
    """),
    "701d9d42": md(r"""
    注意第四条消息：`tool_call` 事件变成了一条 `content: None`、带 `tool_calls` 列表的 assistant 消息，`tool_result` 则变成了一条 `tool` 消息。这正是 OpenAI Chat Completions API 要求的格式，所以回放出来的会话可以直接再发给模型。

    ## 重建任意一个较早事件时的状态

    日志保留了每一步，所以**第 k 个事件之后**的状态，就是把前 k 个事件回放一遍。回放是一次折叠，日志的任何一个前缀都给出那一刻的状态：
    """),
    "c45d1379": md(r"""
    第 4 个事件之后的状态最有意思：模型已经请求调用工具，结果却还没到。一轮对话进行到一半时发生崩溃，对话就会停在这样的地方；有了日志，我们可以查看它、回放它，或者把它接着做完：
    """),
    "d2db6a0c": md(r"""
    快照表没有这样的历史。它只有一行，存着最新的状态；之前的每一个状态都被覆盖掉了：
    """),
    "1c97f04c": md(r"""
    更正也是一样。如果发现某条回复是错的，快照的做法是原地修改它，之后就再也没人说得清用户当时究竟看到了什么。事件的做法是追加一条新事件来更正它（可以带一个 `supersedes` 键，指明它取代的是哪条事件）：错误和更正都留有记录。

    ## 两种模型的对比

    | | 快照 | 事件日志 |
    |---|---|---|
    | 存的是什么 | 只有最新状态 | 产生这个状态的每一条事件 |
    | 一次写入 | 覆盖那一行（`UPDATE`） | 加一行（`INSERT`）；行永不修改、永不删除 |
    | 读取当前状态 | 查一次 | 回放会话的事件（或者读取一张保持同步的投影表，见第 4 篇 notebook） |
    | 历史、审计、调试 | 丢了，除非另外设计一张变更表 | 天然就有：每一步都按顺序在那里 |
    | 某个较早时刻的状态 | 没了 | 回放到那条事件为止 |
    | 写到一半时崩溃 | 每次写入都重写整个状态唯一的一份；在不支持事务的存储里，写坏一半就毁了它 | 一次写入只加一小行；有 SQLite 的预写日志，每次已提交的追加都能保住，写了一半的则被忽略 |
    | 客户端断线续传 | 没有参照点 | “把第 4 个事件之后的全部发给我” |

    对 Agent 来说，日志在最要紧的三件事上胜出：可以把对话一步步回放来**调试**；追加是**崩溃安全**的；全局的事件 id 让客户端的**断线续传**只需要一条查询。

    不过它也有代价：读取当前状态意味着回放，而日志只会越来越长。我们来实测这两项开销。

    ## 实测开销

    一个很长的会话不断重复同一轮对话（用户提问、工具调用、工具结果、回复），每轮四条事件。我们在两种模型里都记下 400 条事件，再把各自写入的量加起来：
    """),
    "4bddbf4d": md(r"""
    再看读取。对长度不断增加的会话，我们测量拿到当前状态要花多久：读取一个快照（一行、一次 `json.loads`），对比回放事件（读出会话的各行、逐个解码 payload、折叠），此外还有一条留到后面用的：读取存储的 `messages` 投影。耗时取决于机器，要看的是曲线的形状。
    """),
    "dcc58e1c": md(r"""
    怎样读这两张图：

    * **写入**。快照模型的总写入量随会话长度的**平方**增长，因为第 n 轮要重写前面全部 n 条消息。事件日志则是一条直线：每条事件只写一次。
    * **读取**。三条线都随会话变长而增长（对话越长，要读的就越多），但回放比读取快照增长得快得多：它要为每条事件解码一个 JSON payload，再把事件逐个折叠。在真实对话的长度上它仍然只要几毫秒，但这是这种模型的代价，每次读取都要付。第三条线就是出路，第 4 篇 notebook 会讲到：**投影**，也就是存储让它和事件保持同步的一张 `messages` 表，用一条普通查询就能读出来。

    日志还会保留它收到过的一切，所以它的文件只会越来越大：
    """),
    "288c15fe": md(r"""
    ## 这套练习的立场

    对话的**事实源是事件日志**：只追加、可回放、崩溃安全。读取的开销靠**投影**来降低：投影是从事件派生出来的表（比如用来显示聊天记录的 `messages` 表），与每条事件在**同一个事务**里写入，所以永远不会和日志脱节。第 4 篇 notebook 两样都会展示；第 6 篇展示投影在那个事务之外写入时会发生什么。

    对于非常长的历史，大型系统会在日志**之上**定期存快照，只回放最新快照之后的事件。日志始终是事实；快照只不过是一次回放的缓存。
    """),
}

CODE = {
    "3f92cecc": code(r'''
    import json
    import sqlite3
    import tempfile
    import timeit
    import warnings
    from functools import partial
    from itertools import accumulate
    from pathlib import Path

    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    from eventlog import EMPTY_CONVERSATION, apply_event, messages_of, replay_events
    from sqlite_demo import SqliteEventStore

    workdir = tempfile.TemporaryDirectory()  # 这篇 notebook 的数据库都放在这里
    WORKDIR = Path(workdir.name)

    # 图表的标签是中文，需要一个带中文字形的字体：取下面第一个已安装的
    # （Debian：`apt install fonts-noto-cjk`）。
    CJK_FONTS = ("Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "PingFang SC",
                 "Microsoft YaHei", "SimHei")  # fmt: skip
    installed = {font.name for font in font_manager.fontManager.ttflist}
    plt.rcParams["font.family"] = ["DejaVu Sans", *(f for f in CJK_FONTS if f in installed)]
    warnings.filterwarnings("ignore", message="Glyph .* missing from font")  # 缺字时显示方框，不报警告


    def json_size(value) -> int:
        """紧凑的 UTF-8 JSON 占多少字节：存储为了保存 ``value`` 要写入多少。"""
        return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
    '''),
    "3ac1ce02": code(r"""
    CONVERSATION = [
        ("user_message", {"content": "你好"}),
        ("assistant_message", {"content": "你好！我是订单客服助手，可以帮你查询订单数量。"}),
        ("user_message", {"content": "帮我查一下订单数量"}),
        ("tool_call", {"call_id": "call_1", "name": "query_order_count", "arguments": "{}"}),
        ("tool_result", {"call_id": "call_1", "content": "42"}),
        ("assistant_message", {"content": "你当前有 42 个订单。"}),
    ]
    """),
    "e6cfcd0e": code(r'''
    class SnapshotStore:
        """把每个会话的整个消息列表存在一行里，每次变化都整行覆盖。"""

        def __init__(self, path: Path) -> None:
            self.db = sqlite3.connect(path, isolation_level=None)
            # 和事件存储（第 4 篇 notebook）一样的日志设置，比较才公平。
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS snapshots"
                " (session_id TEXT PRIMARY KEY, messages TEXT NOT NULL)"
            )

        def save(self, session_id: str, messages: list[dict]) -> int:
            """用 ``messages`` 覆盖这个会话的那一行；返回写入的字节数。"""
            text = json.dumps(messages, ensure_ascii=False, separators=(",", ":"))
            self.db.execute(
                "INSERT INTO snapshots (session_id, messages) VALUES (?, ?)"
                " ON CONFLICT (session_id) DO UPDATE SET messages = excluded.messages",
                (session_id, text),
            )
            return len(text.encode())

        def load(self, session_id: str) -> list[dict]:
            row = self.db.execute(
                "SELECT messages FROM snapshots WHERE session_id = ?", (session_id,)
            ).fetchone()
            return [] if row is None else json.loads(row[0])
    '''),
    "71a211a1": code(r'''
    snapshots = SnapshotStore(WORKDIR / "snapshots.db")
    events = SqliteEventStore(WORKDIR / "events.db")


    def record_in_both(session_id: str, steps) -> list[dict]:
        """把每一步 (type, payload) 分别交给两种模型；返回每种模型各写了多少。"""
        events.create_session(session_id, session_id=session_id)
        conversation = EMPTY_CONVERSATION  # 快照一方的状态，由“Agent”自己保存
        written = []
        for event_type, payload in steps:
            event = events.append_event(session_id, event_type, payload)
            conversation = apply_event(conversation, event)
            written.append(
                {
                    "event_id": event.event_id,
                    "type": event.type,
                    "snapshot_bytes": snapshots.save(session_id, messages_of(conversation)),
                    "event_bytes": json_size(dict(event.payload)),
                }
            )
        return written


    print(f"{'事件':>5}  {'type':<17} {'快照写入':>15} {'事件日志写入':>16}")
    for row in record_in_both("order-desk", CONVERSATION):
        print(
            f"{row['event_id']:>5}  {row['type']:<17} {row['snapshot_bytes']:>11} 字节"
            f" {row['event_bytes']:>12} 字节"
        )
    '''),
    "eb3b6574": code(r"""
    from_snapshot = snapshots.load("order-desk")
    from_events = events.replay_session("order-desk")
    print("当前状态相同：", from_snapshot == from_events)
    for message in from_events:
        print(f"  {message['role']:<9} {message.get('content') or message.get('tool_calls')}")
    """),
    "5e5a8568": code(r"""
    rows = snapshots.db.execute("SELECT session_id, length(messages) FROM snapshots").fetchall()
    print(f"快照表的行：{rows}（只有一行；之前的五个版本都没了）")
    """),
    "75383d23": code(r'''
    def long_session(event_count: int):
        """一个有 ``event_count`` 个事件的会话的各步 (type, payload)，每轮四个事件。"""
        steps = []
        for turn in range(1, event_count // 4 + 1):
            call = {"call_id": f"call_{turn}", "name": "query_order_count", "arguments": "{}"}
            steps += [
                ("user_message", {"content": f"我现在有多少个订单？（第 {turn} 轮）"}),
                ("tool_call", call),
                ("tool_result", {"call_id": f"call_{turn}", "content": "42"}),
                ("assistant_message", {"content": "你当前有 42 个订单。"}),
            ]
        return steps


    long_run = record_in_both("long-400", long_session(400))
    snapshot_total = sum(row["snapshot_bytes"] for row in long_run)
    event_total = sum(row["event_bytes"] for row in long_run)
    print(f"400 个事件一共写入的字节：快照 {snapshot_total:,}，事件日志 {event_total:,}")
    print(f"快照模型写入的量是事件日志的 {snapshot_total / event_total:.0f} 倍")
    '''),
    "b90d2c70": code(r'''
    def best_ms(read, repeats: int = 15) -> float:
        """把 ``read()`` 跑几次取最快的一次，单位毫秒：受其他工作干扰最小的那次。"""
        return min(timeit.repeat(read, number=1, repeat=repeats)) * 1000


    def store_in_both(session_id: str, steps) -> None:
        """把每一步追加到事件日志，再把最终状态存成一个快照。"""
        events.create_session(session_id, session_id=session_id)
        conversation = EMPTY_CONVERSATION
        for event_type, payload in steps:
            event = events.append_event(session_id, event_type, payload)
            conversation = apply_event(conversation, event)
        snapshots.save(session_id, messages_of(conversation))


    lengths = [50, 100, 200, 300, 400]
    snapshot_ms, replay_ms, projection_ms = [], [], []
    for length in lengths:
        session_id = f"read-{length}"
        store_in_both(session_id, long_session(length))
        snapshot_ms.append(best_ms(partial(snapshots.load, session_id)))
        replay_ms.append(best_ms(partial(events.replay_session, session_id)))
        projection_ms.append(best_ms(partial(events.get_messages, session_id)))

    print("事件数      快照     回放       投影（毫秒）")
    for row in zip(lengths, snapshot_ms, replay_ms, projection_ms, strict=True):
        print("{:>6} {:>10.2f} {:>8.2f} {:>12.2f}".format(*row))
    '''),
    "62c175cf": code(r"""
    figure, (writes, reads) = plt.subplots(1, 2, figsize=(11, 4))

    position = range(1, len(long_run) + 1)
    for key, label in [
        ("snapshot_bytes", "快照：每次都整个重写"),
        ("event_bytes", "事件日志：每次追加一个事件"),
    ]:
        megabytes = [total / 1e6 for total in accumulate(row[key] for row in long_run)]
        writes.plot(position, megabytes, label=label)
    writes.set(xlabel="会话里的事件数", ylabel="累计写入（MB）", title="写入开销")
    writes.legend()

    reads.plot(lengths, snapshot_ms, marker="o", label="读取快照")
    reads.plot(lengths, replay_ms, marker="o", label="回放事件")
    reads.plot(lengths, projection_ms, marker="o", label="读取 messages 投影")
    reads.set(xlabel="会话里的事件数", ylabel="得到当前状态的耗时（毫秒）")
    reads.set_title("读取开销")
    reads.legend()
    figure.tight_layout()
    plt.show()
    """),
    "51d0fd96": code(r"""
    def database_bytes(connection: sqlite3.Connection) -> int:
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        return pages * connection.execute("PRAGMA page_size").fetchone()[0]


    events_db = sqlite3.connect(events.path)
    print(f"快照数据库：{database_bytes(snapshots.db):>9,} 字节：最新的状态")
    print(f"事件数据库：{database_bytes(events_db):>9,} 字节：每一个事件，加上索引")
    events_db.close()
    """),
}
