"""Bringing a database of schema 1 up to schema 2, in place, in one transaction.

Schema 2 adds the events an agent framework needs (``agent_item`` and the two corrections,
see :data:`eventlog.STORE_EVENT_TYPES`) and the ``supersedes`` column with its two indexes.
SQLite cannot change a CHECK constraint in place, so the events table is rebuilt, the way
SQLite's documentation prescribes (https://sqlite.org/lang_altertable.html#otheralter): the
old table is renamed, ``schema.sql`` creates the new one with its indexes and triggers, every
row is copied with its event id, and the old table is dropped. Nothing else changes: the
sessions and the projections stay as they are, and so does every event id.
"""

from __future__ import annotations

import sqlite3
from typing import Final

from eventlog import StoreError

#: The events table's own indexes and triggers: renaming the table would carry them along
#: under their names, and ``schema.sql`` (all IF NOT EXISTS) would then not create them anew.
_OLD_EVENTS_OBJECTS: Final = (
    "DROP TRIGGER events_refuse_update",
    "DROP TRIGGER events_refuse_delete",
    "DROP INDEX idx_events_session",
    "DROP INDEX idx_events_idempotency_key",
    "DROP INDEX idx_events_call_id",
)
_COLUMNS: Final = "event_id, session_id, type, payload, created_at, idempotency_key, call_id"


def migrate_1_to_2(connection: sqlite3.Connection, schema: str) -> None:
    """Rebuild the events table of a schema-1 database as ``schema`` (schema 2) defines it.

    Another process may have migrated the file since the caller looked: the version is read
    again inside the transaction, and a file already at 2 is left alone.

    Raises:
        sqlite3.Error: SQLite refused a step; the transaction is rolled back, nothing changed.
        StoreError: the copied rows break a foreign key (the file was edited by hand).
    """
    # The rebuild drops the table the projections' foreign keys point at; with the check on,
    # that DROP would be refused. The pragma cannot change inside a transaction.
    connection.execute("PRAGMA foreign_keys = OFF")
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            if connection.execute("PRAGMA user_version").fetchone()[0] == 1:
                _rebuild_events(connection, schema)
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
    finally:
        connection.execute("PRAGMA foreign_keys = ON")


def _rebuild_events(connection: sqlite3.Connection, schema: str) -> None:
    for statement in _OLD_EVENTS_OBJECTS:
        connection.execute(statement)
    # Legacy renaming leaves the projections' REFERENCES events (...) as they are written, so
    # they name the new table once it exists, instead of following the old one to its drop.
    connection.execute("PRAGMA legacy_alter_table = ON")
    try:
        connection.execute("ALTER TABLE events RENAME TO events_v1")
    finally:
        connection.execute("PRAGMA legacy_alter_table = OFF")
    # executescript() would COMMIT first: run the schema's statements one by one instead.
    for statement in schema_statements(schema):
        connection.execute(statement)
    connection.execute(f"INSERT INTO events ({_COLUMNS}) SELECT {_COLUMNS} FROM events_v1")
    connection.execute("DROP TABLE events_v1")
    broken = connection.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise StoreError(f"the database breaks its foreign keys, so it was not migrated: {broken}")
    connection.execute("PRAGMA user_version = 2")


def schema_statements(script: str) -> list[str]:
    """Split a script into its statements (a trigger's body holds semicolons of its own)."""
    statements, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending)
            pending = ""
    return [statement for statement in statements if statement.strip()]
