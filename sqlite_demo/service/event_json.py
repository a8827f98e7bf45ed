"""An event as the API shows it: as a dict, and as one line of JSON text built without decoding.

Both shapes are the same object, ``{"event_id", "session_id", "type", "payload",
"created_at"}``: :func:`event_json` for a response that holds a few events (a turn), and
:func:`event_json_text` for a read or a stream that may send thousands. The text form splices
the payload in as the store keeps it, already JSON, instead of decoding it only to encode it
again: a session's catch-up costs one string join per event rather than two JSON passes.
"""

from __future__ import annotations

import json
from typing import Any, Final

from eventlog import ReadOnlyPayload, StoredEvent

#: Compact, non-ASCII kept readable: the encoding of every payload the store writes.
_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def event_json(event: StoredEvent) -> dict[str, Any]:
    """Return an event as the API shows it, payload as a plain JSON object."""
    return {
        "event_id": event.event_id,
        "session_id": event.session_id,
        "type": event.type,
        "payload": dict(event.payload),
        "created_at": event.created_at,
    }


def event_json_text(event: StoredEvent) -> str:
    """Return :func:`event_json` of ``event`` as one line of JSON text.

    One line whatever the payload holds (JSON escapes every line break inside a string), so
    the text can be an SSE ``data`` field as it is.
    """
    payload = _payload_text(event.payload)
    return (
        f'{{"event_id":{int(event.event_id)},"session_id":{_ENCODER.encode(event.session_id)},'
        f'"type":{_ENCODER.encode(event.type)},"payload":{payload},'
        f'"created_at":{int(event.created_at)}}}'
    )


def events_json_text(events: list[StoredEvent]) -> str:
    """Return a JSON array of :func:`event_json_text` of each event."""
    return "[" + ",".join(map(event_json_text, events)) + "]"


def _payload_text(payload: Any) -> str:
    if isinstance(payload, ReadOnlyPayload):
        text = payload.json_text
        # The store writes compact JSON, which holds no raw line break; a row written by
        # hand might (whitespace between tokens), and would end an SSE frame early.
        if "\n" not in text and "\r" not in text:
            return text
    return _ENCODER.encode(dict(payload))
