"""The SDK's session tests that do not apply to ``EventLogSession``, each with why.

Two kinds, and only these two:

* :data:`SQLITE_SESSION_INTERNALS`: tests of how ``SQLiteSession`` itself is built (its
  per-thread connections, its process-wide file lock, its table names, the rows it reads
  back as corrupt, its ``close()``). Each names the internal it reaches for in ``touches``,
  and ``test_sdk_session_suite`` checks that the test's source really does: a test that
  exercises only the protocol cannot be listed here.
* :data:`DIVERGES_ON_PURPOSE`: a protocol test whose expectation this kit chooses against,
  with the reason. Each names the assertion it disagrees with, checked the same way.

Everything else in the four files must pass. The counts are pinned by the suite's test, so
the list cannot grow without a deliberate change there too.
"""

from __future__ import annotations

from typing import Final, NamedTuple

SESSION = "tests/memory/test_session.py::"
LIMIT = "tests/memory/test_session_limit.py::"


class NotApplicable(NamedTuple):
    """Why one SDK test is not run against the adapter.

    Attributes:
        touches: text the test's source holds: the internal or the assertion it is about.
        why: the reason, for a reader.
    """

    touches: str
    why: str


_CONNECTIONS = (
    "reads SQLiteSession's per-thread connection registry (session._connections); the "
    "adapter holds one connection per store, closed by close()"
)
_CORRUPT_ROW = (
    "writes a row of invalid JSON into SQLiteSession's own table through its private "
    "_locked_connection(); the event store refuses such a row (CHECK json_valid), so there "
    "is no corrupt item to skip"
)
_POST_COMMIT = (
    "swaps SQLiteSession's private _get_connection() for one that pauses after COMMIT; the "
    "adapter's own test cancels add_items, pop_item and clear_session mid-transaction instead "
    "(tests/agents_sdk/test_cancellation.py)"
)

SQLITE_SESSION_INTERNALS: Final[dict[str, NotApplicable]] = {
    f"{SESSION}test_sqlite_session_close_closes_worker_thread_connections": NotApplicable(
        "session._connections", _CONNECTIONS
    ),
    f"{SESSION}test_sqlite_session_reaps_connections_from_exited_worker_threads": NotApplicable(
        "session._connections", _CONNECTIONS
    ),
    f"{SESSION}test_sqlite_session_closes_retired_connections_before_the_next_allocation": (
        NotApplicable("session._connections", _CONNECTIONS)
    ),
    f"{SESSION}test_sqlite_session_keeps_connections_of_live_worker_threads": NotApplicable(
        "session._connections", _CONNECTIONS
    ),
    f"{SESSION}test_sqlite_session_closed_rejects_empty_add_items": NotApplicable(
        'match="SQLiteSession is closed"',
        "close() is SQLiteSession's own method, not the protocol's, and the test matches its "
        "message; the adapter's closed session refuses add_items([]) too, with its own "
        "message (tests/agents_sdk/test_event_log_session.py)",
    ),
    f"{SESSION}test_sqlite_session_pop_item_skips_corrupt_most_recent": NotApplicable(
        "session._locked_connection()", _CORRUPT_ROW
    ),
    f"{SESSION}test_sqlite_session_pop_item_returns_none_after_dropping_only_corrupt_rows": (
        NotApplicable("session._locked_connection()", _CORRUPT_ROW)
    ),
    f"{SESSION}test_sqlite_session_get_items_limit_skips_corrupt_newest_rows": NotApplicable(
        "session._locked_connection()", _CORRUPT_ROW
    ),
    f"{SESSION}test_sqlite_session_get_items_session_settings_limit_skips_corrupt_rows": (
        NotApplicable("session._locked_connection()", _CORRUPT_ROW)
    ),
    f"{SESSION}test_sqlite_session_file_lock_is_shared_across_instances": NotApplicable(
        "SQLiteSession._file_lock_counts",
        "counts SQLiteSession's process-wide lock per file; the adapter serialises nothing "
        "in-process: SQLite's own lock (BEGIN IMMEDIATE) orders writers of every process",
    ),
    f"{SESSION}test_sqlite_session_failed_add_items_releases_write_lock": NotApplicable(
        "FROM agent_sessions",
        "probes SQLiteSession's agent_sessions table; the adapter checks every item before its "
        "transaction begins (a non-JSON item raises ValueError, nothing written: "
        "tests/agents_sdk/test_event_log_session.py)",
    ),
    f"{SESSION}test_sqlite_session_failed_clear_session_rolls_back": NotApplicable(
        '_drop_sqlite_table(db_path, "agent_sessions")',
        "drops SQLiteSession's agent_sessions table to make its DELETE fail; the event log "
        "has no such table, and a clear appends one event in one transaction",
    ),
    f"{SESSION}test_sqlite_session_failed_pop_item_releases_write_lock": NotApplicable(
        '_drop_sqlite_table(db_path, "agent_messages")',
        "drops SQLiteSession's agent_messages table to make its DELETE fail; the event log "
        "has no such table, and a pop appends one event in one transaction",
    ),
    f"{SESSION}test_sqlite_session_rollback_failure_evicts_connection": NotApplicable(
        'monkeypatch.setattr(session, "_get_connection"',
        "swaps SQLiteSession's private _get_connection() for a connection whose rollback "
        "fails; the store rolls back inside its own transaction class",
    ),
    f"{SESSION}test_sqlite_session_close_retries_quarantined_connection": NotApplicable(
        "session._quarantined_connections",
        "reads SQLiteSession's registry of connections that failed to close",
    ),
    **{
        f"{SESSION}test_sqlite_session_post_commit_cancellation_propagates_after_known_outcome"
        f"[{operation}]": NotApplicable(
            'monkeypatch.setattr(session, "_get_connection"', _POST_COMMIT
        )
        for operation in ("add", "pop", "clear")
    },
}

DIVERGES_ON_PURPOSE: Final[dict[str, NotApplicable]] = {
    f"{LIMIT}test_session_limit_drops_unmatched_history_function_call_output[{method}]": (
        NotApplicable(
            "assert await session.get_items(limit=2) == history[-2:]",
            "asserts that get_items(limit=2) hands over a function_call_output without its "
            "function_call; this kit's limit never splits a call from its output (issue 24), "
            "so it returns the assistant message alone. The rest of the test, what the model "
            "is sent, holds: the runner drops that output too",
        )
    )
    for method in ("run", "run_sync", "run_streamed")
}

NOT_APPLICABLE: Final = {**SQLITE_SESSION_INTERNALS, **DIVERGES_ON_PURPOSE}
