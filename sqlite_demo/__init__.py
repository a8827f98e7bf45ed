"""The durable side of the kit: an event store with two backends, its HTTP agent service,
the live page, and a demo.

==================  ===========================================================
``store/``          the store contract (:class:`EventStore`) and its backends:
                    SQLite, the chapter's (``store/sqlite/``), and PostgreSQL
                    (``store/postgres/``); :func:`open_store` picks one
``service/``        the agent loop and the HTTP API, over the contract
``live/``           the live page and the event stream it reads
``cli``, ``server``, ``demo``, ``crash_loop``
                    the entry points: ``python -m sqlite_demo [demo|serve|backup]``
==================  ===========================================================

The errors are :mod:`eventlog`'s, re-exported here so that a caller needs one import.
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
from sqlite_demo.store import (
    EventStore,
    MessageRow,
    Session,
    SqliteEventStore,
    ToolCallRow,
    open_store,
)
from sqlite_demo.store.sqlite.backup import backup_database

__all__ = [
    "ConstraintViolationError",
    "EventStore",
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
    "open_store",
]
