"""Why an operation was refused. Every error is a ``ValueError``, as the exercise contract says.

The first four are the payload and call-id rules; the rest are what only a database can get
wrong. Each store translates its driver's exceptions (``sqlite3``'s, psycopg's) into these
at its boundary, so no driver type leaks out and a caller catches the same classes
everywhere, whichever database holds the log.
"""

from __future__ import annotations

from typing import Literal

from eventlog.messages import Sentence, sentence


class EventLogError(ValueError):
    """An operation on the event log was refused; nothing was written.

    Attributes:
        sentence: what it says, as data (:class:`~eventlog.messages.Sentence`), for a front
            end to say in its reader's language; None for a sentence said in English only.
            ``str(error)`` is always the English.
    """

    def __init__(self, text: str | Sentence = "") -> None:
        super().__init__(str(text))
        self.sentence = text if isinstance(text, Sentence) else None


class UnknownEventTypeError(EventLogError):
    """The event type is not one the log knows (see ``eventlog.STORE_EVENT_TYPES``)."""


class InvalidSessionIdError(EventLogError):
    """The session id is not a non-empty string of valid Unicode text."""


class InvalidPayloadError(EventLogError):
    """The payload is not a JSON object of the right shape: a key, type or value is wrong."""


class CallIdError(EventLogError):
    """A call id was reused, or a tool result names a call that is unknown or already answered."""


class CorrectionError(EventLogError):
    """A correction does not point at what it may supersede (see ``eventlog.CORRECTION_TYPES``)."""


class StoreError(EventLogError):
    """The store refused or could not complete an operation; nothing was written."""


class UnknownSessionError(StoreError):
    """No session with this id exists; create it with ``create_session`` first."""


class SessionExistsError(StoreError):
    """A session with this explicit id already exists."""


class IdempotencyConflictError(StoreError):
    """An idempotency key was reused in its session for a different event type or payload."""


class VersionConflictError(StoreError):
    """The session moved on since the writer read it: its last event id is not the expected one.

    Attributes:
        expected: the last event id the writer based its decision on (0: an empty session).
        actual: the session's last event id when the append was tried.
    """

    def __init__(self, session_id: str, expected: int, actual: int) -> None:
        super().__init__(
            sentence("session.moved_on", session_id=session_id, actual=actual, expected=expected)
        )
        self.expected = expected
        self.actual = actual


class ConstraintViolationError(StoreError):
    """The database itself refused a write: a trigger, CHECK, UNIQUE or FOREIGN KEY constraint."""


class ProjectionOutOfStepError(StoreError):
    """A projection lacks a row its events imply; ``rebuild_projections`` restores it."""


#: What went wrong with the storage, as a word a program can branch on. ``unavailable``: a
#: database server that cannot be reached now (stopped, restarting, out of connections).
StorageReason = Literal[
    "read_only",
    "disk_full",
    "io_error",
    "busy",
    "cannot_open",
    "corrupt",
    "unavailable",
    "closed",
    "other",
]


class StorageError(StoreError):
    """The database could not do the work: it is read-only, full, locked too long, out of
    reach, or broken.

    Attributes:
        reason: which of those it is.
        retryable: whether the same request can succeed later without any change on the
            caller's side (a lock that is released, space that is freed), as opposed to a
            fault an operator has to repair first (a read-only mount, a corrupt file).
    """

    def __init__(
        self, text: str | Sentence, *, reason: StorageReason = "other", retryable: bool = False
    ) -> None:
        super().__init__(text)
        self.reason: StorageReason = reason
        self.retryable = retryable
