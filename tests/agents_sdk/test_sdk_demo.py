"""``python -m sqlite_demo sdk``: the SDK agent SIGKILLed mid-run and resumed by a new process.

The demo makes its own checks (see :mod:`sqlite_demo.sdk_demo`); this test runs it as a user
would and then reads the file it left, as the SDK's session and as the store, so a demo whose
checks said yes to a wrong log would still fail here.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from sqlite_demo import EventLogSession, SqliteEventStore
from sqlite_demo.sdk_demo import SESSION, questions, run_sdk_demo


def test_the_sdk_demo_kills_the_agent_mid_run_and_a_new_process_finishes_the_conversation(
    tmp_path: Path,
) -> None:
    db = tmp_path / "agent.db"
    done = subprocess.run(
        [sys.executable, "-m", "sqlite_demo", "sdk", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "all 10 checks passed" in done.stdout
    assert "its exit status: -9" in done.stdout
    items = asyncio.run(EventLogSession(SESSION, db).get_items())
    asked = [item.get("content") for item in items if item.get("role") == "user"]
    assert asked == list(questions())
    assert [item["type"] for item in items if "call_id" in item] == [
        "function_call", "function_call_output"] * 2  # fmt: skip
    assert items[-1]["content"][0]["text"] == "7 of them have shipped."
    with SqliteEventStore(db) as store:
        assert [message["role"] for message in store.replay_session(SESSION)] == [
            "user", "assistant", "tool", "assistant"] * 2  # fmt: skip


def test_the_sdk_demo_refuses_a_file_that_exists_and_leaves_it_as_it_was(tmp_path: Path) -> None:
    db = tmp_path / "someones.db"
    db.write_bytes(b"not ours")
    assert run_sdk_demo(db) == 2
    assert db.read_bytes() == b"not ours"
