"""The port that wakes a stream when events are appended, and its in-process implementation.

A stream that only polled would deliver each event up to one poll interval late. A store
that can tell when it appended offers an :class:`AppendSignal`: a stream subscribes to its
session, and waits on the subscription with a timeout. The wake-up is a hint, never the
data: the stream still reads by id from the log, so a missed or spurious wake-up can delay
an event by one poll interval at most, and can never lose or double one.

* :class:`LocalAppendSignal` is fed by :class:`~sqlite_demo.store.SqliteEventStore`'s own
  appends, in this process: a turn the server takes wakes its streams at once. An append by
  another process on the same file rings no bell here; the timeout (the poll interval) is
  what finds it (:attr:`AppendSignal.hears_every_process` is False).
* :class:`~sqlite_demo.store.postgres.notify.NotifiedAppendSignal` is fed by PostgreSQL's
  LISTEN/NOTIFY: every server's appends, delivered at COMMIT, so its streams need no poll.

Subscribe before reading: an append after the subscription was made is never missed, since
:attr:`Subscription.count` moves and :meth:`Subscription.wait_past` returns at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Protocol


class Subscription(Protocol):
    """One stream's interest in one session's appends, from subscribing until ``close()``."""

    @property
    def count(self) -> int:
        """How many appends to the session this subscription has heard of; only grows."""
        ...

    async def wait_past(self, count: int, timeout: float) -> None:
        """Return once :attr:`count` exceeds ``count``, or after ``timeout`` seconds."""
        ...

    def close(self) -> None:
        """Stop listening; closing twice is fine."""
        ...


class AppendSignal(Protocol):
    """What a store offers its streams: a subscription to a session's appends."""

    @property
    def hears_every_process(self) -> bool:
        """Whether appends made by other processes are announced too; if not, a stream
        must also read now and then to find them (it polls)."""
        ...

    @property
    def version(self) -> int:
        """A number that grows with each append announced, to any session: a read begun
        once it reached ``v`` holds every event announced up to ``v``."""
        ...

    def subscribe(self, session_id: str) -> Subscription:
        """Listen for appends to ``session_id``; call from the event loop the stream runs on."""
        ...


class LocalAppendSignal:
    """Appends made in this process, announced by the store that made them.

    Thread-safe: the store announces from whichever worker thread committed, and each
    subscriber is woken on its own event loop.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[str, set[_LocalSubscription]] = {}
        self._version = 0

    @property
    def hears_every_process(self) -> bool:
        """False: only this process's appends are announced."""
        return False

    @property
    def version(self) -> int:
        """How many appends were announced so far."""
        return self._version

    def subscribe(self, session_id: str) -> Subscription:
        """Listen for appends to ``session_id``; must be called on a running event loop."""
        subscription = _LocalSubscription(self, session_id, asyncio.get_running_loop())
        with self._lock:
            self._listeners.setdefault(session_id, set()).add(subscription)
        return subscription

    def appended(self, session_id: str) -> None:
        """Announce that an event of ``session_id`` was committed: wake its subscribers."""
        with self._lock:
            self._version += 1
            if session_id not in self._listeners:  # the common case: nobody follows it
                return
            listeners = list(self._listeners[session_id])
        for subscription in listeners:
            subscription.hear()

    def wake_everyone(self) -> None:
        """Wake every subscriber as if its session had been appended to: each reads again.

        For a feed that may have missed announcements (a notification channel that was
        down for a while): reading again finds whatever was appended meanwhile.
        """
        with self._lock:
            self._version += 1
            listeners = [s for subscriptions in self._listeners.values() for s in subscriptions]
        for subscription in listeners:
            subscription.hear()

    def _forget(self, subscription: _LocalSubscription) -> None:
        with self._lock:
            listeners = self._listeners.get(subscription.session_id)
            if listeners is not None:
                listeners.discard(subscription)
                if not listeners:
                    del self._listeners[subscription.session_id]


class _LocalSubscription:
    """A subscription of :class:`LocalAppendSignal`, bound to the loop it was made on."""

    def __init__(
        self, signal: LocalAppendSignal, session_id: str, loop: asyncio.AbstractEventLoop
    ) -> None:
        self.session_id = session_id
        self._signal = signal
        self._loop = loop
        self._count = 0
        self._woken = asyncio.Event()

    @property
    def count(self) -> int:
        return self._count

    def hear(self) -> None:
        # Any thread: count first, then wake the loop, so a waiter that checks the count
        # after clearing its event cannot miss this append.
        self._count += 1
        # A closed loop raises RuntimeError: its stream is gone, and nobody waits.
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(self._woken.set)

    async def wait_past(self, count: int, timeout: float) -> None:
        if self._count > count:
            return
        self._woken.clear()
        if self._count > count:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._woken.wait(), timeout)

    def close(self) -> None:
        self._signal._forget(self)
