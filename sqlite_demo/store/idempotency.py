"""An idempotency key met again: the same request is answered, another one is refused.

Both backends find the event a key was first used for inside the append's own transaction,
while appends take turns; what the retry then gets is decided here, once for both.
"""

from __future__ import annotations

import json

from eventlog import IdempotencyConflictError, ReadOnlyPayload, StoredEvent
from eventlog.messages import sentence


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
            sentence("idempotency.key_reused", session_id=original.session_id,
                     event_id=original.event_id, event_type=original.type)
        )  # fmt: skip
    return original


def _canonical(payload: ReadOnlyPayload) -> str:
    return json.dumps(json.loads(payload.json_text), sort_keys=True, ensure_ascii=False)
