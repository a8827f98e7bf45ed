"""What the store hands out: frozen values built from rows, never live views of the database.

Also the one place payloads cross between Python and JSON text, so every write and every
read agree on the encoding.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from eventlog import InvalidPayloadError, ReadOnlyPayload


@dataclass(frozen=True, slots=True)
class Session:
    """A conversation: its id, a human title, and when it was created (unix ms)."""

    id: str
    title: str
    created_at: int


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One event as stored: its place in the global sequence, its session, kind and details.

    It has the attributes of :class:`eventlog.Event` plus ``created_at`` (unix ms), so the
    shared fold and rules accept it as they accept the pure core's events.
    """

    event_id: int
    session_id: str
    type: str
    payload: ReadOnlyPayload
    created_at: int


@dataclass(frozen=True, slots=True)
class MessageRow:
    """A row of the ``messages`` projection: a user or assistant message, by its event id."""

    event_id: int
    role: str
    content: str


@dataclass(frozen=True, slots=True)
class ToolCallRow:
    """A row of the ``tool_calls`` projection; ``result`` is None until the tool answered."""

    event_id: int
    call_id: str
    name: str
    arguments: str
    result: str | None


def encode_payload(payload: Mapping[str, Any]) -> str:
    """Return the payload as compact JSON text, non-ASCII kept readable (not ``\\u`` escaped).

    Raises:
        InvalidPayloadError: the payload holds a string that is not valid UTF-8 (a lone
            surrogate), which SQLite cannot store as text.
    """
    text = json.dumps(dict(payload), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InvalidPayloadError(f"payload text must be valid UTF-8: {error}") from None
    return text


def canonical_payload(payload_json: str) -> str:
    """Return JSON text that is equal for equal payloads, whatever order their keys came in."""
    return json.dumps(json.loads(payload_json), sort_keys=True, ensure_ascii=False)


def session_from_row(row: sqlite3.Row | tuple[Any, ...]) -> Session:
    """Build a :class:`Session` from ``(id, title, created_at)``."""
    session_id, title, created_at = row
    return Session(id=session_id, title=title, created_at=created_at)


def event_from_row(row: sqlite3.Row | tuple[Any, ...]) -> StoredEvent:
    """Build a :class:`StoredEvent` from ``(event_id, session_id, type, payload, created_at)``."""
    event_id, session_id, event_type, payload_json, created_at = row
    # The dict was decoded a moment ago and nobody else holds it: no defensive copy needed.
    payload = ReadOnlyPayload.wrapping_fresh(json.loads(payload_json))
    return StoredEvent(event_id, session_id, event_type, payload, created_at)


#: The column list that :func:`event_from_row` expects, for every query that reads events.
EVENT_COLUMNS = "event_id, session_id, type, payload, created_at"
