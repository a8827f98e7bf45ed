"""The append signal on PostgreSQL: LISTEN/NOTIFY, so a stream hears every server's appends.

Every append queues ``pg_notify('sqlite_demo_appends', <key of its session>)`` in its own
transaction (``kit_append``, with :func:`session_key`). PostgreSQL delivers
a notification only once its transaction commits, in the order of the commits, to every
connection that LISTENs on the channel, whichever server made it. So an event appended
through one server reaches a stream held by another at once, with no poll.

One connection per process listens, in a thread of its own, and wakes the streams of the
notified session through a :class:`~sqlite_demo.store.append_signal.LocalAppendSignal`
keyed by the same session key. The payload is a key, never the event: the stream still
reads the log by id, so a notification is only ever a hint to read.

What if notifications are missed? Nothing is queued for a connection that is not listening:
while the listening connection is down (the server restarted, the network dropped) every
notification is lost. So each time LISTEN takes effect, at first and after every reconnect,
every stream of this process is woken to read once more: the catch-up read after LISTEN,
which finds whatever was appended while nobody listened. A connection that died silently is
found within :data:`CHECK_EVERY_SECONDS` by a ``SELECT 1``.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from typing import Final

import psycopg

from sqlite_demo.store.append_signal import LocalAppendSignal, Subscription
from sqlite_demo.store.postgres.connection import APPENDS_CHANNEL

#: How often the listening connection proves it is alive when no notification came.
CHECK_EVERY_SECONDS: Final = 5.0
#: How long the listener waits between attempts to reconnect to a server that is down.
RECONNECT_SECONDS: Final = 0.5
#: How long one wait for notifications lasts, and so how soon ``close()`` is heard.
_WAIT_SECONDS: Final = 0.5

_log = logging.getLogger(__name__)


def session_key(session_id: str) -> str:
    """Return the key a notification carries for ``session_id``: 32 hex digits.

    A digest of the session id, never the event: a key that says "read this session
    again", whatever the length of its id (a payload is at most 8,000 bytes).
    """
    return hashlib.blake2b(session_id.encode("utf-8"), digest_size=16).hexdigest()


class NotifiedAppendSignal:
    """An :class:`~sqlite_demo.store.append_signal.AppendSignal` fed by LISTEN/NOTIFY.

    The listening thread starts with the first subscription, so a store that nobody
    streams from (a command-line call, a test) opens no extra connection.

    Args:
        url: the database's connection URL.
    """

    def __init__(self, url: str) -> None:
        self._url = url
        self._local = LocalAppendSignal()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closed = threading.Event()
        #: Set while LISTEN is in effect; tests wait on it.
        self.listening = threading.Event()

    @property
    def hears_every_process(self) -> bool:
        """True: every server's appends are announced, at their COMMIT."""
        return True

    @property
    def version(self) -> int:
        """Grows with each notification heard and each catch-up (see the module)."""
        return self._local.version

    def subscribe(self, session_id: str) -> Subscription:
        """Listen for appends to ``session_id``; must be called on a running event loop."""
        subscription = self._local.subscribe(session_key(session_id))
        self._start_listening()
        return subscription

    def close(self) -> None:
        """Stop listening and close the connection; closing twice is fine."""
        self._closed.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=10)

    def _start_listening(self) -> None:
        with self._lock:
            if self._thread is None and not self._closed.is_set():
                self._thread = threading.Thread(
                    target=self._listen_until_closed, name="postgres-listen", daemon=True
                )
                self._thread.start()

    def _listen_until_closed(self) -> None:
        while not self._closed.is_set():
            try:
                with psycopg.connect(
                    self._url, autocommit=True, application_name="sqlite_demo listen"
                ) as connection:
                    self._listen(connection)
            except psycopg.Error as error:
                _log.info("listening for appends stopped (%s); reconnecting", error)
            finally:
                self.listening.clear()
            self._closed.wait(RECONNECT_SECONDS)

    def _listen(self, connection: psycopg.Connection[tuple[object, ...]]) -> None:
        connection.execute(f"LISTEN {APPENDS_CHANNEL}")
        self.listening.set()
        # The catch-up: whatever was appended while nobody listened, each stream reads now.
        self._local.wake_everyone()
        checked = time.monotonic()
        while not self._closed.is_set():
            for notification in connection.notifies(timeout=_WAIT_SECONDS):
                self._local.appended(notification.payload)
            if time.monotonic() - checked >= CHECK_EVERY_SECONDS:
                connection.execute("SELECT 1")
                checked = time.monotonic()
