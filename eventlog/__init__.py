"""The rules of the SQLite side, in one place: events, payload and call-id rules, errors, the fold.

``sqlite_demo`` (the store, the agent, the HTTP service) imports everything it knows about
events from here, so no rule is written twice. The pure reference in ``solutions`` and the
learner's ``exercises`` are written on their own; the tests compare them with the store as
independent implementations of one contract (``eventlog.ports.EventStore``).
"""

from __future__ import annotations

from eventlog.errors import (
    CallIdError,
    ConstraintViolationError,
    CorrectionError,
    EventLogError,
    IdempotencyConflictError,
    InvalidPayloadError,
    InvalidSessionIdError,
    ProjectionOutOfStepError,
    SessionExistsError,
    StorageError,
    StorageReason,
    StoreError,
    UnknownEventTypeError,
    UnknownSessionError,
    VersionConflictError,
)
from eventlog.events import (
    CORRECTION_TYPES,
    EVENT_TYPES,
    ITEM_TYPES,
    KEPT_ITEM,
    STORE_EVENT_TYPES,
    Event,
    EventLike,
    ReadOnlyPayload,
    StoredEvent,
)
from eventlog.fold import (
    EMPTY_CONVERSATION,
    Conversation,
    ConversationView,
    Message,
    apply_event,
    messages_of,
)
from eventlog.history import (
    EMPTY_HISTORY,
    History,
    apply_to_history,
    fold_history,
    replay_events,
)
from eventlog.rules import (
    CallState,
    call_state_in,
    check_call_id,
    check_session_id,
    check_text,
    validate_append,
)

__all__ = [
    "CORRECTION_TYPES",
    "EMPTY_CONVERSATION",
    "EMPTY_HISTORY",
    "EVENT_TYPES",
    "ITEM_TYPES",
    "KEPT_ITEM",
    "STORE_EVENT_TYPES",
    "CallIdError",
    "CallState",
    "ConstraintViolationError",
    "Conversation",
    "ConversationView",
    "CorrectionError",
    "Event",
    "EventLike",
    "EventLogError",
    "History",
    "IdempotencyConflictError",
    "InvalidPayloadError",
    "InvalidSessionIdError",
    "Message",
    "ProjectionOutOfStepError",
    "ReadOnlyPayload",
    "SessionExistsError",
    "StorageError",
    "StorageReason",
    "StoreError",
    "StoredEvent",
    "UnknownEventTypeError",
    "UnknownSessionError",
    "VersionConflictError",
    "apply_event",
    "apply_to_history",
    "call_state_in",
    "check_call_id",
    "check_session_id",
    "check_text",
    "fold_history",
    "messages_of",
    "replay_events",
    "validate_append",
]
