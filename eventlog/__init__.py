"""What every store in this kit shares: event types, payload rules, errors and the replay fold.

The pure reference (``solutions``) and the SQLite store (``sqlite_demo``) both import this
package, so the two can never drift apart: one set of rules, one fold. Learners' exercises
do not import it; writing these rules themselves is the point of the exercises.
"""

from __future__ import annotations

from eventlog.errors import (
    CallIdError,
    EventLogError,
    InvalidPayloadError,
    InvalidSessionIdError,
    UnknownEventTypeError,
)
from eventlog.events import EVENT_TYPES, Event, EventLike, ReadOnlyPayload
from eventlog.fold import EMPTY_CONVERSATION, apply_event, messages_of, replay_events
from eventlog.rules import CallState, call_state_in, check_call_id, validate_append

__all__ = [
    "EMPTY_CONVERSATION",
    "EVENT_TYPES",
    "CallIdError",
    "CallState",
    "Event",
    "EventLike",
    "EventLogError",
    "InvalidPayloadError",
    "InvalidSessionIdError",
    "ReadOnlyPayload",
    "UnknownEventTypeError",
    "apply_event",
    "call_state_in",
    "check_call_id",
    "messages_of",
    "replay_events",
    "validate_append",
]
