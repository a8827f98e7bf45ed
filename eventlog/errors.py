"""Why an append was refused. Every error is a ``ValueError``, as the exercise contract says."""

from __future__ import annotations


class EventLogError(ValueError):
    """An operation on the event log was refused; nothing was written."""


class UnknownEventTypeError(EventLogError):
    """The event type is not one of the four the log knows."""


class InvalidSessionIdError(EventLogError):
    """The session id is not a non-empty string."""


class InvalidPayloadError(EventLogError):
    """The payload is not a mapping, lacks a required key, or holds a value of the wrong type."""


class CallIdError(EventLogError):
    """A call id was reused, or a tool result names a call that is unknown or already answered."""
