"""A long session, built straight through the store: 20,000 events, about 4 MiB of log.

Built once per test run (a few seconds) and copied for each test that needs it. Each turn is
the order question's four events, with text of about a chat message's length, so the
session weighs what the issue's probe measured (4.3 MiB for 20,000 events over HTTP).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Final

from sqlite_demo.store.sqlite.store import SqliteEventStore

LONG_SESSION_EVENTS: Final = 20_000
LONG_SESSION_ID: Final = "sess_long"
_QUESTION = "how many orders do I have? I asked before, but the numbers change every hour. "
_ANSWER = "You have 42 orders. The last one was placed this morning and ships tomorrow. "


def build_long_session(db_path: Path, events: int = LONG_SESSION_EVENTS) -> None:
    """Write a session of ``events`` events (a multiple of 4) into a new file at ``db_path``."""
    with SqliteEventStore(db_path) as store:
        store.create_session("a long conversation", session_id=LONG_SESSION_ID)
        for turn in range(events // 4):
            call = {"call_id": f"call_{turn + 1}", "name": "query_order_count", "arguments": "{}"}
            store.append_event(LONG_SESSION_ID, "user_message", {"content": f"{turn} {_QUESTION}"})
            store.append_event(LONG_SESSION_ID, "tool_call", call)
            store.append_event(
                LONG_SESSION_ID, "tool_result", {"call_id": call["call_id"], "content": "42"}
            )
            store.append_event(LONG_SESSION_ID, "assistant_message", {"content": _ANSWER})


def copy_database(source: Path, destination: Path) -> Path:
    """Copy a cleanly closed database file (no -wal beside it) to ``destination``."""
    shutil.copyfile(source, destination)
    return destination
