"""Code run in child processes by the multi-process tests (spawned, so it must be importable)."""

from __future__ import annotations

from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier

from sqlite_demo import SqliteEventStore

#: What a worker reports: its session id, the event ids it got, and the error if it failed.
WorkerReport = tuple[str, list[int], str | None]


def append_many(
    path: str, session_id: str, count: int, start: Barrier, reports: Queue[WorkerReport]
) -> None:
    """Open the store, wait for every worker to be ready, then append ``count`` events."""
    try:
        with SqliteEventStore(path) as store:
            start.wait(timeout=60)
            ids = [
                store.append_event(session_id, "user_message", {"content": f"#{n}"}).event_id
                for n in range(count)
            ]
        reports.put((session_id, ids, None))
    except BaseException as error:  # report it: a traceback in a child is easy to miss
        reports.put((session_id, [], repr(error)))
