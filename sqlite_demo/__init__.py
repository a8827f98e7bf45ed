"""The SQLite side of the kit: a durable event store, its HTTP agent service, and a demo.

The store (:class:`SqliteEventStore`) is the adapter: the same rules and replay as the pure
core in :mod:`solutions`, kept in a SQLite file with projections, idempotency keys and WAL.
"""

from __future__ import annotations

from sqlite_demo.backup import backup_database
from sqlite_demo.errors import (
    ConstraintViolationError,
    IdempotencyConflictError,
    ProjectionOutOfStepError,
    SessionExistsError,
    StorageError,
    StoreError,
    UnknownSessionError,
)
from sqlite_demo.store import MessageRow, Session, SqliteEventStore, StoredEvent, ToolCallRow

__all__ = [
    "ConstraintViolationError",
    "IdempotencyConflictError",
    "MessageRow",
    "ProjectionOutOfStepError",
    "Session",
    "SessionExistsError",
    "SqliteEventStore",
    "StorageError",
    "StoreError",
    "StoredEvent",
    "ToolCallRow",
    "UnknownSessionError",
    "backup_database",
]
