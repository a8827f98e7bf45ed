"""The durable side of the kit: an event store with two backends, its HTTP agent service,
the live page, and a demo.

==================  ===========================================================
``store/``          the store contract (:class:`EventStore`) and its backends:
                    SQLite, the chapter's (``store/sqlite/``), and PostgreSQL
                    (``store/postgres/``); :func:`open_store` picks one
``service/``        the agent loop and the HTTP API, over the contract
``live/``           the live page and the event stream it reads
``app``             the two together: the app ``serve`` runs
``agents_session``  :class:`EventLogSession`, the store as an OpenAI Agents SDK
                    session (``agent_items``, ``call_pairing``: its mapping)
``cli``, ``server``, ``demo``, ``crash_loop``, ``sdk_demo``, ``sdk_agent``
                    the entry points:
                    ``python -m sqlite_demo [demo|sdk|serve|backup]``
==================  ===========================================================

The errors are :mod:`eventlog`'s, re-exported here so that a caller needs one import. The
OpenAI Agents SDK is optional: it is imported only when an :class:`EventLogSession` is made.
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
    "EventLogSession",
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
