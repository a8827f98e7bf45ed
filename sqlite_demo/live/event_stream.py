"""One session's events as a live stream: the backlog after an id, then each new event.

The mechanism is reading by id, in pages, and nothing else::

    last = after
    subscribe to the session's appends
    loop:
        read the next page after last; send it; last = its last event_id
        (a full page: read the next one at once; otherwise wait until an append is
         announced, or one poll interval, or until the server shuts down)

Why this is correct:

* **It sees every writer.** The read goes to the database file, so an event committed by
  ANOTHER server process on the same file arrives exactly like one written by this process.
  The append signal (:mod:`sqlite_demo.store.append_signal`) only says *when* to read, so an event
  of this process comes at once, and one of another process within one poll interval.
* **Catch-up and live are one query.** There is no "read the backlog, then subscribe" gap
  for an event to fall into: the subscription is made before the first read, and an event
  committed just after any read has an id above ``last`` and is in the next one. Nothing is
  sent twice either, because ``last`` only moves forward past events that were sent.
* **Ids become visible in order.** This is the assumption everything rests on: an event with
  a smaller id can never be committed after one with a larger id was seen. The store
  contract promises it (:mod:`sqlite_demo.store.contract`), and both backends keep it the
  same way: the id is taken inside the writing transaction, and appends take turns (SQLite's
  ``BEGIN IMMEDIATE``, a row lock on PostgreSQL), so commits happen in id order. (A
  sequence that hands out ids to concurrent writers before they commit would break it:
  ``tests/store/postgres/test_reader_never_skips.py`` keeps that naive design to show how.)

**Many readers of one session** share each page read (:mod:`sqlite_demo.live.shared_reads`),
and poll on the same ticks, so a write read by 200 streams is read once.

**What a long session costs.** A page is read and encoded to bytes in a worker thread (a
limited number of them, shared by the app's streams), so the event loop only hands bytes on,
and no stream holds more than one page: 64 streams catching up 20,000 events each hold 64
pages, not 1,280,000 events. The next page is read only once the last was handed to the
connection, whose buffer is bounded, so a slow reader slows its own stream and no other.
"""

from __future__ import annotations

import threading
import time
from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Final, Protocol

import anyio

from eventlog import StoredEvent
from sqlite_demo.live.shared_reads import SharedReads
from sqlite_demo.live.sse import comment_frame, json_event_frame, named_frame, retry_frame
from sqlite_demo.store.append_signal import AppendSignal, Subscription

#: How many event streams one server keeps open at once, unless told otherwise.
DEFAULT_MAX_STREAMS: Final = 64
#: Turns a stored event into the one line of JSON a client receives (the API's event shape).
EventToJsonText = Callable[[StoredEvent], str]


class EventReader(Protocol):
    """The one store method a stream needs: the store contract's read by id."""

    def get_events_for_session(
        self, session_id: str, after_event_id: int = 0, limit: int | None = None
    ) -> Sequence[StoredEvent]: ...


@dataclass(frozen=True, slots=True)
class StreamSettings:
    """How a stream paces itself.

    Attributes:
        poll_seconds: longest wait between two reads when nothing was announced: how late
            an event appended by another process can be.
        heartbeat_seconds: longest silence before a ``: heartbeat`` comment is sent.
        reconnect_ms: the ``retry:`` an ``EventSource`` is told to wait before reconnecting.
        max_open_streams: streams one server keeps open at once; more are refused with a
            retryable 503, so that a client opening streams in a loop cannot make the server
            read forever. Exact: a slot is taken when the stream is accepted.
        page_events: events read, encoded and sent at a time.
        read_threads: worker threads the app's streams read with, at most, together; the
            rest of the thread pool stays free for every other request.
    """

    poll_seconds: float = 0.1
    heartbeat_seconds: float = 15.0
    reconnect_ms: int = 1000
    max_open_streams: int = DEFAULT_MAX_STREAMS
    page_events: int = 256
    read_threads: int = 2


@dataclass(frozen=True, slots=True)
class _Page:
    """Up to ``page_events`` events as SSE frames, ready to send."""

    frames: bytes
    count: int
    last_event_id: int


@dataclass(frozen=True, slots=True)
class StreamSource:
    """Where a stream reads, and what wakes it.

    Attributes:
        reader: the store; its reads run in worker threads.
        to_text: turns a stored event into the JSON text sent as ``data``.
        appends: announces appends, so that the stream reads at once; None polls only.
        limiter: caps the worker threads the streams read with (see ``read_threads``);
            None uses anyio's default pool.
        shared: shares each page read among the streams that ask for it at once; None
            reads for each stream alone.
    """

    reader: EventReader
    to_text: EventToJsonText
    appends: AppendSignal | None = None
    limiter: anyio.CapacityLimiter | None = None
    shared: SharedReads[_Page] | None = None


async def session_event_stream(
    source: StreamSource,
    session_id: str,
    after: int,
    *,
    follow: bool,
    settings: StreamSettings,
    closing: threading.Event,
) -> AsyncGenerator[bytes, None]:
    """Yield the SSE frames of one session's events with ``event_id > after``, as bytes.

    Order of frames: ``retry``, the backlog (one frame per event, ``id: <event_id>``), one
    ``caught-up`` frame, then, if ``follow``, each new event as it is committed, with
    ``: heartbeat`` comments in quiet spells, until ``closing`` is set; then a ``closing``
    frame and the end of the stream.

    Args:
        source: the store to read, how to encode, and what announces appends.
        session_id: the session to follow; other sessions' events are never read.
        after: resume point; the first event sent is the first one after it.
        follow: False ends the stream after the backlog (a bounded, finite response).
        settings: pacing and limits.
        closing: set when the server shuts down; the stream ends within one poll interval.
            A ``threading.Event`` because it is only ever polled, never awaited, so it is
            not tied to one event loop.
    """
    yield retry_frame(settings.reconnect_ms).encode()
    subscription = source.appends.subscribe(session_id) if source.appends else None
    try:
        heard = subscription.count if subscription else 0
        version = _version_of(source)
        last = after
        async for frames, page_last in _pages_after(source, session_id, after, settings, version):
            last = page_last
            yield frames
        yield named_frame("caught-up", {"after": after, "last_event_id": last}).encode()
        if follow:
            live = _Live(source, subscription, session_id, settings, closing)
            async for frame in live.frames(last, heard):
                yield frame
    finally:
        if subscription is not None:
            subscription.close()


@dataclass(frozen=True, slots=True)
class _Live:
    """The live part of one stream: what it reads, what wakes it, and when to stop."""

    source: StreamSource
    subscription: Subscription | None
    session_id: str
    settings: StreamSettings
    closing: threading.Event

    async def frames(self, last: int, heard: int) -> AsyncGenerator[bytes, None]:
        """Wait for an announcement (or a poll interval), read as the backlog was; repeat."""
        quiet_since = time.monotonic()
        while not self.closing.is_set():
            heard = await self._wait(heard)
            version = _version_of(self.source)  # with heard: before the read they lead to
            if self.closing.is_set():
                break
            sent = False
            pages = _pages_after(self.source, self.session_id, last, self.settings, version)
            async for frames, page_last in pages:
                last, sent = page_last, True
                yield frames
            if sent:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since >= self.settings.heartbeat_seconds:
                yield comment_frame("heartbeat").encode()
                quiet_since = time.monotonic()
        reason = {"reason": "the server is shutting down", "last_event_id": last}
        yield named_frame("closing", reason).encode()

    async def _wait(self, heard: int) -> int:
        """Return once an append was heard past ``heard``, or at the next poll tick, with
        the count heard so far (taken before the read it leads to).

        The ticks are the same for every stream (multiples of the poll interval on the
        monotonic clock), so the streams of a session poll together, and share the read.
        """
        poll = self.settings.poll_seconds
        until_tick = poll - time.monotonic() % poll
        if self.subscription is None:
            await anyio.sleep(until_tick)
            return heard
        await self.subscription.wait_past(heard, until_tick)
        return self.subscription.count


async def _pages_after(
    source: StreamSource, session_id: str, after: int, settings: StreamSettings, version: int
) -> AsyncGenerator[tuple[bytes, int], None]:
    """Yield ``(frames, last event id)`` for each page after ``after``, until a short page;
    each page read at ``version`` of the append signal or later."""
    limit = settings.page_events
    while True:
        read = partial(_read_in_thread, source, session_id, after, limit)
        if source.shared is None:
            page = await read()
        else:
            key = (session_id, after, limit)
            page = await source.shared.get(key, version, _version_of(source), read)
        if page.count:
            after = page.last_event_id
            yield page.frames, after
        if page.count < limit:
            return


def _version_of(source: StreamSource) -> int:
    return source.appends.version if source.appends is not None else 0


async def _read_in_thread(source: StreamSource, session_id: str, after: int, limit: int) -> _Page:
    return await anyio.to_thread.run_sync(
        _read_page, source, session_id, after, limit, limiter=source.limiter
    )


def _read_page(source: StreamSource, session_id: str, after: int, limit: int) -> _Page:
    # In a worker thread: the read blocks (on the database), and encoding a
    # page of events is work the event loop must not wait on.
    events = source.reader.get_events_for_session(session_id, after, limit)
    frames = "".join(json_event_frame(e.event_id, source.to_text(e)) for e in events)
    last = events[-1].event_id if events else after
    return _Page(frames.encode("utf-8"), len(events), last)
