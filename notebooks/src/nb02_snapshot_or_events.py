"""Notebook 2: the snapshot model and the event-sourcing model, side by side, with costs."""

# Markdown tables cannot wrap, so long lines are allowed in this module's strings.
# ruff: noqa: E501

from __future__ import annotations

from cells import code, md

FILENAME = "02_snapshot_or_event_sourcing.ipynb"

CELLS = [
    md(r"""
    # 2. Snapshot or event sourcing?

    To make a conversation outlive the process, it has to be stored somewhere. There are two
    classic ways to store anything that changes over time:

    * **A snapshot** stores *what it looks like now*. One row per conversation holds the whole
      message list; every new message overwrites the row with the longer list. Reading the
      current state is one lookup.
    * **Event sourcing** stores *how it got here*. Every thing that happens (the user wrote,
      the model called a tool, the tool answered, the model replied) is an **event** that is
      appended to a log and never changed or deleted afterwards. The current state is not
      stored at all: it is computed by **replaying** the session's events in order, folding
      them into a message list.

    A bank account is the usual picture: the statement lists transactions, and the balance is
    what you get by adding them up. Nobody edits last Tuesday's transaction.

    This notebook runs both models on the same conversation, rebuilds the state at every
    earlier event, and measures what each one costs.
    """),
    code(r'''
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

    workdir = tempfile.TemporaryDirectory()  # every database of this notebook lives here
    WORKDIR = Path(workdir.name)

    # Charts labelled in Chinese (this notebook's Chinese edition) need a font with Chinese
    # characters: the first of these that is installed (Debian: `apt install fonts-noto-cjk`).
    CJK_FONTS = ("Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "PingFang SC",
                 "Microsoft YaHei", "SimHei")  # fmt: skip
    installed = {font.name for font in font_manager.fontManager.ttflist}
    plt.rcParams["font.family"] = ["DejaVu Sans", *(f for f in CJK_FONTS if f in installed)]
    warnings.filterwarnings("ignore", message="Glyph .* missing from font")  # boxes, no noise


    def json_size(value) -> int:
        """Bytes of compact UTF-8 JSON: how much a store writes to keep ``value``."""
        return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
    '''),
    md(r"""
    The conversation: a user greets an order desk and asks how many orders they have. The
    model answers the question by calling a tool, `query_order_count`, which returns 42. That
    is six events:
    """),
    code(r"""
    CONVERSATION = [
        ("user_message", {"content": "hello"}),
        ("assistant_message", {"content": "Hello! I can look up how many orders you have."}),
        ("user_message", {"content": "how many orders do I have?"}),
        ("tool_call", {"call_id": "call_1", "name": "query_order_count", "arguments": "{}"}),
        ("tool_result", {"call_id": "call_1", "content": "42"}),
        ("assistant_message", {"content": "You have 42 orders."}),
    ]
    """),
    md(r"""
    ## Model 1: a snapshot per session

    One table, one row per session. Saving means "insert the row, or overwrite it if it is
    there" (SQLite's upsert); loading is a primary-key lookup.
    """),
    code(r'''
    class SnapshotStore:
        """Keeps each session's whole message list in one row, overwritten on every change."""

        def __init__(self, path: Path) -> None:
            self.db = sqlite3.connect(path, isolation_level=None)
            # The event store's journal settings (notebook 4), so the comparison is fair.
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS snapshots"
                " (session_id TEXT PRIMARY KEY, messages TEXT NOT NULL)"
            )

        def save(self, session_id: str, messages: list[dict]) -> int:
            """Overwrite the session's row with ``messages``; return the bytes written."""
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
    md(r"""
    ## Model 2: an append-only event log

    For the event side we use the kit's real store, `SqliteEventStore` (notebook 4 opens it
    up). `append_event` adds one row to the `events` table and gives back the stored event
    with its `event_id`, a number from one sequence shared by all sessions. `replay_session`
    reads the session's events in order and folds them into chat messages with
    `eventlog.replay_events`.

    We give the session a readable id, `order-desk`, so the output below is the same on every
    run (the store would otherwise pick a random one).
    """),
    code(r'''
    snapshots = SnapshotStore(WORKDIR / "snapshots.db")
    events = SqliteEventStore(WORKDIR / "events.db")


    def record_in_both(session_id: str, steps) -> list[dict]:
        """Apply each (type, payload) step to both models; return what each one wrote."""
        events.create_session(session_id, session_id=session_id)
        conversation = EMPTY_CONVERSATION  # the snapshot side's state, kept by the "agent"
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


    print(f"{'event':>5}  {'type':<17} {'snapshot writes':>15} {'event log writes':>16}")
    for row in record_in_both("order-desk", CONVERSATION):
        print(
            f"{row['event_id']:>5}  {row['type']:<17} {row['snapshot_bytes']:>11} bytes"
            f" {row['event_bytes']:>12} bytes"
        )
    '''),
    md(r"""
    Each turn the snapshot writes the **whole conversation again**; the event log writes only
    **what just happened**. Both still hold the same current state:
    """),
    code(r"""
    from_snapshot = snapshots.load("order-desk")
    from_events = events.replay_session("order-desk")
    print("same current state:", from_snapshot == from_events)
    for message in from_events:
        print(f"  {message['role']:<9} {message.get('content') or message.get('tool_calls')}")
    """),
    md(r"""
    Notice the fourth message: the `tool_call` event became an assistant message with
    `content: None` and a `tool_calls` list, and the `tool_result` became a `tool` message.
    That is exactly the shape of the OpenAI Chat Completions API, so a replayed session can be
    sent straight back to a model.

    ## Rebuilding the state at any earlier event

    Because the log keeps every step, the state *after event k* is just the replay of the
    first k events. Replay is a fold, so a prefix of the log gives the state at that point:
    """),
    code(r"""
    history = events.get_events_for_session("order-desk")
    for count in range(len(history) + 1):
        roles = [message["role"] for message in replay_events(history[:count])]
        print(f"after event {count}: {roles}")
    """),
    md(r"""
    The state after event 4 is the most interesting one: the model has asked for a tool and
    the result has not arrived. That is exactly where a crash in the middle of a turn would
    leave a conversation, and with the log we can look at it, replay it, or finish it:
    """),
    code(r"""
    replay_events(history[:4])[-1]
    """),
    md(r"""
    The snapshot table has no such history. It has one row, holding the latest state; every
    earlier state was overwritten:
    """),
    code(r"""
    rows = snapshots.db.execute("SELECT session_id, length(messages) FROM snapshots").fetchall()
    print(f"snapshot rows: {rows}  (one row; the five earlier versions are gone)")
    """),
    md(r"""
    The same goes for corrections. If a reply turns out to be wrong, the snapshot way is to
    edit it in place, and afterwards nobody can tell what the user actually saw. The event way
    is to append a new event that corrects it (it may carry a `supersedes` key naming the
    event it replaces): the mistake and its fix are both on record.

    ## The two models compared

    | | snapshot | event log |
    |---|---|---|
    | what is stored | the latest state only | every event that produced it |
    | a write | overwrite the row (`UPDATE`) | add a row (`INSERT`); rows are never changed or deleted |
    | reading the current state | one lookup | replay the session's events (or read a projection kept in step, notebook 4) |
    | history, audit, debugging | lost, unless you also design a change table | built in: every step is there, in order |
    | the state at an earlier point | gone | replay up to that event |
    | a crash in the middle of a write | every write rewrites the only copy of the whole state; outside a transactional store a torn write damages it | a write adds one small row; with SQLite's write-ahead log every committed append survives, a torn one is ignored |
    | resuming a client after a disconnect | no reference point | "send me everything after event 4" |

    For an agent the log wins on the three things that matter most: you can **debug** a
    conversation by replaying it step by step, appends are **crash-safe**, and the global
    event ids make **resuming** a disconnected client a one-line query.

    It is not free, though. Reading the current state means replaying, and the log only ever
    grows. Let us measure both costs.

    ## Measured costs

    A long session repeats one turn (user question, tool call, tool result, reply), four events
    a turn. We record 400 events in both models and add up what each wrote:
    """),
    code(r'''
    def long_session(event_count: int):
        """The (type, payload) steps of a session of ``event_count`` events, four per turn."""
        steps = []
        for turn in range(1, event_count // 4 + 1):
            call = {"call_id": f"call_{turn}", "name": "query_order_count", "arguments": "{}"}
            steps += [
                ("user_message", {"content": f"how many orders do I have now? (turn {turn})"}),
                ("tool_call", call),
                ("tool_result", {"call_id": f"call_{turn}", "content": "42"}),
                ("assistant_message", {"content": "You have 42 orders."}),
            ]
        return steps


    long_run = record_in_both("long-400", long_session(400))
    snapshot_total = sum(row["snapshot_bytes"] for row in long_run)
    event_total = sum(row["event_bytes"] for row in long_run)
    print(f"bytes written over 400 events: snapshot {snapshot_total:,}, event log {event_total:,}")
    print(f"the snapshot model wrote {snapshot_total / event_total:.0f} times as much")
    '''),
    md(r"""
    Now the read side. For sessions of growing length we time how long it takes to get the
    current state: loading a snapshot (one row, one `json.loads`) against replaying the events
    (read the session's rows, decode each payload, fold), and, for later, reading the store's
    `messages` projection. Timings depend on the machine; the shape of the curves is what
    matters.
    """),
    code(r'''
    def best_ms(read, repeats: int = 15) -> float:
        """The fastest of a few runs of ``read()``, in ms: the least disturbed by other work."""
        return min(timeit.repeat(read, number=1, repeat=repeats)) * 1000


    def store_in_both(session_id: str, steps) -> None:
        """Append every step to the event log, then save the final state as one snapshot."""
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

    print("events   snapshot   replay   projection  (ms)")
    for row in zip(lengths, snapshot_ms, replay_ms, projection_ms, strict=True):
        print("{:>6} {:>10.2f} {:>8.2f} {:>12.2f}".format(*row))
    '''),
    code(r"""
    figure, (writes, reads) = plt.subplots(1, 2, figsize=(11, 4))

    position = range(1, len(long_run) + 1)
    for key, label in [
        ("snapshot_bytes", "snapshot: rewrites everything"),
        ("event_bytes", "event log: appends one event"),
    ]:
        megabytes = [total / 1e6 for total in accumulate(row[key] for row in long_run)]
        writes.plot(position, megabytes, label=label)
    writes.set(xlabel="events in the session", ylabel="total MB written", title="Write cost")
    writes.legend()

    reads.plot(lengths, snapshot_ms, marker="o", label="load the snapshot")
    reads.plot(lengths, replay_ms, marker="o", label="replay the events")
    reads.plot(lengths, projection_ms, marker="o", label="read the messages projection")
    reads.set(xlabel="events in the session", ylabel="ms to get the current state")
    reads.set_title("Read cost")
    reads.legend()
    figure.tight_layout()
    plt.show()
    """),
    md(r"""
    Reading the two pictures:

    * **Writes.** The snapshot model's total grows with the *square* of the session length,
      because turn *n* rewrites all *n* earlier messages. The event log's grows in a straight
      line: each event is written once.
    * **Reads.** All three grow with the session (a longer conversation is more to read),
      but replay grows many times faster than loading a snapshot: it decodes one JSON
      payload per event and folds the events one by one. At the lengths of real conversations it is still
      a few milliseconds, but it is the price of the model, paid on every read. The third
      line is the way out, shown in notebook 4: a **projection**, a `messages` table the
      store keeps in step with the events, read with one plain query.

    The log also keeps everything it was ever given, so its file only grows:
    """),
    code(r"""
    def database_bytes(connection: sqlite3.Connection) -> int:
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        return pages * connection.execute("PRAGMA page_size").fetchone()[0]


    events_db = sqlite3.connect(events.path)
    print(f"snapshot database: {database_bytes(snapshots.db):>9,} bytes: the latest states")
    print(f"event database:    {database_bytes(events_db):>9,} bytes: every event, plus indexes")
    events_db.close()
    """),
    md(r"""
    ## Where this kit stands

    The conversation's **source of truth is the event log**: append-only, replayable,
    crash-safe. The read cost is paid down with **projections**: tables derived from the events
    (a `messages` table for showing the chat) that are written in the *same transaction* as
    each event, so they can never drift from the log. Notebook 4 shows both; notebook 6 shows
    what happens when the projection is written outside that transaction.

    For very long histories, large systems add periodic snapshots *on top of* the log and
    replay only the events after the latest snapshot. The log stays the truth; a snapshot is
    just a cache of a replay.
    """),
    code(r"""
    events.close()
    snapshots.db.close()
    workdir.cleanup()
    """),
]
