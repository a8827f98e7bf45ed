"""Where our read time goes: the same session read through each of the store's read paths.

``replay_session`` (the recovery path, and what a model is sent) reads the session's rows,
decodes every payload in one ``json.loads`` call and folds them into chat messages;
``get_events_for_session`` builds events whose payloads decode on first read;
``get_messages`` reads the ``messages`` projection, the path for showing a chat. Timing each
on the same session separates reading, decoding and folding.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.measure import median_time
from benchmarks.workload import chat_messages
from eventlog import replay_events
from sqlite_demo.store.sqlite.store import SqliteEventStore


@dataclass(frozen=True, slots=True)
class ReadPath:
    """One way of reading the whole session, and its median time in seconds."""

    call: str
    returns: str
    seconds: float


def run_read_paths(messages: int, repeats: int) -> list[ReadPath]:
    """Append ``messages`` chat messages to a fresh store, then time each read path."""
    with (
        tempfile.TemporaryDirectory(prefix="bench-reads-") as name,
        SqliteEventStore(Path(name) / "reads.db") as store,
    ):
        session_id = _filled_session(store, messages)
        return [
            ReadPath(call, returns, median_time(read, repeats))
            for call, returns, read in _read_calls(store, session_id)
        ]


def _filled_session(store: SqliteEventStore, messages: int) -> str:
    session_id = store.create_session("read paths").id
    for message in chat_messages(messages):
        store.append_event(session_id, message.event_type, {"content": message.content})
    return session_id


def _read_calls(
    store: SqliteEventStore, session_id: str
) -> list[tuple[str, str, Callable[[], object]]]:
    events = store.get_events_for_session(session_id)
    for event in events:
        dict(event.payload)  # decoded now, so the fold below is timed alone
    return [
        ("get_messages", "projection rows", lambda: store.get_messages(session_id)),
        ("get_events_for_session", "events", lambda: store.get_events_for_session(session_id)),
        ("replay_events (the fold alone)", "chat messages", lambda: replay_events(events)),
        ("replay_session", "chat messages", lambda: store.replay_session(session_id)),
    ]
