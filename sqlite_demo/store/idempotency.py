"""An idempotency key met again: the same request is answered, another one is refused.

Both backends find the event a key was first used for inside the append's own transaction,
while appends take turns; what the retry then gets is decided here, once for both.
"""

from __future__ import annotations

import json

from eventlog import IdempotencyConflictError, ReadOnlyPayload, StoredEvent


def same_request_or_conflict(
    original: StoredEvent, event_type: str, payload: ReadOnlyPayload
) -> StoredEvent:
    """Return ``original`` if the retry asks for the same event; refuse it otherwise.

    Raises:
        IdempotencyConflictError: the key was used for another type or payload.
    """
    # Canonical JSON rather than ==, which would call 1, 1.0 and True the same payload.
    if original.type != event_type or _canonical(original.payload) != _canonical(payload):
        raise IdempotencyConflictError(
            f"idempotency key already used in session {original.session_id!r} for event"
            f" {original.event_id} ({original.type}) with other details; use a new key"
        )
    return original


def _canonical(payload: ReadOnlyPayload) -> str:
    return json.dumps(json.loads(payload.json_text), sort_keys=True, ensure_ascii=False)
