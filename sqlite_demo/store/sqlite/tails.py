"""The newest items in force of the sessions read lately, kept in memory and kept true.

``get_items(limit=k)`` is what an agent asks before every turn, and most of its cost was
SQL: a walk of the session's index and a text for each payload, for the same few rows each
time. So the store keeps, for each session it read lately, its newest items in force, as
the rows :func:`~sqlite_demo.store.reads.newest_items` returns (``(event_id, type, payload
JSON)``, oldest first), and answers from them while they are exactly what that walk would
return now:

* **The store's own appends** add their items to the tail, after COMMIT (a rolled-back
  append adds nothing). A correction drops the session's tail, and so does an append by
  idempotency key (a retry answers with the event appended the first time, which is not
  new); the next read walks the index again.
* **Every other connection's commit** (another process, another store on the same file) is
  seen by ``PRAGMA data_version``, asked at every read before a tail is used: its value
  changes when a connection other than this one has committed, and then every tail is
  dropped. It is asked before the walk that fills a tail, so a commit that lands between
  the two makes the next read drop the tail again, never keep a stale one.

A read hands out payloads of its own, as a walk does: a tail keeps each payload decoded too,
and one whose values are all JSON scalars (a chat message) is handed out as a copy of the
kept dict (``dict(kept)``, a fresh dict whose values cannot be changed in place), where
decoding its text again would cost several times more; a read that meets any other payload
decodes the texts of all it returns, as the walk does.

Nothing here writes, and nothing is kept of a session that is not read: a tail holds at most
:data:`KEPT` rows after a read (twice that between reads, while appends add to it), and the
store keeps the tails of at most :data:`SESSIONS` sessions, dropping the earliest read.
Every call is made behind the store's lock.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from itertools import repeat
from typing import Any, Final

from eventlog import CORRECTION_TYPES, StoredEvent
from eventlog.events import JSON_SCALARS
from sqlite_demo.store.reads import newest_items
from sqlite_demo.store.rows import ItemEvent, decode_all

#: The rows a tail keeps: the most a read on the event loop asks for
#: (:data:`sqlite_demo.agents_session.MAX_ITEMS_READ_ON_THE_LOOP`).
KEPT: Final = 100
#: The sessions whose tails are kept; the earliest read is dropped first.
SESSIONS: Final = 64
#: Changes when another connection has committed to the file (SQLite keeps it per connection).
DATA_VERSION: Final = "PRAGMA data_version"

#: An item in force as a tail keeps it: ``(event_id, type, payload JSON, flat)``, where
#: ``flat`` is the payload decoded if all its values are JSON scalars, else None. Never handed out.
Row = tuple[int, str, str, dict[str, Any] | None]


class _Tail:
    """A session's newest items in force; ``whole``: they are all of its items in force."""

    __slots__ = ("rows", "whole")

    def __init__(self, rows: list[Row], whole: bool) -> None:
        self.rows = rows
        self.whole = whole


def _kept(found: Sequence[tuple[int, str, str]]) -> list[Row]:
    if not found:
        return []
    decoded = decode_all([text for _, _, text in found])
    return [(*row, _flat(payload)) for row, payload in zip(found, decoded, strict=True)]


def _flat(payload: dict[str, Any]) -> dict[str, Any] | None:
    scalars = all(type(value) in JSON_SCALARS for value in payload.values())
    return payload if scalars else None


def _item_events(rows: list[Row]) -> list[ItemEvent]:
    """The rows as fresh :class:`ItemEvent` values, each payload the caller's own."""
    # One pass, copying the kept dicts, until a payload that is not flat: then all of them
    # are decoded (a read costs a few microseconds, so the unzipping and mapping of the
    # rows into columns cost as much as the copies).
    events = []
    for event_id, event_type, _, flat in rows:
        if flat is None:
            return _decoded_item_events(rows)
        events.append(_new_tuple(ItemEvent, (event_id, event_type, flat.copy())))
    return events


def _decoded_item_events(rows: list[Row]) -> list[ItemEvent]:
    ids, types, texts, _ = zip(*rows, strict=True)
    fields = zip(ids, types, decode_all(texts), strict=True)
    return list(map(_new_tuple, repeat(ItemEvent), fields))


_new_tuple = tuple.__new__


class Tails:
    """The tails of the sessions read lately, for one connection (see the module)."""

    __slots__ = ("_tails", "_version")

    def __init__(self) -> None:
        self._tails: dict[str, _Tail] = {}
        self._version: int | None = None

    def newest(self, cursor: sqlite3.Cursor, session_id: str, newest: int) -> list[ItemEvent]:
        """Return the session's newest ``newest`` items in force, as ``newest_items`` finds
        them, oldest first, each payload decoded for this call alone.

        Raises:
            sqlite3.Error: from the statements run on ``cursor``.
        """
        if newest <= 0:
            return []
        version = cursor.execute(DATA_VERSION).fetchone()[0]
        if version != self._version:
            self._tails.clear()
            self._version = version
        tail = self._tails.get(session_id)
        if tail is None or (len(tail.rows) < newest and not tail.whole):
            wanted = max(newest, KEPT)
            found = newest_items(
                lambda sql, arguments: cursor.execute(sql, arguments).fetchall(),
                session_id,
                wanted,
            )
            tail = _Tail(_kept(found), len(found) < wanted)
            self._tails.pop(session_id, None)
            self._tails[session_id] = tail
            if len(self._tails) > SESSIONS:
                del self._tails[next(iter(self._tails))]
        return _item_events(tail.rows[-newest:])

    def appended(self, session_id: str, events: Sequence[StoredEvent], by_key: bool) -> None:
        """Add the events this connection has just committed to the session's tail."""
        tail = self._tails.get(session_id)
        if tail is None:
            return
        if by_key or any(event.type in CORRECTION_TYPES for event in events):
            del self._tails[session_id]
            return
        rows = tail.rows
        rows += _kept([(event.event_id, event.type, event.payload.json_text) for event in events])
        if len(rows) > 2 * KEPT:
            del rows[:-KEPT]
            tail.whole = False

    def clear(self) -> None:
        """Drop every tail."""
        self._tails.clear()
