"""One session's events as a live stream: the backlog after an id, then each new event.

The mechanism is polling by id, and nothing else::

    last = after
    loop:
        events = store.get_events_for_session(session_id, after_event_id=last)
        send each one; last = its event_id
        wait a moment (or stop, if the server is shutting down)

Why this is correct, and why it needs no notification from the writer:

* **It sees every writer.** The query reads the database file, so an event committed by
  ANOTHER server process on the same file arrives exactly like one written by this process.
  An in-process notification (a queue the agent pushes to) would miss those.
* **Catch-up and live are one query.** There is no "read the backlog, then subscribe" gap for
  an event to fall into: an event committed just after a read has an id above ``last`` and is
  in the next read. Nothing is sent twice either, because ``last`` only moves forward past
  events that were sent.
* **Ids become visible in order.** This is the assumption everything rests on: an event with
  a smaller id can never be committed after one with a larger id was seen. SQLite guarantees
  it: one writer at a time (``BEGIN IMMEDIATE``), and the id is taken inside the writing
  transaction, so commits happen in id order. (A database with concurrent writers, where a
  sequence hands out ids before commit, would need a different cursor.)

The cost is one indexed query per open stream per poll interval, and up to one interval of
delay; both are small next to a model call.
"""

from __future__ import annotations

import threading
import time
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass
from typing import Any, Protocol

import anyio

from sqlite_demo import StoredEvent
from sqlite_demo.sse import comment_frame, event_frame, named_frame, retry_frame

#: Turns a stored event into the JSON object a client receives (the API's event shape).
EventToJson = Callable[[StoredEvent], dict[str, Any]]


class EventReader(Protocol):
    """The one store method a stream needs: ``SqliteEventStore``'s public read by id."""

    def get_events_for_session(
        self, session_id: str, after_event_id: int = 0
    ) -> list[StoredEvent]: ...


@dataclass(frozen=True, slots=True)
class StreamSettings:
    """How a stream paces itself.

    Attributes:
        poll_seconds: pause between two reads when nothing new came.
        heartbeat_seconds: longest silence before a ``: heartbeat`` comment is sent.
        reconnect_ms: the ``retry:`` an ``EventSource`` is told to wait before reconnecting.
        max_open_streams: streams one server keeps open at once; more are refused with 503,
            so that a client opening streams in a loop cannot make the server poll forever.
            A soft cap: it is checked when a stream is asked for, so streams asked for at the
            same instant can pass it by a few.
    """

    poll_seconds: float = 0.1
    heartbeat_seconds: float = 15.0
    reconnect_ms: int = 1000
    max_open_streams: int = 64


async def session_event_stream(
    reader: EventReader,
    session_id: str,
    after: int,
    *,
    follow: bool,
    settings: StreamSettings,
    closing: threading.Event,
    to_json: EventToJson,
) -> AsyncGenerator[str, None]:
    """Yield the SSE frames of one session's events with ``event_id > after``.

    Order of frames: ``retry``, the backlog (one frame per event, ``id: <event_id>``), one
    ``caught-up`` frame, then, if ``follow``, each new event as it is committed, with
    ``: heartbeat`` comments in quiet spells, until ``closing`` is set; then a ``closing``
    frame and the end of the stream.

    Args:
        reader: the store; its blocking reads run in a worker thread.
        session_id: the session to follow; other sessions' events are never read.
        after: resume point; the first event sent is the first one after it.
        follow: False ends the stream after the backlog (a bounded, finite response).
        settings: pacing and limits.
        closing: set when the server shuts down; the stream ends within one poll interval.
            A ``threading.Event`` because it is only ever polled, never awaited, so it is
            not tied to one event loop.
        to_json: turns a stored event into the JSON object sent as ``data``.
    """
    yield retry_frame(settings.reconnect_ms)
    backlog = await _read_after(reader, session_id, after)
    for event in backlog:
        yield event_frame(event.event_id, to_json(event))
    last = backlog[-1].event_id if backlog else after
    yield named_frame("caught-up", {"after": after, "last_event_id": last})
    if follow:
        async for frame in _follow(reader, session_id, last, settings, closing, to_json):
            yield frame


async def _follow(
    reader: EventReader,
    session_id: str,
    last: int,
    settings: StreamSettings,
    closing: threading.Event,
    to_json: EventToJson,
) -> AsyncGenerator[str, None]:
    """The live part: the same read as the backlog's, repeated from the last id sent."""
    quiet_since = time.monotonic()
    while True:
        await anyio.sleep(settings.poll_seconds)
        if closing.is_set():
            break
        events = await _read_after(reader, session_id, last)
        for event in events:
            yield event_frame(event.event_id, to_json(event))
            last = event.event_id
        if events:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= settings.heartbeat_seconds:
            yield comment_frame("heartbeat")
            quiet_since = time.monotonic()
    yield named_frame("closing", {"reason": "the server is shutting down", "last_event_id": last})


async def _read_after(reader: EventReader, session_id: str, after: int) -> list[StoredEvent]:
    # The store's reads block (SQLite, and a lock another thread's write may hold), so they
    # run in a worker thread: one slow read must not stall every other stream on the loop.
    return await anyio.to_thread.run_sync(reader.get_events_for_session, session_id, after)
