"""What the event log says when it refuses, as message ids and their English sentences.

A refusal keeps its sentence as data (a :class:`Sentence`: an id from :data:`EN` and the
fields that fill it in) until someone shows it. ``str(error)`` is the English, for logs and
tracebacks; a front end that speaks the reader's language says it in theirs instead, from
the same id (``sqlite_demo.texts`` holds the Chinese of every sentence here as
``store.<id>``, and ``sqlite_demo.texts.refusal`` turns an error into what to say). The
database's triggers say a stable English sentence of their own, which the store maps to
one of these ids (see ``sqlite_demo/store/sqlite/faults.py``).
"""

# ruff: noqa: E501 - one sentence a line, as every catalog of the kit keeps them

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

#: id -> the English sentence, a ``str.format`` template of the message's fields.
EN: Mapping[str, str] = MappingProxyType({
    # the payload and session-id rules (eventlog.rules)
    "text.not_a_non_empty_string": "{what} must be a non-empty string, got {value!r}",
    "text.not_a_string": "{what} must be a string, got {value!r}",
    "text.not_unicode": "{what} is not valid Unicode text: {problem}",
    "text.session_id_not_unicode": "a session id must be valid Unicode text",
    "event_type.unknown": "unknown event type {event_type!r}: expected one of {known}",
    "payload.not_a_mapping": "payload must be a mapping, got {got}",
    "payload.missing_key": "a {event_type} payload needs the key {key!r}",
    "payload.not_a_string": "{event_type} payload[{key!r}] must be a string, got {got}",
    "payload.empty": "{event_type} payload[{key!r}] must not be empty",
    "payload.not_an_object": "{event_type} payload[{key!r}] must be a JSON object, got {got}",
    "payload.not_an_event_id": "{event_type} payload[{key!r}] must be an event id (an int from 0 to 2**63 - 1), got {value!r}",
    "payload.key_not_a_string": "{where} keys must be strings, got {key!r}",
    "payload.tuple": "{where} is a tuple: JSON has arrays, pass a list",
    "payload.not_json": "payload must be JSON-compatible: {error}",
    "call_id.used": "call_id {call_id!r} is already used in this session",
    "call_id.never_called": "tool_result for call_id {call_id!r}, which this session never called",
    "call_id.answered": "call_id {call_id!r} already has a result in this session",
    # corrections (eventlog.history, sqlite_demo.store.corrections)
    "correction.clears_too_little": "session_cleared through event {through} comes after event {newest}, which it would leave in force",
    "correction.nothing_left": "item_removed supersedes event {supersedes}, but no item is left",
    "correction.not_the_newest": "item_removed supersedes event {supersedes}, but the newest item in force is event {newest}: only the newest item can be taken out",
    "correction.none_in_force": "item_removed may take out only the newest item in force of session {session_id!r}, and it has none, not event {supersedes}",
    "correction.another_in_force": "item_removed may take out only the newest item in force of session {session_id!r}, and that is event {newest}, not event {supersedes}",
    # the store (sqlite_demo.store)
    "session.exists": "a session with id {session_id!r} already exists",
    "session.unknown": "no session with id {session_id!r}",
    "session.unknown_create_first": "no session with id {session_id!r}; create it first",
    "session.moved_on": "session {session_id!r} is at event {actual}, not {expected}: it changed since it was read; read it again and decide again",
    "idempotency.key_reused": "idempotency key already used in session {session_id!r} for event {event_id} ({event_type}) with other details; use a new key",
    "store.closed": "the store for {where} is closed",
    "backup.no_source": "no database file at {path} to back up",
    "backup.no_folder": "no folder {path} to write the backup into",
    "backup.exists": "{path} already exists; choose a new file name",
    # what the database itself refused (its triggers say these in English: see schema.sql)
    "database.refused": "the database refused the write: {error}",
    "database.no_update": "the database refused the write: events are append-only: append a correcting event instead of updating",
    "database.no_delete": "the database refused the write: events are append-only: events are never deleted",
})  # fmt: skip

#: What the triggers of each schema.sql say when they refuse a write (a stable English key,
#: kept as it is so that a shell on the database reads it too), and the sentence each means.
TRIGGERS: Mapping[str, str] = MappingProxyType({
    "events are append-only: append a correcting event instead of updating": "database.no_update",
    "events are append-only: events are never deleted": "database.no_delete",
})  # fmt: skip


@dataclass(frozen=True)
class Sentence:
    """A sentence kept as its id in :data:`EN` and its fields, until it is shown."""

    id: str
    fields: Mapping[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        return EN[self.id].format(**self.fields)


def sentence(sentence_id: str, /, **fields: object) -> Sentence:
    """The sentence ``sentence_id`` of :data:`EN`, filled in with ``fields``."""
    if sentence_id not in EN:
        raise KeyError(f"no sentence {sentence_id!r} in eventlog.messages.EN")
    return Sentence(sentence_id, fields)
