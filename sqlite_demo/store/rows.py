"""Building a read's values from its rows: events, items in force, projection rows.

What keeps this fast on a long session:

* **one decode for many payloads**: the payloads of a read are decoded with one
  ``json.loads`` of them all, joined as one JSON array, where one call per payload costs
  several times more (the per-call overhead of the decoder dominates a short text);
* **values made in C**: an :class:`ItemEvent` by ``tuple.__new__``, a
  :class:`~eventlog.StoredEvent` by setting its slots, rather than by their Python
  constructors;
* **the collector paused** while a read builds its values (:func:`collector_paused`).
"""

from __future__ import annotations

import gc
import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import chain, repeat
from typing import Any, Final, NamedTuple

from eventlog import ReadOnlyPayload, StoredEvent
from eventlog.events import Event
from sqlite_demo.store.records import MessageRow, ToolCallRow


class ItemEvent(NamedTuple):
    """An item event in force, as :meth:`EventStore.get_items_in_force` hands it out.

    ``payload`` is decoded for this read alone: a fresh dict, the caller's to keep or change.
    """

    event_id: int
    type: str
    payload: dict[str, Any]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause CPython's cyclic garbage collector while a read builds its values; then resume it.

    The collector runs after every 700 container objects allocated and not yet freed, and
    every so often, once enough objects have outlived two of its rounds, it traverses every
    object of the process. A read of 10,000 events builds 10,000 or 20,000 such objects, all
    of them alive until the read returns: in a process as large as an agent's (the SDK alone
    is some 150,000 objects), that is a full traversal every second read, costing several
    times the read itself, to find no garbage at all. Paused, the collector runs later,
    when the caller is done with the values and most of them are freed by their reference
    counts. Nothing here creates a reference cycle, so nothing waits for the collector.

    A collector already paused by the caller is left paused.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


#: Payloads joined into one text per ``json.loads`` call (see :func:`decode_all`).
_DECODED_AT_ONCE: Final = 512


def decode_all(texts: Sequence[str]) -> list[dict[str, Any]]:
    """Decode JSON object texts, a few hundred per ``json.loads`` call; return fresh dicts.

    One call for many texts spares the decoder's per-call overhead, which dominates a short
    text; a few hundred at a time keeps each joined text small enough for the allocator to
    reuse its memory, where one text of a whole long session (megabytes) is mapped afresh
    by the OS, page by page, on every read.
    """
    decoded: list[dict[str, Any]] = []
    for start in range(0, len(texts), _DECODED_AT_ONCE):
        decoded += json.loads("[" + ",".join(texts[start : start + _DECODED_AT_ONCE]) + "]")
    return decoded


class Fact(NamedTuple):
    """What the replay folds of an item event: its type and its payload, decoded."""

    type: str
    payload: dict[str, Any]


def facts(rows: Sequence[tuple[str, str]]) -> Iterator[Fact]:
    """Build :class:`Fact` values from ``(type, payload JSON)`` rows, as they are folded.

    A few hundred rows at a time (:func:`decode_all`'s batch), each decoded only when the
    fold reaches it: the payloads of a batch are freed once it is folded, and the next batch
    reuses their memory, where decoding them all first kept a whole session's payloads alive
    at once (10,000 dicts), which a fold then reads back from well outside the CPU's caches.
    """
    batches = (
        rows[start : start + _DECODED_AT_ONCE] for start in range(0, len(rows), _DECODED_AT_ONCE)
    )
    return chain.from_iterable(map(_facts_of, batches))


def _facts_of(rows: Sequence[tuple[str, str]]) -> Iterator[Fact]:
    types, texts = zip(*rows, strict=True)
    payloads = json.loads("[" + ",".join(texts) + "]")
    return map(_new_tuple, repeat(Fact), zip(types, payloads, strict=True))


def item_events(rows: Sequence[tuple[int, str, str]]) -> list[ItemEvent]:
    """Build :class:`ItemEvent` values from ``(event_id, type, payload JSON)`` rows.

    Each value is made by ``tuple.__new__``, in C, rather than by the named tuple's own
    ``__new__``, a Python function: the same value, at a fraction of the cost per row.
    """
    if not rows:
        return []
    ids, types, texts = zip(*rows, strict=True)
    fields = zip(ids, types, decode_all(texts), strict=True)
    return list(map(_new_tuple, repeat(ItemEvent), fields))


_new_tuple = tuple.__new__
#: The slots of a :class:`StoredEvent`, set directly (see :func:`stored_events`).
_new = object.__new__
_set_id = Event.__dict__["event_id"].__set__
_set_session = Event.__dict__["session_id"].__set__
_set_type = Event.__dict__["type"].__set__
_set_payload = Event.__dict__["payload"].__set__
_set_created = StoredEvent.__dict__["created_at"].__set__


def stored_event(
    event_id: int, session_id: str, event_type: str, payload: ReadOnlyPayload, created_at: int
) -> StoredEvent:
    """Return ``StoredEvent(event_id, session_id, event_type, payload, created_at)``, made by
    setting its five slots directly: half the cost of the frozen dataclass's ``__init__``
    (five ``object.__setattr__`` calls through Python), which on a read of 10,000 events is
    most of the Python time. ``tests/store/test_reads.py`` checks that it equals, field for
    field, the event the constructor makes, so a new field cannot be forgotten here."""
    event = _new(StoredEvent)
    _set_id(event, event_id)
    _set_session(event, session_id)
    _set_type(event, event_type)
    _set_payload(event, payload)
    _set_created(event, created_at)
    return event


def stored_events(session_id: str, rows: Iterable[tuple[int, str, str, int]]) -> list[StoredEvent]:
    """Build the session's events from ``(event_id, type, payload JSON, created_at)`` rows,
    as :func:`stored_event` does (inlined: this loop is the read-all path); the payloads
    decode lazily, on first read."""
    events = []
    for event_id, event_type, payload_json, created_at in rows:
        event = _new(StoredEvent)
        _set_id(event, event_id)
        _set_session(event, session_id)
        _set_type(event, event_type)
        _set_payload(event, ReadOnlyPayload(payload_json))
        _set_created(event, created_at)
        events.append(event)
    return events


def event_from_row(row: tuple[int, str, str, str, int]) -> StoredEvent:
    """Build a :class:`StoredEvent` from ``(event_id, session_id, type, payload JSON,
    created_at)``, the columns of :data:`ALL_EVENTS` (the payload decodes lazily)."""
    event_id, session_id, event_type, payload_json, created_at = row
    return StoredEvent(event_id, session_id, event_type, ReadOnlyPayload(payload_json), created_at)


def message_rows(rows: Iterable[tuple[int, str, str]]) -> list[MessageRow]:
    """Build :class:`MessageRow` values from the rows of :data:`MESSAGES`."""
    return [MessageRow(*row) for row in rows]


def tool_call_rows(rows: Iterable[tuple[int, str, str, str, str | None]]) -> list[ToolCallRow]:
    """Build :class:`ToolCallRow` values from the rows of :data:`TOOL_CALLS`."""
    return [ToolCallRow(*row) for row in rows]
