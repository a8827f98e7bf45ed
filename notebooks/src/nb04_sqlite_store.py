"""Notebook 4: the kit's SQLite store: schema, pragmas, one append, two read paths, the index."""

# Markdown tables cannot wrap, so long lines are allowed in this module's strings.
# ruff: noqa: E501

from __future__ import annotations

from cells import code, md

FILENAME = "04_sqlite_store.ipynb"

CELLS = [
    md(r"""
    # 4. The SQLite store

    Notebook 3 treated the event log as a pure value in memory. This notebook opens up the
    kit's durable version, `sqlite_demo.SqliteEventStore`: the same rules and the same replay
    (both come from the shared `eventlog` package), kept in one SQLite file.

    We look at five things in turn: the schema, the three pragmas every connection sets, one
    append inside its transaction, the two ways to read a session back, and the index that
    keeps those reads fast.
    """),
    code(r"""
    import re
    import sqlite3
    import tempfile
    import textwrap
    from pathlib import Path

    from eventlog import validate_append
    from sqlite_demo import SqliteEventStore
    from sqlite_demo.service.agent import Agent
    from sqlite_demo.store.sqlite.connection import open_connection, write_transaction
    from sqlite_demo.store.sqlite.writes import append_in_transaction

    workdir = tempfile.TemporaryDirectory()
    DB_PATH = Path(workdir.name) / "agent.db"
    store = SqliteEventStore(DB_PATH)
    """),
    md(r"""
    ## The schema: one source of truth, two projections

    Four tables. `events` is the **only source of truth**: one row per thing that happened,
    appended and never changed. `messages` and `tool_calls` are **projections**: tables
    derived from the events to make common reads fast. They could be thrown away and rebuilt
    from `events` at any time (`store.rebuild_projections()` does exactly that).

    ```mermaid
    erDiagram
        accTitle: The four tables: sessions, the events log, and the messages and tool_calls projections
        sessions ||--o{ events : "has"
        sessions ||--o{ messages : "has"
        sessions ||--o{ tool_calls : "has"
        events ||--o| messages : "user/assistant message projected to"
        events ||--o| tool_calls : "tool_call projected to"
        sessions {
            TEXT id PK "sess_ + 32 hex digits"
            TEXT title
            INTEGER created_at "unix ms"
        }
        events {
            INTEGER event_id PK "AUTOINCREMENT: one global sequence"
            TEXT session_id FK "which conversation"
            TEXT type "user_message, assistant_message, tool_call, tool_result"
            TEXT payload "JSON object"
            INTEGER created_at "unix ms"
            TEXT idempotency_key "optional; unique per session"
            TEXT call_id "tool events only; indexed per session"
        }
        messages {
            INTEGER event_id PK, FK "one row per event at most"
            TEXT session_id FK
            TEXT role "user or assistant"
            TEXT content
            INTEGER created_at
        }
        tool_calls {
            INTEGER event_id PK, FK "one row per event at most"
            TEXT session_id FK
            TEXT call_id "UNIQUE per session"
            TEXT name
            TEXT arguments "JSON text, as the model wrote it"
            TEXT result "NULL until the tool_result event"
            INTEGER created_at
        }
    ```

    Three decisions worth a second look:

    * **`event_id INTEGER PRIMARY KEY AUTOINCREMENT`.** The id *is* the row id, so it grows
      with every insert; `AUTOINCREMENT` adds the promise that an id is never handed out
      twice. The order of the log is the order of the ids, and "resume after event 4" relies
      on it.
    * **`session_id` is a foreign key on every row.** Sessions are kept apart by the data
      itself, not by one database per session or a dictionary in memory: every read filters
      on `session_id` first.
    * **`event_id` is the primary key of each projection.** One event produces at most one
      projection row, and the database refuses a second one. (The chapter gives each projection
      its own `AUTOINCREMENT` id plus a `UNIQUE` event id: a second B-tree and a second counter
      to update at every append, for an id nobody reads.)

    The store also installs two triggers that refuse any `UPDATE` or `DELETE` on `events`
    (notebook 6 tries both). Everything the file holds:
    """),
    code(r"""
    catalog = sqlite3.connect(DB_PATH)
    for kind, name in catalog.execute(
        "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name"
    ):
        print(f"{kind:<8} {name}")
    catalog.close()
    """),
    md(r"""
    ## Three pragmas, set on every connection

    SQLite keeps most settings per *connection*, not per file. A connection that forgets one
    silently runs without it, so the store sets them every time it opens the file:

    | pragma | value | why |
    |---|---|---|
    | `journal_mode` | `WAL` | a commit is appended to a separate `-wal` file. After a crash SQLite keeps every committed transaction in it and ignores a half-written one; readers also keep reading while a writer writes. |
    | `synchronous` | `NORMAL` (1) | in WAL mode this survives any crash of the *process*, `SIGKILL` included, without an `fsync` per commit. Only an OS crash or power cut can lose the last commits; `FULL` (2) covers those too, at one `fsync` per append. |
    | `foreign_keys` | `ON` (1) | off by default! Without it `REFERENCES sessions (id)` is decoration and an event for a session that does not exist gets in. |

    (`busy_timeout` makes a second writer wait its turn instead of failing at once.) The
    store reports what SQLite says is in effect:
    """),
    code(r"""
    store.pragmas()
    """),
    md(r"""
    Compare a plain connection opened on the same file without any setup. WAL mode is stored
    in the file, so it sticks; the other two fall back to SQLite's defaults:
    """),
    code(r"""
    plain = sqlite3.connect(DB_PATH)
    for name in ("journal_mode", "synchronous", "foreign_keys"):
        print(f"{name:<13} {plain.execute(f'PRAGMA {name}').fetchone()[0]}")
    plain.close()
    """),
    md(r"""
    `foreign_keys = 0` on a connection that writes events is a real bug; notebook 6 shows the
    orphan event it lets in.

    ## A conversation, written before every reply

    The kit's agent (`sqlite_demo.service.agent.Agent`) runs the usual loop (ask the model, run the
    tools it asks for, repeat until it replies) against a scripted model, and commits every
    step to the store *before* the next one. The user sees the reply only after the
    `assistant_message` holding it is committed.
    """),
    code(r"""
    store.create_session("Order desk", session_id="order-desk")
    agent = Agent(store)
    for text in ["hello", "how many orders do I have?"]:
        turn = agent.handle_message("order-desk", text)
        print(f"user:  {text}\nagent: {turn.reply}")
        print(f"       (events {[event.event_id for event in turn.events]} committed first)\n")
    """),
    code(r"""
    for event in store.get_events_for_session("order-desk"):
        print(f"{event.event_id}  {event.type:<18} {dict(event.payload)}")
    """),
    md(r"""
    ## One append, inside its transaction

    What does one `append_event` actually send to SQLite? The store does three things:

    1. checks the payload with the shared rules (`eventlog.validate_append`), before touching
       the database, so bad input never gets as far as a transaction;
    2. opens a write transaction with `BEGIN IMMEDIATE`, which takes the write lock *before*
       reading anything, so what it checks (does the session exist? is this call id unused?)
       stays true until it commits;
    3. inside that transaction, inserts the event **and** its projection row, then commits.
       Both or neither: a projection can never run ahead of or behind the log.

    To watch it, we run those same steps on a second connection opened the way the store
    opens its own, with a trace callback that prints every statement SQLite executes. A new
    session for the docs assistant gets a user message:
    """),
    code(r'''
    store.create_session("Docs assistant", session_id="docs-assistant")


    def print_statement(sql: str) -> None:
        """Print one traced statement, wrapped; timestamps masked so every run reads alike."""
        text = re.sub(r"\b1\d{12}\b", "<now>", " ".join(sql.split()))
        lines = textwrap.wrap(text, width=90, break_on_hyphens=False)
        print("  " + "\n      ".join(lines))


    traced = open_connection(DB_PATH)  # the store's own pragmas, on a connection we can watch
    traced.set_trace_callback(print_statement)

    payload = validate_append("docs-assistant", "user_message", {"content": "summarise the doc"})
    with write_transaction(traced):
        event = append_in_transaction(traced, "docs-assistant", "user_message", payload, None)
    print(f"\nappended event {event.event_id}")
    '''),
    md(r"""
    Read the trace from top to bottom: `BEGIN IMMEDIATE`; the `INSERT INTO events`, whose new
    `event_id` the connection reports as its `lastrowid`; the `messages` projection row,
    inserted with that id; `COMMIT`. There is no separate "does the session exist?" query: the
    foreign key on `session_id` refuses an unknown session inside the insert itself. Every
    value is passed as a `?` parameter (the trace shows them filled in; `<now>` stands for the
    timestamp). These are the steps of every append. The store sends a message appended alone
    with neither rule nor key as one statement instead, `INSERT INTO message_appends`: a TEMP
    view of its own connection, whose trigger runs the same two INSERTs, and which SQLite
    commits as a transaction of its own, for a third of the statements.

    A `tool_result` is the one event whose projection *updates* a row: it fills in the
    `result` of its `tool_calls` row. The projection may change; the events never do. Tool
    events also carry a rule about the session's past (a call id is used once, a result
    answers an open call), so before inserting one the store reads, inside the same
    transaction, the session's last event id with whether the session exists, and the events
    that already carry this call id: one seek in `idx_events_call_id`, however long the
    session has grown.
    """),
    code(r"""
    steps = [
        ("tool_call", {"call_id": "call_1", "name": "search_docs", "arguments": '{"q": "WAL"}'}),
        ("tool_result", {"call_id": "call_1", "content": "3 pages mention WAL"}),
    ]
    for event_type, details in steps:
        print(f"-- {event_type}")
        payload = validate_append("docs-assistant", event_type, details)
        with write_transaction(traced):
            append_in_transaction(traced, "docs-assistant", event_type, payload, None)
    traced.close()
    """),
    md(r"""
    ## Two read paths: projection and replay

    The two kinds of table serve two kinds of reader:

    * **The projection** answers "what does the chat window show?" with one indexed query on
      `messages`, no JSON decoding, no folding. `get_messages` returns only user and assistant
      messages; tool calls are in `get_tool_calls`, with their results filled in.
    * **Replay** answers "what do we send the model?" It reads the session's events and folds
      them into OpenAI Chat Completions messages, tool calls included, exactly as notebook 2
      did. This is the path for recovering a conversation.
    """),
    code(r"""
    print("projection: get_messages")
    for row in store.get_messages("order-desk"):
        print(f"  event {row.event_id}  {row.role:<9} {row.content}")
    print("projection: get_tool_calls")
    for row in store.get_tool_calls("order-desk"):
        print(f"  event {row.event_id}  {row.call_id} {row.name}({row.arguments}) -> {row.result}")
    """),
    code(r"""
    store.replay_session("order-desk")
    """),
    md(r"""
    The message rows have event ids 1, 2, 3 and 6: events 4 and 5 are the tool call and its
    result, which live in the other projection. That is not a gap, it is what a projection is:
    a *slice* of the log shaped for one reader. If the projection and the log ever disagree,
    the write path did not put them in one transaction (notebook 6 shows how that happens).

    Because the projection is derived, it can be rebuilt from the events at any time, with the
    same result:
    """),
    code(r"""
    before = store.get_messages("order-desk"), store.get_tool_calls("order-desk")
    store.rebuild_projections()
    after = store.get_messages("order-desk"), store.get_tool_calls("order-desk")
    print("projections identical after a rebuild:", before == after)
    """),
    md(r"""
    ## The index at work: `EXPLAIN QUERY PLAN`

    Every read of a session is "this session's events, in id order, maybe after some id". The
    schema has one index for exactly that: `idx_events_session ON events (session_id,
    event_id)`. SQLite's `EXPLAIN QUERY PLAN` says how it will run a query without running it:
    """),
    code(r'''
    READ_SESSION = "SELECT event_id, type, payload FROM events WHERE session_id = ? ORDER BY event_id"
    READ_AFTER = (
        "SELECT event_id, type, payload FROM events"
        " WHERE session_id = ? AND event_id > ? ORDER BY event_id"
    )


    def show_plans(connection: sqlite3.Connection) -> None:
        """Print the steps SQLite's planner chooses for the two session reads."""
        for label, sql, parameters in [
            ("whole session      ", READ_SESSION, ("order-desk",)),
            ("events after id 4  ", READ_AFTER, ("order-desk", 4)),
        ]:
            rows = connection.execute(f"EXPLAIN QUERY PLAN {sql}", parameters).fetchall()
            print(label, " | ".join(row[-1] for row in rows))


    reader = sqlite3.connect(DB_PATH)
    show_plans(reader)
    '''),
    md(r"""
    `SEARCH ... USING INDEX idx_events_session`: SQLite seeks straight to this session's
    entries (and, for the resume read, straight past event 4) and reads them already in
    `event_id` order, so there is no sort step. The cost depends on the size of *this*
    session, not on the size of the whole log.

    Now the same two queries on a table with the same columns and no index:
    """),
    code(r"""
    bare = sqlite3.connect(":memory:")
    bare.execute("CREATE TABLE events (event_id INTEGER PRIMARY KEY, session_id, type, payload)")
    show_plans(bare)
    """),
    md(r"""
    `SCAN events` reads every event of every session to find one session's. For the resume
    read SQLite can at least start at id 5 (the id is the row id), but it still walks all
    later events of *all* sessions. Fine for a demo; slow for a service holding a million
    events.

    ## Summary

    * `events` is the ledger; `messages` and `tool_calls` are projections derived from it.
    * Every connection sets `journal_mode=WAL`, `synchronous=NORMAL`, `foreign_keys=ON`.
    * One append is one `BEGIN IMMEDIATE` transaction: the event and its projection row,
      both or neither.
    * Read the projection to show a chat; replay the events to talk to the model.
    * The `(session_id, event_id)` index makes "this session's events after N" a seek.

    Notebook 5 kills the server that writes to this kind of file, and brings the conversation
    back.
    """),
    code(r"""
    reader.close()
    bare.close()
    store.close()
    workdir.cleanup()
    """),
]
