"""Notebook 1: three ways an agent that keeps its conversation in memory lets users down."""

# Markdown tables cannot wrap, so long lines are allowed in this module's strings.
# ruff: noqa: E501

from __future__ import annotations

from cells import code, md

FILENAME = "01_why_persistence.ipynb"

CELLS = [
    md(r"""
    # 1. Why an agent needs a persistence layer

    An LLM agent is a loop: it keeps the conversation as a list of messages, sends the whole
    list to a model, appends the model's answer (and any tool calls and tool results), and
    waits for the user's next message. That list *is* the agent's memory: the model itself
    remembers nothing between calls.

    Where does the list live? In most first versions, in a Python variable. This notebook
    shows the three ways that goes wrong, live:

    1. **A crash.** The process dies; the list dies with it.
    2. **A reconnect.** The network blips, the client reconnects and gets a fresh, empty
       context. Nothing is left to resume from.
    3. **Two sessions at once.** Two conversations share one process; unless every message
       is tagged with its conversation, one leaks into the other.

    All three have one root cause: *the state lives in the process*. The rest of this series
    moves it out: into an append-only log of events kept in SQLite.
    """),
    md(r"""
    ## A tiny agent that keeps everything in memory

    No real model is needed to see the problem, so the "model" below is a script. Like a real
    model it answers only from the messages it is sent: it has no memory of its own. It can
    greet, count orders (always 42), summarise a document and, usefully for us, repeat the
    user's previous question.
    """),
    code(r'''
    def scripted_model(messages: list[dict[str, str]]) -> str:
        """Answer the last user message using only the conversation it is given."""
        question = messages[-1]["content"].lower()
        earlier_questions = [m["content"] for m in messages[:-1] if m["role"] == "user"]
        if "what did i" in question:
            if earlier_questions:
                return f"You asked: {earlier_questions[-1]!r}"
            return "Sorry, I have no earlier question from you. What would you like to look up?"
        if "summarise" in question:
            return "Summary: the design doc proposes an append-only log of events."
        if "hello" in question:
            return "Hello! I am the order desk. I can count your orders."
        if "orders" in question:
            return "You have 42 orders."
        return "I can greet you and count your orders."


    class InMemoryAgent:
        """An agent whose whole memory is one Python list: it lives as long as this object."""

        def __init__(self) -> None:
            self.messages: list[dict[str, str]] = []

        def chat(self, text: str) -> str:
            self.messages.append({"role": "user", "content": text})
            reply = scripted_model(self.messages)
            self.messages.append({"role": "assistant", "content": reply})
            return reply


    def show(send, text: str) -> None:
        """Send one message with ``send`` and print the exchange as a chat window would."""
        print(f"user:  {text}")
        print(f"agent: {send(text)}")
    '''),
    md(r"""
    When nothing goes wrong, the agent "remembers": the previous question is in its list.
    """),
    code(r"""
    agent = InMemoryAgent()
    for text in ["hello", "how many orders do I have?", "what did I just ask?"]:
        show(agent.chat, text)
    print(f"\nmessages held in memory: {len(agent.messages)}")
    """),
    md(r"""
    ## Failure 1: the process crashes

    A real agent runs as a service. Services die: an uncaught exception, an out-of-memory
    kill, an operator's `kill -9`, a deploy. `SIGKILL` is the honest test, because the process
    gets **no chance to run any code** on the way out: no `finally`, no `atexit`, no
    "save before exit".

    Below, the agent runs in a child process and we talk to it through a pipe. The child is
    started with `fork`, so it can use the classes defined above as they are.
    """),
    code(r'''
    import multiprocessing
    import os
    import signal
    from functools import partial

    FORK = multiprocessing.get_context("fork")


    def serve(pipe) -> None:
        """The agent service: answer every message that arrives on the pipe, forever."""
        agent = InMemoryAgent()
        while True:
            pipe.send(agent.chat(pipe.recv()))


    def start_service():
        """Start the service in a child process; return the process and our end of the pipe."""
        ours, theirs = FORK.Pipe()
        process = FORK.Process(target=serve, args=(theirs,), daemon=True)
        process.start()
        return process, ours


    def ask(pipe, text: str) -> str:
        pipe.send(text)
        return pipe.recv()
    '''),
    code(r"""
    service, pipe = start_service()
    show(partial(ask, pipe), "how many orders do I have?")

    os.kill(service.pid, signal.SIGKILL)  # the crash: no cleanup code runs
    service.join()
    print(f"\n[service killed, exit code {service.exitcode}: -9 means SIGKILL]\n")

    service, pipe = start_service()  # the supervisor restarts it
    show(partial(ask, pipe), "what did I just ask?")
    service.kill()
    service.join()
    """),
    md(r"""
    The user asked a question a second ago; the restarted agent has never heard of it and asks
    what they want to look up. From the user's side the service did not "restart", it
    *forgot*.

    ## Failure 2: the client reconnects

    This time the process stays up. The user's browser loses its connection for a moment and
    reconnects. A typical first server keeps the conversation per connection (a list created
    in the connection handler), so the new connection starts from nothing, and there is
    nothing to resume from: the old conversation left no trace that an id could point to.
    """),
    code(r'''
    class ChatServer:
        """A long-lived server that gives each new connection its own in-memory context."""

        def connect(self) -> InMemoryAgent:
            return InMemoryAgent()


    server = ChatServer()
    connection = server.connect()
    show(connection.chat, "how many orders do I have?")

    print("\n[network blip: the client reconnects]\n")
    connection = server.connect()
    show(connection.chat, "what did I just ask?")
    '''),
    md(r"""
    ## Failure 3: two sessions in one process

    The same user has two conversations open: an **order desk** session and a **docs
    assistant** session. The process keeps one list of messages for "the conversation". Each
    request is answered from that list, so the docs assistant is sent the order desk's
    messages too.
    """),
    code(r'''
    shared_messages: list[dict[str, str]] = []  # one list for the whole process


    def chat_in(session: str, text: str) -> None:
        """Handle a message for ``session`` - but the context is the shared list."""
        shared_messages.append({"role": "user", "content": text})
        reply = scripted_model(shared_messages)
        shared_messages.append({"role": "assistant", "content": reply})
        print(f"[{session}] user:  {text}")
        print(f"[{session}] agent: {reply}")


    chat_in("docs assistant", "please summarise the design doc")
    chat_in("order desk", "how many orders do I have?")
    chat_in("docs assistant", "what did I just ask?")
    '''),
    md(r"""
    The docs assistant answers with the order desk's question: session A's context leaked into
    session B's request. Here it is a wrong answer; with a real model it can be private data
    shown in the wrong conversation.

    The usual patch is a dictionary from session id to list. It does keep the sessions apart,
    but the lists still live in the process (failure 1 is back), nothing ever removes a
    finished session (the dictionary only grows), and every new feature has to remember to go
    through it.
    """),
    md(r"""
    ## What the fix has to provide

    | failure | what the state must be | how the event log provides it |
    |---|---|---|
    | crash | **outside the process** | every event is committed to a SQLite file before the agent replies |
    | reconnect | **replayable from a known point** | events carry one global, increasing `event_id`; a client asks "everything after event 4" |
    | two sessions | **isolated by the data, not by a variable** | every event row carries its `session_id`; every read filters on it |

    One sentence: turn the conversation into data that lives outside the process, can be
    replayed, and is isolated per session.

    The next notebooks build exactly that:

    2. *Snapshot or event sourcing*: two ways to store a conversation, and why this kit
       appends events instead of overwriting a snapshot.
    3. *The event log in pure Python*: the five functions you write yourself, graded cell by
       cell.
    4. *The SQLite store*: the schema, the pragmas, one append inside its transaction.
    5. *Crash recovery and resume*: the crash above again, with a real server, `SIGKILL` and
       a replay that brings the conversation back.
    6. *Pitfalls*: six ways to get it subtly wrong, each reproduced.
    """),
]
