"""Notebook 6: the six classic mistakes of a persistence layer, each reproduced live."""

# Markdown tables cannot wrap, so long lines are allowed in this module's strings.
# ruff: noqa: E501

from __future__ import annotations

from cells import code, md

FILENAME = "06_pitfalls.ipynb"

CELLS = [
    md(r"""
    # 6. Six pitfalls, reproduced

    Each guarantee of the previous notebooks rests on one decision. Here we take each decision
    back, one at a time, and watch what breaks:

    1. replying before the write is committed;
    2. letting the event log be updated or deleted;
    3. writing a projection outside the event's transaction;
    4. forgetting `PRAGMA foreign_keys = ON`;
    5. misjudging what WAL promises (and copying the file without its `-wal`);
    6. treating the events table as a table of current state.

    Two of them need a real crash at a precise moment. We get it the way notebook 1 did: the
    code runs in a forked child process that tells us, through a pipe, when it has reached the
    interesting line, and we `SIGKILL` it right there. No timing, no luck: the child is
    always killed at the same step.
    """),
    code(r'''
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
    QUESTION, ANSWER = "how many orders do I have?", "You have 42 orders."


    def new_database(name: str, *, turns: int = 1) -> Path:
        """A database with one session, ``order-desk``, holding ``turns`` question-answer turns."""
        path = WORKDIR / f"{name}.db"
        with SqliteEventStore(path) as store:
            store.create_session("Order desk", session_id="order-desk")
            for _ in range(turns):
                store.append_event("order-desk", "user_message", {"content": QUESTION})
                store.append_event("order-desk", "assistant_message", {"content": ANSWER})
        return path


    def crash_when_told(step, *args) -> str:
        """Run ``step(pipe, *args)`` in a child; SIGKILL it the moment it reports; return the report.

        Open no connection to the same file in this process while the child runs: SQLite
        connections must not be shared across fork.
        """
        ours, theirs = FORK.Pipe()
        child = FORK.Process(target=step, args=(theirs, *args))
        child.start()
        report = ours.recv()  # the child has reached the line it reports...
        os.kill(child.pid, signal.SIGKILL)  # ...and dies before the next one
        child.join()
        return report


    def replayed_roles(path: Path) -> list[str]:
        """The roles of the order desk's replayed messages, read by a fresh store."""
        with SqliteEventStore(path) as store:
            return [message["role"] for message in store.replay_session("order-desk")]
    '''),
    md(r"""
    ## Pitfall 1: reply first, write later

    It is tempting to answer the user as soon as the model has spoken and save the turn
    afterwards ("in the background", "after the response is sent"). A crash in between leaves
    a user who *saw* an answer that the log never recorded. The next time the conversation
    is replayed, the turn is missing: the model sees a question without an answer, the user
    sees history that disagrees with their screen.
    """),
    code(r"""
    def reply_then_write(pipe, path: Path) -> None:
        store = SqliteEventStore(path)
        store.append_event("order-desk", "user_message", {"content": QUESTION})
        pipe.send(ANSWER)  # the user sees the reply...
        pipe.recv()  # ...and the write was going to happen next: the crash lands here
        store.append_event("order-desk", "assistant_message", {"content": ANSWER})


    def write_then_reply(pipe, path: Path) -> None:
        store = SqliteEventStore(path)
        store.append_event("order-desk", "user_message", {"content": QUESTION})
        store.append_event("order-desk", "assistant_message", {"content": ANSWER})
        pipe.send(ANSWER)  # the reply leaves only after its event is committed
        pipe.recv()


    for handler in (reply_then_write, write_then_reply):
        path = new_database(handler.__name__, turns=0)
        seen = crash_when_told(handler, path)
        print(f"{handler.__name__}: user saw {seen!r}, log replays {replayed_roles(path)}")
    """),
    md(r"""
    With the reply sent first, the log ends in an unanswered question: the turn the user saw
    is lost for good. Written first, the crash costs at most a reply that never arrived, and a
    client can simply ask again: the answer is in the log. **Write ahead, then reply.** (The
    kit's agent also finishes a turn a crash cut short: see `sqlite_demo/service/agent.py`.)

    ## Pitfall 2: an event log that can be edited

    Once "just fix the payload" is allowed, nobody can trust a replay again: was this what the
    model really said, or what someone made it say later? The kit's schema makes the rule
    physical with two triggers that refuse any `UPDATE` or `DELETE` on `events`, whoever
    sends it:
    """),
    code(r"""
    path = new_database("append_only")
    raw = sqlite3.connect(path, isolation_level=None)  # a plain connection, no store involved
    attempts = [
        "UPDATE events SET payload = json_object('content', 'You have 41 orders.') WHERE event_id = 2",
        "DELETE FROM events WHERE event_id = 2",
    ]
    for sql in attempts:
        try:
            raw.execute(sql)
        except sqlite3.IntegrityError as error:
            print(f"refused: {error}")
    raw.close()
    """),
    md(r"""
    The honest way to correct an answer is to **append** a correcting event. Extra payload
    keys are kept, so it can name the event it supersedes. The mistake and its correction both
    stay on record, in order:
    """),
    code(r"""
    with SqliteEventStore(path) as store:
        store.append_event(
            "order-desk",
            "assistant_message",
            {"content": "Correction: you have 41 orders.", "supersedes": 2},
        )
        for event in store.get_events_for_session("order-desk"):
            print(event.event_id, event.type, dict(event.payload))
    """),
    md(r"""
    ## Pitfall 3: a projection written outside the event's transaction

    The projection (`messages`) is derived from the events. Write the event in one
    transaction and the projection row in another, and a crash between the two leaves them
    disagreeing. Below, a naive writer commits the event, reports, and is killed before it
    writes the projection row.
    """),
    code(r'''
    def event_then_projection(pipe, path: Path) -> None:
        """Two separate commits: first the event, then (never, as it turns out) its projection."""
        db = open_connection(path)  # autocommit: each statement is its own transaction
        payload = json.dumps({"content": QUESTION})
        db.execute(
            "INSERT INTO events (session_id, type, payload, created_at) VALUES (?, ?, ?, 0)",
            ("order-desk", "user_message", payload),
        )
        pipe.send("event committed")
        pipe.recv()  # the crash lands between the two writes
        db.execute("INSERT INTO messages ...")  # never reached


    path = new_database("drift")
    print("child:", crash_when_told(event_then_projection, path))
    with SqliteEventStore(path) as store:
        print("replay (events):       ", [m["role"] for m in store.replay_session("order-desk")])
        print("projection (messages): ", [row.role for row in store.get_messages("order-desk")])
    '''),
    md(r"""
    The chat window (reading the projection) and the model (reading the replay) now see
    different conversations, and nothing will ever bring them back in step by itself. Since
    the projection is derived data, it can be thrown away and refolded from the events, which
    is exactly what `rebuild_projections()` does:
    """),
    code(r"""
    with SqliteEventStore(path) as store:
        store.rebuild_projections()
        print("projection after rebuild:", [row.role for row in store.get_messages("order-desk")])
    """),
    md(r"""
    The kit's store never needs that repair, because it writes the event and its projection
    row inside **one** transaction. A message appended alone is one statement, which SQLite
    runs as its own transaction: a view's trigger writes both rows, so there is no moment
    between them for a crash to land in. A turn appended as a batch is
    `BEGIN IMMEDIATE ... COMMIT` around steps run from Python, so to check, we kill a child at
    the worst moment that has: the first event row is inserted, its projection row is next,
    the transaction is still open. (The child swaps in a projection step that reports and
    waits; `writes.py` calls it through the `projections` module for exactly this kind of test.)
    """),
    code(r"""
    def store_append_killed_midway(pipe, path: Path) -> None:
        def report_and_wait(connection, event) -> None:
            pipe.send(f"event {event.event_id} inserted, projection next, not committed")
            pipe.recv()

        projections.write_projection = report_and_wait  # only in this child process
        store = SqliteEventStore(path)
        turn = [("user_message", {"content": QUESTION}), ("assistant_message", {"content": ANSWER})]
        store.append_events("order-desk", turn)


    path = new_database("one_transaction")
    print("child:", crash_when_told(store_append_killed_midway, path))
    with SqliteEventStore(path) as store:
        print("replay (events):       ", [m["role"] for m in store.replay_session("order-desk")])
        print("projection (messages): ", [row.role for row in store.get_messages("order-desk")])
    """),
    md(r"""
    Both or neither: the uncommitted event vanished together with its projection row, so the
    two read paths still agree. The caller never got a success for that append, so nothing
    was promised; retrying is safe (with an idempotency key, even if the first attempt *had*
    committed). **Derived data commits with its source.**

    ## Pitfall 4: foreign keys are off unless you turn them on

    `REFERENCES sessions (id)` in the schema does nothing on a connection that did not run
    `PRAGMA foreign_keys = ON`, and that is every connection by default: a maintenance script,
    a second service, a quick fix in the `sqlite3` shell. Such a connection can write an event
    for a session that does not exist:
    """),
    code(r"""
    path = new_database("orphans")
    loose = sqlite3.connect(path, isolation_level=None)
    print("foreign_keys on a plain connection:", loose.execute("PRAGMA foreign_keys").fetchone()[0])
    loose.execute(
        "INSERT INTO events (session_id, type, payload, created_at)"
        " VALUES ('no-such-session', 'user_message', '{\"content\": \"hi\"}', 0)"
    )
    print("orphans found by foreign_key_check:", loose.execute("PRAGMA foreign_key_check").fetchall())
    loose.close()

    with SqliteEventStore(path) as store:
        print("sessions with events:", store.list_active_session_ids())
        print("sessions that exist: ", [session.id for session in store.list_all_sessions()])
    """),
    md(r"""
    The orphan now shows up as an "active session" that was never created: the isolation the
    data model promised is broken. A connection opened the way the store opens its own (with
    `foreign_keys = ON`) gets the same statement refused by the database itself:
    """),
    code(r"""
    strict = open_connection(path)  # the store's pragmas, foreign_keys = ON among them
    try:
        strict.execute(
            "INSERT INTO events (session_id, type, payload, created_at)"
            " VALUES ('another-ghost', 'user_message', '{\"content\": \"hi\"}', 0)"
        )
    except sqlite3.IntegrityError as error:
        print(f"refused: {error}")
    strict.close()
    """),
    md(r"""
    ## Pitfall 5: what WAL does and does not promise

    **What it promises.** `journal_mode = WAL` with `synchronous = NORMAL` keeps every
    committed transaction through a crash of the *process* (notebook 5). It does not promise
    to survive an operating-system crash or a power cut: the last commits may still sit in
    the OS cache. If that matters, open the store with `synchronous="FULL"`, at the price of
    one `fsync` per append:
    """),
    code(r"""
    with SqliteEventStore(WORKDIR / "durable.db", synchronous="FULL") as store:
        print("synchronous =", store.pragmas()["synchronous"], "(2 = FULL)")
    """),
    md(r"""
    **Where the data is.** Committed transactions live in the `-wal` file until a checkpoint
    copies them into the main file. A backup that copies only `agent.db` (with `cp`,
    `shutil.copy`, a file sync tool) silently leaves them behind. Here the first conversation
    was checkpointed when its store closed; a second one is written while the store stays
    open, so it exists only in the `-wal` file when we copy:
    """),
    code(r"""
    path = new_database("live")  # the order desk's turn: checkpointed into the main file
    store = SqliteEventStore(path)
    store.create_session("Docs assistant", session_id="docs-assistant")
    store.append_event("docs-assistant", "user_message", {"content": "summarise the doc"})
    store.append_event("docs-assistant", "assistant_message", {"content": "Summary: ..."})

    shutil.copy(path, WORKDIR / "file_copy.db")  # the main file only
    backup_database(path, WORKDIR / "backup.db")  # SQLite's online backup API
    store.close()

    for name in ("file_copy.db", "backup.db"):
        copy = sqlite3.connect(WORKDIR / name)
        sessions = [row[0] for row in copy.execute("SELECT id FROM sessions ORDER BY rowid")]
        events = copy.execute("SELECT count(*) FROM events").fetchone()[0]
        print(f"{name:<13} sessions {sessions}, {events} events")
        copy.close()
    """),
    md(r"""
    The file copy opens without complaint and is simply missing the latest conversation.
    `backup_database` reads the database *through* SQLite, WAL included, as one consistent
    snapshot, and writes a single self-contained file. (From the shell: `python -m
    sqlite_demo backup SRC DEST`.)

    ## Pitfall 6: the events table as a table of state

    Habits from ORMs say: a message was read, so set `read = 1` on its row. On the events
    table that is an `UPDATE`, which pitfall 2's trigger refuses:
    """),
    code(r"""
    path = new_database("read_state", turns=2)
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("UPDATE events SET payload = json_set(payload, '$.read', 1) WHERE event_id = 2")
    except sqlite3.IntegrityError as error:
        print(f"refused: {error}")
    """),
    md(r"""
    The events table is a ledger: facts go in, nothing changes. State that *does* change
    ("read up to here", "pinned", "title edited") belongs in a projection or a small
    metadata table of its own, which may be updated freely. One row per session remembering
    the last event the user has read is enough to answer "how many unread?":
    """),
    code(r"""
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
    print("unread before:", db.execute(UNREAD, ORDER_DESK).fetchone()[0])
    db.execute(
        "INSERT INTO read_marks VALUES ('order-desk', 2)"
        " ON CONFLICT (session_id) DO UPDATE SET last_read_event_id = excluded.last_read_event_id"
    )
    print("unread after reading up to event 2:", db.execute(UNREAD, ORDER_DESK).fetchone()[0])
    db.close()
    """),
    md(r"""
    ## Summary

    | pitfall | what breaks | the rule |
    |---|---|---|
    | reply before write | a turn the user saw is missing from the log | commit the event, then reply |
    | editable events | no replay can be trusted | triggers refuse `UPDATE`/`DELETE`; correct by appending |
    | projection in its own transaction | chat window and model disagree after a crash | derived data commits with its source |
    | `foreign_keys` off | orphan events, broken isolation | set it on every connection |
    | WAL misjudged | power loss on `NORMAL`; backups missing recent commits | `FULL` if power loss matters; back up through SQLite |
    | events as state | updates refused, or worse, allowed | mutable state goes in a projection or metadata table |
    """),
    code(r"""
    workdir.cleanup()
    """),
]
