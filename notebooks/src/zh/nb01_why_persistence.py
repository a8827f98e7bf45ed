"""Notebook 1 in Chinese: its markdown cells, and the code cells whose words are English,
each keyed by the fingerprint of its English."""

# ruff: noqa: E501, RUF001 - Chinese paragraphs on one line, in Chinese punctuation

from __future__ import annotations

from cells import code, md

CELLS = {
    "286bbcc1": md(r"""
    # 1. 为什么 Agent 需要持久层

    LLM Agent 就是一个循环：它把对话保存成一个消息列表，把整个列表发给模型，把模型的回答（以及工具调用和工具结果）追加到列表里，然后等用户的下一条消息。这个列表**就是** Agent 的记忆：模型本身在两次调用之间什么也不记得。

    这个列表放在哪里？大多数第一版都放在一个 Python 变量里。这篇 notebook 现场演示这样做会以哪三种方式出错：

    1. **崩溃**。进程死了，列表也跟着死了。
    2. **断线重连**。网络抖了一下，客户端重新连接，拿到的是一个全新的空上下文，没有任何东西可以用来断线续传。
    3. **同时开两个会话**。两段对话共用一个进程；除非每条消息都标明属于哪段对话，否则一段对话会混进另一段。

    三个问题是同一个根因：**状态放在进程里**。这个系列接下来要做的，就是把状态搬出进程：搬进一条存在 SQLite 里、只追加的事件日志。
    """),
    "7f26831d": md(r"""
    ## 一个把一切都放在内存里的小 Agent

    要看清问题并不需要真正的模型，所以下面的“模型”只是一段脚本。和真正的模型一样，它只根据发给它的消息作答：自己没有任何记忆。它会打招呼、数订单（永远是 42 个）、总结文档，还有一项对我们很有用的本事：复述用户上一个问题。
    """),
    "16524050": md(r"""
    一切正常的时候，Agent 是“记得”的：上一个问题就在它的列表里。
    """),
    "3f575848": md(r"""
    ## 失败一：进程崩溃

    真正的 Agent 以服务的形式运行，而服务会死：一个没捕获的异常、内存不足被杀、运维的一句 `kill -9`、一次部署。`SIGKILL` 是最诚实的测试，因为进程在退出时**没有任何机会运行代码**：没有 `finally`，没有 `atexit`，也没有“退出前先保存”。

    下面让 Agent 跑在一个子进程里，我们通过管道和它对话。子进程用 `fork` 启动，所以可以直接使用上面定义的类。
    """),
    "d6bd8c1d": md(r"""
    用户一秒钟前刚问过一个问题，重启后的 Agent 却从没听说过，还反过来问用户想查什么。在用户看来，服务并不是“重启”了，而是**失忆**了。

    ## 失败二：客户端断线重连

    这一次进程一直活着。用户的浏览器断开了一小会儿，又重新连上。常见的第一版服务按连接保存对话（在连接处理函数里新建一个列表），于是新连接从零开始，也没有任何东西可以用来断线续传：旧的对话没有留下任何能用 id 指向的痕迹。
    """),
    "3dda07c2": md(r"""
    ## 失败三：一个进程里的两个会话

    同一个用户开着两段对话：一个**订单客服**会话和一个**文档助手**会话。进程只为“这段对话”保存一个消息列表。每个请求都根据这个列表作答，于是订单客服的消息也被发给了文档助手。
    """),
    "e61532e2": md(r"""
    文档助手复述的是订单客服里的问题：会话 A 的上下文混进了会话 B 的请求。这里只是答错了；换成真正的模型，可能就是把隐私数据显示在了错误的对话里。

    常见的补救办法是用一个字典，把会话 id 映射到各自的列表。这确实能把会话隔开，但列表仍然放在进程里（失败一又回来了），结束的会话永远不会被清掉（字典只增不减），而且以后每个新功能都得记得经过它。
    """),
    "9633ca74": md(r"""
    ## 解决方案必须做到什么

    | 失败 | 状态必须是什么样 | 事件日志怎样做到 |
    |---|---|---|
    | 崩溃 | **在进程之外** | Agent 回复之前，每个事件都已经提交到 SQLite 文件里 |
    | 断线重连 | **可以从一个已知位置开始回放** | 事件带着一个全局递增的 `event_id`；客户端请求“第 4 个事件之后的全部事件” |
    | 两个会话 | **靠数据隔离，而不是靠变量** | 每一行事件都带着自己的 `session_id`；每次读取都按它过滤 |

    一句话：把对话变成进程之外、可回放、按会话隔离的数据。

    接下来的几篇 notebook 正是要搭出这样的东西：

    2. **快照还是事件溯源**：保存对话的两种方式，以及这套练习为什么追加事件，而不是覆盖快照。
    3. **纯 Python 的事件日志**：由你亲手写的五个函数，逐个单元格地判题。
    4. **SQLite 存储**：表结构、pragma、事务里的一次追加。
    5. **崩溃恢复与断线续传**：再来一次上面的崩溃，这回用真正的服务、`SIGKILL`，以及把对话带回来的回放。
    6. **常见的坑**：六种不易察觉的错误做法，每种都现场复现。
    """),
}

CODE = {
    "a00d9015": code(r'''
    def scripted_model(messages: list[dict[str, str]]) -> str:
        """只根据收到的对话，回答最后一条用户消息。"""
        question = messages[-1]["content"].lower()
        earlier_questions = [m["content"] for m in messages[:-1] if m["role"] == "user"]
        if "刚才问" in question:
            if earlier_questions:
                return f"你问的是：{earlier_questions[-1]!r}"
            return "抱歉，你之前没有问过问题。你想查什么？"
        if "总结" in question:
            return "摘要：这份设计文档提议用一条只追加的事件日志。"
        if "你好" in question:
            return "你好！我是订单客服，可以帮你查订单数量。"
        if "订单" in question:
            return "你当前有 42 个订单。"
        return "我会打招呼，也会查订单数量。"


    class InMemoryAgent:
        """一个 Agent，它的全部记忆就是一个 Python 列表：这个对象活多久，记忆就活多久。"""

        def __init__(self) -> None:
            self.messages: list[dict[str, str]] = []

        def chat(self, text: str) -> str:
            self.messages.append({"role": "user", "content": text})
            reply = scripted_model(self.messages)
            self.messages.append({"role": "assistant", "content": reply})
            return reply


    def show(send, text: str) -> None:
        """用 ``send`` 发出一条消息，像聊天窗口那样打印这一问一答。"""
        print(f"用户：{text}")
        print(f"Agent：{send(text)}")
    '''),
    "4fdfe65b": code(r"""
    agent = InMemoryAgent()
    for text in ["你好", "我有多少个订单？", "我刚才问了什么？"]:
        show(agent.chat, text)
    print(f"\n内存里保存的消息：{len(agent.messages)} 条")
    """),
    "1a62ee72": code(r'''
    import multiprocessing
    import os
    import signal
    from functools import partial

    FORK = multiprocessing.get_context("fork")


    def serve(pipe) -> None:
        """Agent 服务：回答管道里传来的每一条消息，永不停止。"""
        agent = InMemoryAgent()
        while True:
            pipe.send(agent.chat(pipe.recv()))


    def start_service():
        """在子进程里启动服务；返回这个进程，以及管道在我们这一端的接口。"""
        ours, theirs = FORK.Pipe()
        process = FORK.Process(target=serve, args=(theirs,), daemon=True)
        process.start()
        return process, ours


    def ask(pipe, text: str) -> str:
        pipe.send(text)
        return pipe.recv()
    '''),
    "b0caeeb0": code(r"""
    service, pipe = start_service()
    show(partial(ask, pipe), "我有多少个订单？")

    os.kill(service.pid, signal.SIGKILL)  # 崩溃：任何清理代码都来不及运行
    service.join()
    print(f"\n[服务被杀，退出码 {service.exitcode}：-9 表示 SIGKILL]\n")

    service, pipe = start_service()  # 守护进程把它重新启动
    show(partial(ask, pipe), "我刚才问了什么？")
    service.kill()
    service.join()
    """),
    "90ecf20e": code(r'''
    class ChatServer:
        """一个长期运行的服务，给每个新连接一份它自己的内存上下文。"""

        def connect(self) -> InMemoryAgent:
            return InMemoryAgent()


    server = ChatServer()
    connection = server.connect()
    show(connection.chat, "我有多少个订单？")

    print("\n[网络抖了一下：客户端重新连接]\n")
    connection = server.connect()
    show(connection.chat, "我刚才问了什么？")
    '''),
    "dc903fd4": code(r'''
    shared_messages: list[dict[str, str]] = []  # 整个进程共用一个列表


    def chat_in(session: str, text: str) -> None:
        """处理发给 ``session`` 的一条消息：可上下文却是那个共用的列表。"""
        shared_messages.append({"role": "user", "content": text})
        reply = scripted_model(shared_messages)
        shared_messages.append({"role": "assistant", "content": reply})
        print(f"[{session}] 用户：{text}")
        print(f"[{session}] Agent：{reply}")


    chat_in("文档助手", "请总结这份设计文档")
    chat_in("订单客服", "我有多少个订单？")
    chat_in("文档助手", "我刚才问了什么？")
    '''),
}
