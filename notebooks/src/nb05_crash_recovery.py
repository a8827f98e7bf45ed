"""Notebook 5: SIGKILL the agent service, find the commits in -wal, restart, replay, resume."""

from __future__ import annotations

from cells import code, md

FILENAME = "05_crash_recovery_and_resume.ipynb"

CELLS = [
    md(r"""
    # 5. Crash recovery and resume

    Notebook 1 killed an in-memory agent and it forgot everything. Here we do the same to the
    kit's real agent service, which writes every event to SQLite before it replies:

    1. start the service as a separate process and have a conversation with it;
    2. kill it with `SIGKILL`, so no cleanup code runs at all;
    3. look at the files it left behind, in particular the `-wal` file;
    4. start a new process on the same file and replay the conversation;
    5. open a second session and check the two stay apart;
    6. resume a client that had seen only the first four events;
    7. put a second writer on the same file: two writers, one conflict, the retry;
    8. kill an OpenAI Agents SDK agent whose session is this log, and resume it elsewhere.

    The whole experiment as a sequence diagram:

    ```mermaid
    sequenceDiagram
        accTitle: A conversation, SIGKILL, a restart on the same file, replay, resume after event 4
        autonumber
        participant C as client (this notebook)
        participant S as agent service (first process)
        participant DB as SQLite file and its -wal
        participant S2 as agent service (restarted)
        C->>S: POST /sessions/ID/messages "how many orders do I have?"
        S->>DB: BEGIN IMMEDIATE, INSERT user_message, COMMIT
        S->>S: the model asks for the tool query_order_count
        S->>DB: INSERT tool_call, COMMIT
        S->>DB: INSERT tool_result "42", COMMIT
        S->>DB: INSERT assistant_message, COMMIT
        S-->>C: reply "You have 42 orders."
        Note over S: SIGKILL: the process dies, no cleanup code runs
        C->>S2: start a new process on the same file
        S2->>DB: open the file, SQLite recovers every committed transaction from -wal
        C->>S2: GET /sessions/ID/replay
        S2->>DB: SELECT events WHERE session_id = ID ORDER BY event_id
        DB-->>S2: 6 events
        S2-->>C: the whole conversation, tool call included
        C->>S2: GET /sessions/ID/events?after=4
        S2-->>C: events 5 and 6 only
    ```
    """),
    md(r"""
    ## Start the service and talk to it

    `sqlite_demo.server.ServerProcess` runs `python -m sqlite_demo serve --db FILE` as a child
    process, waits until it answers `/health`, and can `kill()` it with `SIGKILL`.
    `sqlite_demo.service.client.AgentClient` speaks its HTTP API. The service's model is
    scripted, so the replies are the same on every run.
    """),
    code(r'''
    import atexit
    import sqlite3
    import tempfile
    from pathlib import Path

    from sqlite_demo.server import ServerProcess
    from sqlite_demo.service.client import AgentClient

    workdir = tempfile.TemporaryDirectory()
    DB_PATH = Path(workdir.name) / "agent.db"
    server = ServerProcess(DB_PATH, log_path=Path(workdir.name) / "server.log")
    atexit.register(server.stop)  # even if a cell fails, the child dies with this kernel
    server.start()
    client = AgentClient(server.url)


    def chat(session_id: str, text: str) -> None:
        """Send one message and print the turn: the reply and the ids of its events."""
        turn = client.send_message(session_id, text)
        ids = [event["event_id"] for event in turn["events"]]
        print(f"user:  {text}\nagent: {turn['reply']}\n       (events {ids})")


    order_desk = client.create_session("Order desk")["id"]  # a random id; we use a name
    chat(order_desk, "hello")
    chat(order_desk, "how many orders do I have?")
    '''),
    md(r"""
    ## Where the commits are: the `-wal` file

    In WAL mode a commit does not rewrite the database file. SQLite appends the changed pages
    to `agent.db-wal` and marks the last one as a commit. Only at a **checkpoint** (by default
    once the WAL holds 1000 pages, or when the last connection closes cleanly) are those pages
    copied into `agent.db`. Our six events are far below that threshold, so right now they
    exist *only* in the `-wal` file. (`-shm` is a small shared index of the WAL.)
    """),
    code(r'''
    def show_files() -> None:
        """List the database's files and their sizes."""
        for suffix in ("", "-wal", "-shm"):
            path = Path(f"{DB_PATH}{suffix}")
            size = f"{path.stat().st_size:>7,} bytes" if path.exists() else "  (does not exist)"
            print(f"{path.name:<12} {size}")


    show_files()
    '''),
    md(r"""
    ## The crash

    `SIGKILL` cannot be caught: the process stops between two instructions. No `finally`
    block, no `atexit` hook, no `store.close()`, no checkpoint.
    """),
    code(r"""
    exit_status = server.kill()
    print(f"service killed, exit status {exit_status} (-9 = SIGKILL)\n")
    show_files()
    """),
    md(r"""
    The files are exactly as the dead process left them: the main file still does not hold
    the conversation, and the `-wal` file still does. With `synchronous=NORMAL` SQLite did not
    `fsync` at each commit, and it did not need to: the bytes were handed to the operating
    system's file cache at `COMMIT`, and the OS keeps them when a *process* dies. (An OS crash
    or a power cut is different: that is what `synchronous=FULL` pays an `fsync` per commit
    for.)

    ## The restart: replay brings the conversation back

    A new process opens the same file. Before it reads anything SQLite looks at the `-wal`
    file, keeps every frame up to the last commit record, and ignores anything after it (a
    transaction that was cut off half-way never happened). Then an ordinary query sees every
    committed event.
    """),
    code(r"""
    server.start()  # a brand-new process on the same file and port
    print("session titles after the restart:", [s["title"] for s in client.list_sessions()])
    print()
    for event in client.get_events(order_desk):
        print(f"{event['event_id']}  {event['type']:<18} {event['payload']}")
    """),
    md(r"""
    Replay folds those events into the messages a model expects, so the agent can continue
    the conversation as if nothing had happened: the tool call and its result are back too.
    """),
    code(r'''
    def show_transcript(messages: list[dict]) -> None:
        """Print replayed chat messages one per line, tool calls spelled out."""
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
    md(r"""
    ## Two sessions, kept apart by the data

    A second conversation, the docs assistant, is opened next to the order desk. Isolation
    here is not a dictionary in the server's memory: every event row carries its
    `session_id` and every read filters on it. We replay the order desk before and after the
    docs assistant talks, and count each session's events.
    """),
    code(r"""
    order_desk_before = client.replay(order_desk)

    docs_assistant = client.create_session("Docs assistant")["id"]
    chat(docs_assistant, "please summarise this document")

    sessions = {"order desk": order_desk, "docs assistant": docs_assistant}
    for label, session_id in sessions.items():
        ids = [event["event_id"] for event in client.get_events(session_id)]
        print(f"{label:<15} {len(ids)} events: {ids}")
    unchanged = client.replay(order_desk) == order_desk_before
    print("order desk unchanged by the other session:", unchanged)
    """),
    md(r"""
    The event ids are one global sequence, so the docs assistant's events take the next
    numbers, 7 and 8; each session's reads return only its own rows. The restarted process
    served this new conversation like any other: nothing in it knows there was a crash.

    ## Resume after event 4

    A web client receives events as they are written. Suppose its connection dropped after it
    had received event 4 (the tool call). When it reconnects it does not need the whole
    session again, nor does it have to guess: it sends the id of the last event it saw and
    gets exactly what it missed.
    """),
    code(r"""
    seen = client.get_events(order_desk)[:4]  # what the client had when the connection dropped
    print("client had:", [event["event_id"] for event in seen])

    missed = client.get_events(order_desk, after=seen[-1]["event_id"])
    print("after 4:   ", [(event["event_id"], event["type"]) for event in missed])

    last_id = missed[-1]["event_id"]
    up_to_date = client.get_events(order_desk, after=last_id)
    print(f"after {last_id}:   ", up_to_date, "(nothing new: the client is up to date)")
    """),
    md(r"""
    This works because the ids only ever grow and are never reused: "after 4" means the same
    thing today as it will tomorrow. It is the same query as `get_events_for_session(log,
    session_id, after_event_id=4)` in the exercises of notebook 3, served by the index of
    notebook 4.
    """),
    md(r"""
    ## Two writers, one file: a conflict and the retry

    The first step to scale out, or to restart without downtime, is a second server process
    on the same file. Each process has its own connection; SQLite lets one write at a time
    (`BEGIN IMMEDIATE` queues them), but that alone does not stop two processes from both
    reading a question and both answering it.

    So every append can state the **version** its decision was based on: the session's last
    event id when the writer read it (0 for an empty session). The store checks it inside
    the write transaction, after taking the write lock. If the session moved on meanwhile,
    the append is refused with a `VersionConflictError`, and nothing is written. It is the
    expected revision of EventStoreDB and the `eventsourcing` library.

    Two stores on our file stand in for two processes (each opens its own connection, just
    as a second server would). Both read the same question; both decide to answer it:
    """),
    code(r"""
    from sqlite_demo import SqliteEventStore, VersionConflictError

    writer_1 = SqliteEventStore(DB_PATH)
    writer_2 = SqliteEventStore(DB_PATH)
    desk = writer_1.create_session("Shared desk", session_id="shared-desk").id
    writer_1.append_event(desk, "user_message", {"content": "hello"})

    seen_by_1 = writer_1.get_events_for_session(desk)[-1].event_id
    seen_by_2 = writer_2.get_events_for_session(desk)[-1].event_id
    print(f"both read the session at version {seen_by_1} and {seen_by_2}")

    answer = {"content": "hi, from writer 1"}
    writer_1.append_event(desk, "assistant_message", answer, expected_version=seen_by_1)
    print("writer 1 answered")
    try:
        answer = {"content": "hi, from writer 2"}
        writer_2.append_event(desk, "assistant_message", answer, expected_version=seen_by_2)
    except VersionConflictError as conflict:
        print(f"writer 2 was refused: {conflict}")
    """),
    md(r"""
    The loser does what the agent does on every conflict: it reads what is new, and decides
    again on what it now sees. The question has its answer, so writer 2 has nothing to add
    to it; the message it was asked to store goes after the answer, at the new version.
    """),
    code(r"""
    new = writer_2.get_events_for_session(desk, after_event_id=seen_by_2)
    print("writer 2 reads what is new:", [(event.event_id, event.type) for event in new])
    question = {"content": "and how many orders do I have?"}
    writer_2.append_event(desk, "user_message", question, expected_version=new[-1].event_id)

    for event in writer_1.get_events_for_session(desk):
        print(f"{event.event_id}  {event.type:<18} {event.payload['content']}")
    writer_1.close()
    writer_2.close()
    """),
    md(r"""
    One answer to "hello", not two: a session never gets two replies in a row, and a tool
    result is never written twice, whichever process got there first.

    The service does all of this itself. Below, a second server process joins the first on
    the same file, and one request, with one `Idempotency-Key`, reaches both (a client that
    retried on another server because it never saw the first answer). Both answer with the
    same turn and its assistant reply; the message is stored once.
    """),
    code(r"""
    second_server = ServerProcess(DB_PATH, log_path=Path(workdir.name) / "server2.log")
    atexit.register(second_server.stop)
    second_server.start()
    second_client = AgentClient(second_server.url)

    request = ("how many orders do I have?", "order-question-1")
    first = client.send_message(order_desk, *request)
    again = second_client.send_message(order_desk, *request)
    for name, turn in (("first server ", first), ("second server", again)):
        ids = [event["event_id"] for event in turn["events"]]
        print(f"{name}: {turn['reply']!r}, events {ids}, repeated: {turn['repeated']}")

    second_client.close()
    second_server.stop()
    """),
    md(r"""
    ## A clean shutdown, for comparison

    Stopped politely, the service closes its store. The last connection to close runs a
    checkpoint, copies the WAL into the main file and removes the `-wal` file:
    """),
    code(r"""
    client.close()
    server.stop()
    show_files()

    check = sqlite3.connect(DB_PATH)
    count = check.execute("SELECT count(*) FROM events").fetchone()[0]
    check.close()
    print(f"\nevents in the main file: {count}")
    """),
    md(r"""
    ## The same log as an OpenAI Agents SDK session

    Most agents are built with a framework. The OpenAI Agents SDK keeps a conversation through
    its `Session` protocol, and `sqlite_demo.EventLogSession` is this store behind it:
    `Runner.run(agent, question, session=EventLogSession("orders", "agent.db"))`. Each
    `add_items` is one transaction; `pop_item` and `clear_session` append events that say
    what they take out, and delete nothing.

    Process A below runs an SDK agent with two tools, driven by the SDK's own scripted model
    (no network, no key; `sqlite_demo/sdk_agent.py`). It answers a first question, then
    starts a second, slow tool call, and we `SIGKILL` it there. This section needs the SDK
    (`pip install -e ".[agents]"`; the contributor's install has it).
    """),
    code(r"""
    import importlib.util
    import subprocess
    import sys

    HAVE_SDK = importlib.util.find_spec("agents") is not None
    SDK_DB = Path(workdir.name) / "sdk.db"
    AGENT = [sys.executable, "-m", "sqlite_demo.sdk_agent", "--db", str(SDK_DB)]
    QUESTIONS = ["how many orders do I have?", "how many of them have shipped?"]

    if HAVE_SDK:
        agent_a = subprocess.Popen(
            [*AGENT, "--session", "orders", "--slow-warehouse", "ask", *QUESTIONS],
            stdout=subprocess.PIPE,
            text=True,
        )
        for line in agent_a.stdout:
            print("A:", line, end="")
            if "query_shipped_count" in line:  # the tool started (said in the kit's language)
                agent_a.kill()  # SIGKILL, inside the tool
                break
        print("A's exit status:", agent_a.wait())
    else:
        print('This section needs the OpenAI Agents SDK: pip install -e ".[agents]"')
    """),
    md(r"""
    What did the log keep? The first turn whole, and the second question. The call A was
    running never reached the log (the runner saves a turn's items once its tools are done),
    so nothing in it waits for an output that will never come:
    """),
    code(r"""
    if HAVE_SDK:
        with SqliteEventStore(SDK_DB) as sdk_store:
            for event in sdk_store.get_events_for_session("orders"):
                print(event.event_id, event.type, event.payload.get("content", ""))
    """),
    md(r"""
    Process B opens the same file and runs a turn on what the log holds, adding nothing. The
    scripted model reads the history it is sent, as a real one would: the last thing in it is
    a question, so it calls the warehouse and answers.
    """),
    code(r"""
    if HAVE_SDK:
        agent_b = subprocess.run(
            [*AGENT, "--session", "orders", "resume"], capture_output=True, text=True, check=True
        )
        print(agent_b.stdout)
    """),
    md(r"""
    Read it back through the SDK's protocol, here in the notebook, then take the last item
    out with `pop_item`. The log keeps the answer and says it was taken out (`item_removed`,
    pointing at it); every reader leaves it out.
    """),
    code(r"""
    if HAVE_SDK:
        from sqlite_demo import EventLogSession

        sdk_session = EventLogSession("orders", SDK_DB)
        print("items:", len(await sdk_session.get_items()))
        taken = await sdk_session.pop_item()
        print("popped:", taken["content"][0]["text"])
        print("items now:", len(await sdk_session.get_items()))
        with SqliteEventStore(SDK_DB) as sdk_store:
            events = sdk_store.get_events_for_session("orders")
            last_two = [(event.type, event.payload.get("supersedes")) for event in events[-2:]]
            print("the log's last two:", last_two)
            print("replayed:", [message["role"] for message in sdk_store.replay_session("orders")])
        sdk_session.close()
    """),
    md(r"""
    ## Summary

    * After `SIGKILL`, every committed event was still there: in the `-wal` file, which
      SQLite folded back in when the next process opened the database.
    * Recovery needed no code of ours beyond what every request does anyway: read the
      session's events and replay them.
    * Sessions stay apart because every row is tagged and every read filters on the tag.
    * A client resumes with "events after N", which global, never-reused ids make exact.
    * Two writers on one file never both answer: each append states the version it was
      decided on, and the loser reads again and decides again.
    * An agent framework can keep its memory here too: the SDK agent killed inside a tool
      lost nothing, and a new process finished the conversation from the log.

    Notebook 6 breaks each of these guarantees on purpose, one pitfall at a time.
    """),
    code(r"""
    workdir.cleanup()
    """),
]
