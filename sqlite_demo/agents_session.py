"""The event store as an OpenAI Agents SDK ``Session``: an agent's memory that a crash cannot lose.

``EventLogSession(session_id, db)`` honours the SDK's ``Session`` protocol
(``agents.memory.session.Session``), so ``Runner.run(agent, text, session=...)`` keeps its
conversation here, with the chapter's discipline:

* **One transaction per** ``add_items``: all of its items are committed, or none, and the
  call returns only once they are (write before reply). Cancelled mid-way, it still waits for
  the outcome before it lets the cancellation through, so the caller never has to guess.
* **Nothing is deleted.** ``pop_item`` appends an ``item_removed`` pointing at the item it
  takes out, ``clear_session`` a ``session_cleared`` pointing at the last event: the log
  still shows what happened, in order, and every reader leaves out what they supersede.
* **Several processes, one file.** Every write is ``BEGIN IMMEDIATE``, so writers queue for
  the lock (up to the store's busy timeout) instead of answering "database is locked"; a
  removal or a clear is checked inside its transaction against what is then in force.
* **A limit never splits a call from its output**: see :func:`get_items`.
* **Reads cost what they return.** ``get_items()`` is one query for the items in force and
  one decode for all of them; ``get_items(limit=k)`` reads the newest k from the end of the
  session's index, in time that does not grow with the session, or from the newest items
  the store keeps of a session it read lately (kept true by every commit, see
  :mod:`sqlite_demo.store.sqlite.tails`), and is answered on the event loop itself when the
  store's lock is free (either costs less than the hand-over to a worker thread and back).

Items map to events as :mod:`sqlite_demo.agent_items` says. The SDK is imported only when a
session is made (for its ``SessionSettings``), so ``import sqlite_demo`` works without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import importlib
import os
from collections.abc import Callable
from typing import Any, Final, Self, TypeVar

from eventlog import (
    KEPT_ITEM,
    CallIdError,
    CorrectionError,
    SessionExistsError,
    VersionConflictError,
    check_session_id,
)
from sqlite_demo.agent_items import Item, event_for_item, item_from, items_from
from sqlite_demo.call_pairing import pair_with_calls_in_force, without_split_calls
from sqlite_demo.store.contract import EventStore
from sqlite_demo.store.rows import ItemEvent
from sqlite_demo.store.sqlite.connection import Synchronous
from sqlite_demo.store.sqlite.store import SqliteEventStore

#: Times a removal, a clear, or a batch whose calls had to be paired on a read is decided
#: again because another writer moved the session on first, before the last refusal is raised.
MAX_ATTEMPTS: Final = 64
#: The largest ``limit`` that ``get_items`` may read on the event loop (see the module).
MAX_ITEMS_READ_ON_THE_LOOP: Final = 100

#: The event types whose item may be a call's output: a ``tool_result``, or an item kept whole
#: (see :func:`sqlite_demo.call_pairing.without_split_calls`).
_MAY_BE_AN_OUTPUT: Final = frozenset({"tool_result", KEPT_ITEM})

_T = TypeVar("_T")

#: An item as the protocol's signatures name it. At run time it is an :data:`Item` (a dict);
#: the SDK types it as a union of TypedDicts, which ``dict[str, Any]`` does not match, so the
#: signatures say Any: an ``EventLogSession`` then passes for a ``Session`` under mypy too,
#: without this module importing the SDK.
SdkItem = Any


def open_item_store(db: str | os.PathLike[str], synchronous: Synchronous) -> EventStore:
    """Open the store at ``db``: a SQLite file, created with its schema if missing."""
    return SqliteEventStore(db, synchronous=synchronous)


class EventLogSession:
    """An OpenAI Agents SDK session kept in the kit's event log.

    Args:
        session_id: the conversation; the store's session id (created at the first write).
        db: a database path, or an open store of either backend
            (:class:`~sqlite_demo.store.EventStore`), shared with other sessions and left
            open by :meth:`close`.
        session_settings: the SDK's ``SessionSettings`` (or a dict of its fields); its
            ``limit`` is the default of :meth:`get_items`.
        synchronous: for a path: ``"NORMAL"`` survives a killed process, ``"FULL"`` a power
            cut too (see :class:`~sqlite_demo.SqliteEventStore`).

    Raises:
        InvalidSessionIdError: ``session_id`` is not a non-empty string of valid text.
        ModuleNotFoundError: the SDK is not installed (``pip install -e ".[agents]"``).
        TypeError: ``session_settings`` has a field the SDK does not know.
    """

    def __init__(
        self,
        session_id: str,
        db: str | os.PathLike[str] | EventStore,
        *,
        session_settings: Any = None,
        synchronous: Synchronous = "NORMAL",
    ) -> None:
        self.session_id = check_session_id(session_id)
        self.session_settings: Any = _sdk_session_settings(session_settings)
        self._owns_store = isinstance(db, (str, os.PathLike))
        self._store = open_item_store(db, synchronous) if isinstance(db, (str, os.PathLike)) else db
        self._session_created = False
        self._closed = False

    async def get_items(self, limit: int | None = None) -> list[SdkItem]:
        """Return the items in force, oldest first: all of them, or the newest ``limit``.

        An output whose call falls outside the newest ``limit`` is left out too, so the
        list may be shorter than ``limit``, never longer, and never splits a call from its
        output. Each call returns fresh dicts.

        Args:
            limit: at most this many items; None uses ``session_settings.limit`` (None: all).

        Raises:
            ValueError: ``limit`` is not None nor an int of 0 or more.
        """
        self._check_open()
        most = _checked_limit(limit if limit is not None else self.session_settings.limit)
        if most == 0:
            return []
        if most is not None and most <= MAX_ITEMS_READ_ON_THE_LOOP:
            read_now = self._store.newest_items_now(self.session_id, most)
            if read_now is not None:
                return _newest_items_of(read_now)
        return await _outcome_even_if_cancelled(lambda: self._items_in_force(most))

    async def add_items(self, items: list[SdkItem]) -> None:
        """Append the items, in order, in one transaction: all of them are committed, or none.

        Raises:
            ValueError: an item that is not a JSON object (nothing is written).
            StorageError: the store could not write (nothing is written).
        """
        self._check_open()
        if items:
            await _outcome_even_if_cancelled(lambda: self._append(list(items)))

    async def pop_item(self) -> SdkItem | None:
        """Take the newest item out (an ``item_removed`` event) and return it; None if empty."""
        self._check_open()
        return await _outcome_even_if_cancelled(self._remove_newest)

    async def clear_session(self) -> None:
        """Take every item out (a ``session_cleared`` event); the log keeps them."""
        self._check_open()
        await _outcome_even_if_cancelled(self._clear)

    def close(self) -> None:
        """Close the store if this session opened it; later calls raise. Twice is fine."""
        if not self._closed and self._owns_store:
            self._store.close()
        self._closed = True

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()

    # -- the work, run in a worker thread ----------------------------------------------------

    def _items_in_force(self, limit: int | None) -> list[Item]:
        if limit is None:
            return items_from(self._store.get_facts_in_force(self.session_id))
        return _newest_items_of(self._store.get_items_in_force(self.session_id, limit))

    def _append(self, items: list[Item]) -> None:
        events = [event_for_item(item) for item in items]
        self._create_session_once()
        try:
            self._store.append_events(self.session_id, events)
        except CallIdError:
            # A call id already in force, or an output with no open call: decide on a read
            # which items the chapter's pairing can hold, keep the others whole.
            self._append_paired_on_read(items)

    def _append_paired_on_read(self, items: list[Item]) -> None:
        for attempt in range(1, MAX_ATTEMPTS + 1):
            # The version first, then what is in force: if a writer slips in between, the
            # append below names a version the session has left, and is decided again.
            version = self._store.last_event_id(self.session_id)
            in_force = self._store.get_items_in_force(self.session_id)
            events = pair_with_calls_in_force(in_force, items)
            try:
                self._store.append_events(self.session_id, events, expected_version=version)
                return
            except VersionConflictError:
                if attempt == MAX_ATTEMPTS:
                    raise

    def _remove_newest(self) -> Item | None:
        for attempt in range(1, MAX_ATTEMPTS + 1):
            newest = self._store.get_items_in_force(self.session_id, 1)
            if not newest:
                return None
            try:
                payload = {"supersedes": newest[0].event_id}
                self._store.append_event(self.session_id, "item_removed", payload)
                return item_from(newest[0].type, newest[0].payload)
            except CorrectionError:  # another writer took it out, or added after it
                if attempt == MAX_ATTEMPTS:
                    raise
        raise AssertionError("unreachable")

    def _clear(self) -> None:
        for attempt in range(1, MAX_ATTEMPTS + 1):
            # The last event first: a writer that adds after it makes the clear conflict.
            last = self._store.last_event_id(self.session_id)
            if not self._store.get_items_in_force(self.session_id, 1):
                return  # nothing in force: a clear would say nothing
            try:
                payload = {"supersedes_through": last}
                self._store.append_event(self.session_id, "session_cleared", payload)
                return
            except VersionConflictError:  # another writer added after the last event read
                if attempt == MAX_ATTEMPTS:
                    raise

    def _create_session_once(self) -> None:
        if self._session_created:
            return
        # Made by an earlier run, or by another process just now: it is the same session.
        with contextlib.suppress(SessionExistsError):
            self._store.create_session(self.session_id, session_id=self.session_id)
        self._session_created = True

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"EventLogSession {self.session_id!r} is closed")


def _newest_items_of(events: list[ItemEvent]) -> list[Item]:
    # The items of a limited read, less every output whose call is not among them. Only a
    # tool_result or an item kept whole can be an output: without either, nothing to pair.
    if not events:
        return []
    _, types, payloads = zip(*events, strict=True)
    items = list(map(item_from, types, payloads))
    return items if _MAY_BE_AN_OUTPUT.isdisjoint(types) else without_split_calls(items)


def _sdk_session_settings(value: Any) -> Any:
    # Imported by name when a session is made: the SDK is an optional dependency (the
    # "agents" extra), so neither `import sqlite_demo` nor a type check of it needs the SDK.
    try:
        settings = importlib.import_module("agents.memory.session_settings")
    except ModuleNotFoundError as missing:
        if missing.name not in ("agents", "agents.memory", "agents.memory.session_settings"):
            raise
        raise ModuleNotFoundError(
            'EventLogSession needs the OpenAI Agents SDK: pip install -e ".[agents]"'
            " (openai-agents, the version pyproject.toml pins)",
            name="agents",
        ) from None
    return settings.SessionSettings() if value is None else settings.coerce_session_settings(value)


def _checked_limit(limit: object) -> int | None:
    if limit is None or (type(limit) is int and limit >= 0):
        return limit
    raise ValueError(f"limit must be None or an int of 0 or more, got {limit!r}")


class _Outcome(asyncio.Future[_T]):
    """A future that cannot be cancelled: a task awaiting it that is cancelled meanwhile is
    woken only once it is set, and the cancellation is raised in it then (asyncio's Task does
    this for any future whose ``cancel()`` answers False)."""

    def cancel(self, msg: Any = None) -> bool:
        return False


async def _outcome_even_if_cancelled(work: Callable[[], _T]) -> _T:
    """Run ``work`` in a worker thread and wait for its outcome, even if cancelled meanwhile.

    A thread cannot be stopped half-way, and a transaction in it commits or rolls back on
    its own. Letting a cancellation through before that would leave the caller unsure
    whether the items were written, and tempted to write them again. So the cancellation is
    held until the outcome is known, then raised (the outcome, written or not, stands).

    The thread sets the outcome itself, and the caller awaits it directly: two passes of the
    event loop per call, as ``asyncio.to_thread`` takes, where a task around ``to_thread``
    and an ``asyncio.wait`` on it took four (about 5% of an ``add_items`` at FULL).
    """
    loop = asyncio.get_running_loop()
    outcome: _Outcome[_T] = _Outcome(loop=loop)
    context = contextvars.copy_context()

    def run() -> None:
        try:
            value = context.run(work)
        except BaseException as error:  # the caller's to raise, whatever it is
            loop.call_soon_threadsafe(outcome.set_exception, error)
        else:
            loop.call_soon_threadsafe(outcome.set_result, value)

    loop.run_in_executor(None, run)
    return await outcome
