"""The SQLite side of the kit: a durable event store, its HTTP agent service, and a demo.

The store (:class:`SqliteEventStore`) is the adapter: the shared rules and replay of
:mod:`eventlog`, kept in a SQLite file with projections, idempotency keys and WAL. Its errors
are :mod:`eventlog`'s, re-exported here so that a caller needs one import.
:class:`EventLogSession` is the store as an OpenAI Agents SDK session (the SDK is optional:
it is imported only when a session is made).
"""

from __future__ import annotations

from eventlog import (
    ConstraintViolationError,
    IdempotencyConflictError,
    ProjectionOutOfStepError,
    SessionExistsError,
    StorageError,
    StoredEvent,
    StoreError,
    UnknownSessionError,
    VersionConflictError,
)
from sqlite_demo.agents_session import EventLogSession
from sqlite_demo.backup import backup_database
from sqlite_demo.store import MessageRow, Session, SqliteEventStore, ToolCallRow

__all__ = [
    "ConstraintViolationError",
    "EventLogSession",
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
    "VersionConflictError",
    "backup_database",
]
