"""Notebook 4 in Chinese: its markdown cells, and the code cells whose words are English,
each keyed by the fingerprint of its English."""

# ruff: noqa: E501, RUF001 - Chinese paragraphs on one line, in Chinese punctuation

from __future__ import annotations

from cells import code, md

CELLS = {
    "7bbbba68": md(r"""
    # 4. SQLite 存储

    第 3 篇 notebook 把事件日志当作内存里的一个纯粹的值。这一篇把套件里的持久化版本 `sqlite_demo.SqliteEventStore` 拆开来看：同样的规则、同样的回放（两者都来自共享的 `eventlog` 包），保存在一个 SQLite 文件里。

    我们依次看五样东西：表结构、每个连接都要设置的三个 pragma、事务里的一次追加、读回一个会话的两种方式，以及让这些读取保持快速的索引。
    """),
    "80325b42": md(r"""
    ## 表结构：一个事实源，两张投影表

    四张表。`events` 是**唯一的事实源**：发生过的每件事一行，只追加，永不修改。`messages` 和 `tool_calls` 是**投影**：从事件派生出来的表，让常用的读取更快。它们随时可以丢掉，再从 `events` 重建（`store.rebuild_projections()` 做的正是这件事）。

    ```mermaid
    erDiagram
        accTitle: 四张表：sessions、events 日志，以及 messages 和 tool_calls 两张投影表
        sessions ||--o{ events : "拥有"
        sessions ||--o{ messages : "拥有"
        sessions ||--o{ tool_calls : "拥有"
        events ||--o| messages : "user/assistant 消息投影为"
        events ||--o| tool_calls : "tool_call 投影为"
        sessions {
            TEXT id PK "sess_ 加 32 位十六进制数字"
            TEXT title
            INTEGER created_at "unix 毫秒"
        }
        events {
            INTEGER event_id PK "AUTOINCREMENT：全局唯一的序列"
            TEXT session_id FK "属于哪段对话"
            TEXT type "user_message、assistant_message、tool_call、tool_result"
            TEXT payload "JSON 对象"
            INTEGER created_at "unix 毫秒"
            TEXT idempotency_key "可选；在会话内唯一"
            TEXT call_id "只有工具事件才有；按会话建索引"
        }
        messages {
            INTEGER event_id PK, FK "每条事件最多一行"
            TEXT session_id FK
            TEXT role "user 或 assistant"
            TEXT content
            INTEGER created_at
        }
        tool_calls {
            INTEGER event_id PK, FK "每条事件最多一行"
            TEXT session_id FK
            TEXT call_id "在会话内 UNIQUE"
            TEXT name
            TEXT arguments "JSON 文本，保持模型写出的样子"
            TEXT result "tool_result 事件到达之前为 NULL"
            INTEGER created_at
        }
    ```

    有三个设计决策值得多看一眼：

    * **`event_id INTEGER PRIMARY KEY AUTOINCREMENT`**。id **就是**行号，所以每插入一行就增长；`AUTOINCREMENT` 再加上一条保证：一个 id 永远不会发出两次。日志的顺序就是 id 的顺序，“从第 4 个事件之后断线续传”靠的就是它。
    * **每一行都有 `session_id` 外键**。会话之间靠数据本身隔离，而不是每个会话一个库，也不是内存里的一个字典：每次读取都先按 `session_id` 过滤。
    * **`event_id` 是每张投影表的主键**。一条事件最多产生一行投影，数据库会拒绝第二行。（本章给每张投影表各自一个 `AUTOINCREMENT` id，再加一个 `UNIQUE` 的事件 id：每次追加都要多更新一棵 B 树和一个计数器，只为了一个没人读的 id。）

    存储还装了两个触发器，拒绝对 `events` 的任何 `UPDATE` 或 `DELETE`（第 6 篇 notebook 两样都会试）。文件里的全部内容：
    """),
    "1bb21ef8": md(r"""
    ## 三个 pragma，每个连接都要设置

    SQLite 的大部分设置是按**连接**保存的，而不是按文件。哪个连接忘了设置，就会悄无声息地在没有它的情况下运行，所以存储每次打开文件都会设置一遍：

    | pragma | 值 | 为什么 |
    |---|---|---|
    | `journal_mode` | `WAL` | 提交的内容追加到一个单独的 `-wal` 文件里。崩溃之后，SQLite 保留其中每一个已提交的事务，忽略写了一半的那个；而且写入者在写的时候，读取方照样可以读。 |
    | `synchronous` | `NORMAL`（1） | 在 WAL 模式下，它能扛住**进程**的任何崩溃，包括 `SIGKILL`，而不需要每次提交都 `fsync`。只有操作系统崩溃或断电才可能丢掉最后几次提交；`FULL`（2）连这些也能扛住，代价是每次追加一次 `fsync`。 |
    | `foreign_keys` | `ON`（1） | 默认是关闭的！没有它，`REFERENCES sessions (id)` 就只是摆设，一个不存在的会话的事件也能写进去。 |

    （`busy_timeout` 让第二个写入者排队等候，而不是立刻失败。）存储会报告 SQLite 说实际生效的设置：
    """),
    "36a65a13": md(r"""
    对比一下在同一个文件上打开、不做任何设置的普通连接。WAL 模式保存在文件里，所以一直有效；另外两个则退回到 SQLite 的默认值：
    """),
    "39085c13": md(r"""
    写事件的连接上 `foreign_keys = 0` 是个实打实的 bug；第 6 篇 notebook 会展示它放进来的孤儿事件。

    ## 一段对话，每次回复之前先落库

    套件里的 Agent（`sqlite_demo.service.agent.Agent`）跑的是常见的循环（问模型、执行它要求的工具、重复，直到它给出回复），用的是脚本化的模型，而且每一步都先提交到存储，**再**进行下一步。只有装着回复的 `assistant_message` 提交之后，用户才会看到这条回复：先落库再回复。
    """),
    "4cd490e1": md(r"""
    ## 事务里的一次追加

    一次 `append_event` 究竟给 SQLite 发了什么？存储做三件事：

    1. 在碰数据库之前，先用共享的规则（`eventlog.validate_append`）检查 payload，所以非法输入根本到不了事务那一步；
    2. 用 `BEGIN IMMEDIATE` 开启一个写事务，它在读取任何东西**之前**就拿到写锁，所以它检查的内容（会话存在吗？这个调用 id 没用过吗？）在提交之前一直成立；
    3. 在这个事务里插入事件**和**它的投影行，然后提交。要么都成功，要么都不发生：投影永远不会跑在日志前面，也不会落在后面。

    为了看清这个过程，我们在第二个连接上执行同样的步骤；这个连接的打开方式和存储自己的一样，另外装了一个跟踪回调，把 SQLite 执行的每条语句都打印出来。给文档助手新建一个会话，写入一条用户消息：
    """),
    "fcb020a2": md(r"""
    从上到下读这段跟踪：`BEGIN IMMEDIATE`；`INSERT INTO events`，连接把新的 `event_id` 报告为它的 `lastrowid`；用这个 id 插入的 `messages` 投影行；`COMMIT`。没有单独的“会话存在吗？”查询：`session_id` 上的外键在插入的同时就会拒绝未知的会话。每个值都以 `?` 参数传入（跟踪里显示的是填好后的样子；`<now>` 代表时间戳）。这些是每次追加的步骤。不过，一条单独追加、既没有规则也没有键的消息，存储会改用一条语句发送：`INSERT INTO message_appends`。这是它自己连接上的一个 TEMP 视图，视图的触发器执行同样的两条 INSERT，SQLite 把这条语句当作一个独立的事务提交，语句数只有原来的三分之一。

    `tool_result` 是唯一一种投影会**更新**已有行的事件：它填上对应 `tool_calls` 行的 `result`。投影可以改变，事件永远不变。工具事件还带着一条与会话历史有关的规则（一个调用 id 只能用一次，一个结果回答一个尚未回答的调用），所以插入之前，存储会在同一个事务里读出会话最后一个事件 id（连同会话是否存在），以及已经带有这个调用 id 的事件：在 `idx_events_call_id` 里查找一次，不管会话已经有多长。
    """),
    "2b5f30cb": md(r"""
    ## 两条读路径：投影与回放

    两类表服务于两类读取方：

    * **投影**回答“聊天窗口显示什么？”：在 `messages` 上做一次走索引的查询，不解码 JSON，也不折叠。`get_messages` 只返回用户和 assistant 的消息；工具调用在 `get_tool_calls` 里，结果已经填好。
    * **回放**回答“我们发给模型什么？”：它读出会话的事件，把它们折叠成 OpenAI Chat Completions 消息，连工具调用一起，和第 2 篇 notebook 的做法完全一样。恢复一段对话走的就是这条路径。
    """),
    "c5f47c53": md(r"""
    消息行的事件 id 是 1、2、3 和 6：事件 4 和 5 是工具调用和它的结果，它们在另一张投影表里。这不是缺口，而恰恰是投影的本义：为某一类读取方切出来的日志**切片**。如果投影和日志对不上，那一定是写路径没有把它们放在同一个事务里（第 6 篇 notebook 展示这是怎么发生的）。

    投影是派生出来的，所以随时可以从事件重建，结果完全相同：
    """),
    "ce42f902": md(r"""
    ## 索引在起作用：`EXPLAIN QUERY PLAN`

    每次读取一个会话都是“这个会话的事件，按 id 排序，也许从某个 id 之后开始”。表结构恰好为此准备了一个索引：`idx_events_session ON events (session_id, event_id)`。SQLite 的 `EXPLAIN QUERY PLAN` 能在不执行查询的情况下说出它打算怎样执行：
    """),
    "32895fd5": md(r"""
    `SEARCH ... USING INDEX idx_events_session`：SQLite 直接定位到这个会话的条目（对断线续传的读取，则直接跳过第 4 个事件），读出来时已经按 `event_id` 排好序，所以不需要排序步骤。开销取决于**这个**会话的大小，而不是整个日志的大小。

    再看同样两条查询，换成一张列相同、但没有索引的表：
    """),
    "791465c3": md(r"""
    `SCAN events` 为了找到一个会话的事件，要读遍所有会话的每一条事件。对断线续传的读取，SQLite 至少还能从 id 5 开始（id 就是行号），但它仍然要走完**所有**会话之后的全部事件。做 demo 没问题；对一个存着一百万条事件的服务来说就太慢了。

    ## 小结

    * `events` 是账本；`messages` 和 `tool_calls` 是从它派生出来的投影。
    * 每个连接都设置 `journal_mode=WAL`、`synchronous=NORMAL`、`foreign_keys=ON`。
    * 一次追加就是一个 `BEGIN IMMEDIATE` 事务：事件和它的投影行，要么都成功，要么都不发生。
    * 显示聊天记录就读投影；和模型对话就回放事件。
    * `(session_id, event_id)` 索引让“这个会话在 N 之后的事件”变成一次查找。

    第 5 篇 notebook 会杀掉往这种文件里写入的服务，再把对话带回来。
    """),
}

CODE = {
    "ffdd95ac": code(r"""
    store.create_session("订单客服", session_id="order-desk")
    agent = Agent(store)
    for text in ["你好", "帮我查一下订单数量"]:
        turn = agent.handle_message("order-desk", text)
        print(f"用户：{text}\nAgent：{turn.reply}")
        print(f"      （事件 {[event.event_id for event in turn.events]} 先提交）\n")
    """),
    "40288e0f": code(r'''
    store.create_session("文档助手", session_id="docs-assistant")


    def print_statement(sql: str) -> None:
        """打印一条被跟踪的语句，折行显示；时间戳换成占位符，让每次运行的输出都一样。"""
        text = re.sub(r"\b1\d{12}\b", "<now>", " ".join(sql.split()))
        lines = textwrap.wrap(text, width=90, break_on_hyphens=False)
        print("  " + "\n      ".join(lines))


    traced = open_connection(DB_PATH)  # 存储自己的 pragma，用在一个我们能观察的连接上
    traced.set_trace_callback(print_statement)

    payload = validate_append("docs-assistant", "user_message", {"content": "帮我总结这份文档"})
    with write_transaction(traced):
        event = append_in_transaction(traced, "docs-assistant", "user_message", payload, None)
    print(f"\n已追加事件 {event.event_id}")
    '''),
    "318eb12a": code(r"""
    steps = [
        ("tool_call", {"call_id": "call_1", "name": "search_docs", "arguments": '{"q": "WAL"}'}),
        ("tool_result", {"call_id": "call_1", "content": "有 3 页提到了 WAL"}),
    ]
    for event_type, details in steps:
        print(f"-- {event_type}")
        payload = validate_append("docs-assistant", event_type, details)
        with write_transaction(traced):
            append_in_transaction(traced, "docs-assistant", event_type, payload, None)
    traced.close()
    """),
    "427dc182": code(r"""
    before = store.get_messages("order-desk"), store.get_tool_calls("order-desk")
    store.rebuild_projections()
    after = store.get_messages("order-desk"), store.get_tool_calls("order-desk")
    print("重建之后投影完全相同：", before == after)
    """),
    "fc07da21": code(r'''
    READ_SESSION = "SELECT event_id, type, payload FROM events WHERE session_id = ? ORDER BY event_id"
    READ_AFTER = (
        "SELECT event_id, type, payload FROM events"
        " WHERE session_id = ? AND event_id > ? ORDER BY event_id"
    )


    def show_plans(connection: sqlite3.Connection) -> None:
        """打印 SQLite 的查询规划器为这两种会话读取选择的步骤。"""
        for label, sql, parameters in [
            ("整个会话          ", READ_SESSION, ("order-desk",)),
            ("id 4 之后的事件   ", READ_AFTER, ("order-desk", 4)),
        ]:
            rows = connection.execute(f"EXPLAIN QUERY PLAN {sql}", parameters).fetchall()
            print(label, " | ".join(row[-1] for row in rows))


    reader = sqlite3.connect(DB_PATH)
    show_plans(reader)
    '''),
}
