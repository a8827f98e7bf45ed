"""Why the SQLite store refused an operation. Each one is a ``ValueError``, like the core's errors.

The store raises the core's own errors (:mod:`eventlog.errors`) for bad input, so a caller
catches the same exceptions whichever store it talks to; the classes here cover what only a
database can get wrong. SQLite's own exceptions are translated into these at the boundary
(:func:`sqlite_demo.connection.translate_sqlite_errors`), so no ``sqlite3`` type leaks out.
"""

from __future__ import annotations

from eventlog import EventLogError


class StoreError(EventLogError):
    """The SQLite store refused or could not complete an operation; nothing was written."""


class UnknownSessionError(StoreError):
    """No session with this id exists; create it with ``create_session`` first."""


class SessionExistsError(StoreError):
    """A session with this explicit id already exists."""


class IdempotencyConflictError(StoreError):
    """An idempotency key was reused in its session for a different event type or payload."""


class ConstraintViolationError(StoreError):
    """The database itself refused a write: a trigger, CHECK, UNIQUE or FOREIGN KEY constraint."""


class StorageError(StoreError):
    """SQLite could not do the work: locked past ``busy_timeout``, an I/O error, a closed store."""


class ProjectionOutOfStepError(StoreError):
    """A projection lacks a row its events imply; ``rebuild_projections`` restores it."""
