"""Every connection the store opens runs with the pragmas the store depends on."""

from __future__ import annotations

from pathlib import Path

import pytest

from sqlite_demo import SqliteEventStore, StoreError
from sqlite_demo.store.sqlite.connection import open_connection

EXPECTED = {
    "journal_mode": "wal",
    "synchronous": 1,
    "foreign_keys": 1,
    "busy_timeout": 5000,
    "cache_size": -64 * 1024,  # KiB: a long session's read stays in SQLite's own cache
}


def test_a_new_store_runs_in_wal_mode_with_normal_sync_foreign_keys_a_busy_timeout_and_cache(
    sqlite_db: SqliteEventStore,
) -> None:
    assert sqlite_db.pragmas().items() >= EXPECTED.items()


def test_full_synchronous_and_a_custom_busy_timeout_are_applied(db_path: Path) -> None:
    with SqliteEventStore(db_path, synchronous="FULL", busy_timeout_ms=250) as store:
        assert store.pragmas().items() >= {"synchronous": 2, "busy_timeout": 250}.items()


def test_reopening_an_existing_file_sets_the_pragmas_again(db_path: Path) -> None:
    SqliteEventStore(db_path).close()
    with SqliteEventStore(db_path) as store:
        assert store.pragmas().items() >= EXPECTED.items()


def test_every_connection_opened_on_the_same_file_gets_the_pragmas(
    sqlite_db: SqliteEventStore,
) -> None:
    second = open_connection(sqlite_db.path, busy_timeout_ms=1234)
    try:
        read = {name: second.execute(f"PRAGMA {name}").fetchone()[0] for name in EXPECTED}
    finally:
        second.close()
    assert read == {**EXPECTED, "busy_timeout": 1234}


def test_an_in_memory_database_is_refused_because_it_cannot_use_wal() -> None:
    with pytest.raises(StoreError, match="WAL"):
        SqliteEventStore(":memory:")


@pytest.mark.parametrize(
    "settings",
    [{"synchronous": "OFF"}, {"busy_timeout_ms": -1}, {"wal_autocheckpoint_pages": 1.5}],
)
def test_a_bad_setting_is_refused_before_anything_is_opened(
    db_path: Path, settings: dict[str, object]
) -> None:
    with pytest.raises(StoreError):
        SqliteEventStore(db_path, **settings)  # type: ignore[arg-type]
    assert not db_path.exists()
