"""The naive design the PostgreSQL store must not have: ids from an IDENTITY column.

A sequence hands out numbers at INSERT, not at COMMIT, and two transactions commit in
whatever order they finish. So id 2 can become visible while id 1 is still uncommitted,
and a reader that has moved its cursor past 2 never asks for 1 again: it skips an event
for ever. Kept as a fixture so that ``test_reader_never_skips.py`` shows its test catches
exactly this, and is not passing for want of trying.
"""

from __future__ import annotations

from collections.abc import Callable

import psycopg

#: Called inside each append's transaction after its row is written, before COMMIT: the
#: test holds one writer there.
BeforeCommit = Callable[[], None]


class NaiveIdentityLog:
    """An events table whose ids come from ``GENERATED ALWAYS AS IDENTITY``, nothing else."""

    def __init__(self, url: str, before_commit: BeforeCommit) -> None:
        self.url = url
        self.before_commit = before_commit
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(
                "CREATE TABLE IF NOT EXISTS naive_events ("
                " event_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                " session_id TEXT NOT NULL, content TEXT NOT NULL)"
            )

    def append(self, session_id: str, content: str) -> int:
        with psycopg.connect(self.url) as connection:  # one transaction, committed on exit
            row = connection.execute(
                "INSERT INTO naive_events (session_id, content) VALUES (%s, %s) RETURNING event_id",
                (session_id, content),
            ).fetchone()
            assert row is not None
            self.before_commit()
            return int(row[0])

    def read_after(self, session_id: str, after_event_id: int) -> list[int]:
        with psycopg.connect(self.url, autocommit=True) as connection:
            rows = connection.execute(
                "SELECT event_id FROM naive_events WHERE session_id = %s AND event_id > %s"
                " ORDER BY event_id",
                (session_id, after_event_id),
            ).fetchall()
        return [int(event_id) for (event_id,) in rows]
