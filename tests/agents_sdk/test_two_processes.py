"""Two processes adding items to one session at once: nothing is lost, nothing is interleaved
inside a batch, and neither ever answers "database is locked".

Each writer is a real interpreter with its own ``EventLogSession`` on the same SQLite file.
Both open their session, say they are ready, and start together on one line from this test,
so their ``add_items`` calls overlap for the whole run.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sqlite_demo import EventLogSession, SqliteEventStore

#: Batches per writer: each is a turn of four items, one transaction.
BATCHES = 40

WRITER = """
import asyncio, sys
from sqlite_demo import EventLogSession

db, name, batches = sys.argv[1], sys.argv[2], int(sys.argv[3])

def turn(number):
    call_id = f"{name}-{number}"
    return [
        {"role": "user", "content": f"{name} asks {number}"},
        {"type": "function_call", "call_id": call_id, "name": "count", "arguments": "{}"},
        {"type": "function_call_output", "call_id": call_id, "output": str(number)},
        {"role": "assistant", "content": f"{name} hears {number}"},
    ]

async def main():
    session = EventLogSession("shared", db)
    print("ready", flush=True)
    sys.stdin.readline()
    for number in range(batches):
        await session.add_items(turn(number))
    session.close()

asyncio.run(main())
"""


def turn(name: str, number: int) -> list[dict[str, Any]]:
    """The four items writer ``name`` adds as its batch ``number`` (as ``WRITER`` builds them)."""
    call_id = f"{name}-{number}"
    return [
        {"role": "user", "content": f"{name} asks {number}"},
        {"type": "function_call", "call_id": call_id, "name": "count", "arguments": "{}"},
        {"type": "function_call_output", "call_id": call_id, "output": str(number)},
        {"role": "assistant", "content": f"{name} hears {number}"},
    ]


def run_writers_together(db: Path, names: list[str]) -> list[subprocess.CompletedProcess[str]]:
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db), name, str(BATCHES)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in names
    ]
    for writer in writers:
        assert writer.stdout is not None
        if writer.stdout.readline() != "ready\n":  # it stopped before opening: say why
            for other in writers:
                other.kill()
            pytest.fail(f"a writer did not open its session:\n{writer.communicate()[1]}")
    for writer in writers:  # both are waiting on this line: they start together
        assert writer.stdin is not None
        writer.stdin.write("go\n")
        writer.stdin.flush()
    finished = []
    for writer, name in zip(writers, names, strict=True):
        stdout, stderr = writer.communicate(timeout=300)
        finished.append(subprocess.CompletedProcess([name], writer.returncode, stdout, stderr))
    return finished


@pytest.fixture(scope="module")
def shared_db(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, list[subprocess.CompletedProcess[str]]]:
    """A file two writers filled at once, and how each of them finished."""
    db = tmp_path_factory.mktemp("two-writers") / "shared.db"
    return db, run_writers_together(db, ["a", "b"])


def test_two_processes_adding_to_one_session_lose_nothing_and_never_see_a_locked_database(
    shared_db: tuple[Path, list[subprocess.CompletedProcess[str]]],
) -> None:
    db, finished = shared_db
    for writer in finished:
        assert "locked" not in writer.stderr.lower(), writer.stderr
        assert writer.returncode == 0, writer.stderr
    items = asyncio.run(EventLogSession("shared", db).get_items())
    batches = [items[start : start + 4] for start in range(0, len(items), 4)]
    # Every batch is whole and contiguous (one transaction each), and each writer's batches
    # keep their order; which writer went first at each turn is up to the lock.
    for name in ("a", "b"):
        own = [batch for batch in batches if batch[0]["content"].startswith(f"{name} ")]
        assert own == [turn(name, number) for number in range(BATCHES)]
    assert len(batches) == 2 * BATCHES


def test_what_two_processes_wrote_fills_the_projections_as_one_writer_would(
    shared_db: tuple[Path, list[subprocess.CompletedProcess[str]]],
) -> None:
    db, _ = shared_db
    with SqliteEventStore(db) as store:
        calls = store.get_tool_calls("shared")
        assert sorted((row.call_id, row.result) for row in calls) == sorted(
            (f"{name}-{number}", str(number)) for name in "ab" for number in range(BATCHES)
        )
        assert len(store.get_messages("shared")) == 2 * 2 * BATCHES
        assert store.get_events_for_session("shared")[-1].event_id == 2 * 4 * BATCHES
