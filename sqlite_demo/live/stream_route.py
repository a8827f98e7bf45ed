"""``GET /sessions/{id}/events/stream``: the endpoint, its limits, and a clean shutdown.

The stream itself (pages read by id, the append signal, heartbeat, catch-up) is
:mod:`sqlite_demo.live.event_stream`; this module puts it on HTTP:

* **Where to resume.** ``Last-Event-ID`` (what a reconnecting ``EventSource`` sends) wins
  over ``?after=N`` (what a page passes when it opens a new stream itself), because a
  browser reconnects to the same URL, ``after`` included, adding the header each time.
* **Refusals come first.** A bad header, an unknown session or too many open streams get
  their JSON error and status before the first byte of the stream; once it has started,
  a stream only ever ends. Too many streams is a retryable 503 with ``Retry-After``, and
  the limit is exact: a slot is taken in the same step as the check.
* **Shutdown.** uvicorn waits for every open response to finish before it stops, and an
  event stream never finishes by itself, so a plain ``uvicorn.Server`` would hang on
  shutdown with a page open. :class:`StreamClosingServer` tells the streams first; each sends
  a ``closing`` frame and ends, and the server stops at once.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from typing import Annotated, Any, Final

import anyio
import uvicorn
from fastapi import APIRouter, FastAPI, Header, Query, Request
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from sqlite_demo.live.event_stream import StreamSettings, StreamSource, session_event_stream
from sqlite_demo.live.shared_reads import SharedReads
from sqlite_demo.live.sse import LAST_EVENT_ID_PATTERN, parse_last_event_id
from sqlite_demo.service.api_schema import MAX_EVENT_ID
from sqlite_demo.service.event_json import event_json_text
from sqlite_demo.service.http_errors import RETRY_AFTER_SECONDS, ApiError, documented
from sqlite_demo.store.contract import EventStore
from sqlite_demo.texts import Said

STREAM_PATH: Final = "/sessions/{session_id}/events/stream"
#: The operation id and tag of the stream in the OpenAPI schema: a fuzzer that reads a
#: response to its end (schemathesis) must leave the stream out by one of these, or pass
#: ``follow=false``; a followed stream has no end to read to.
STREAM_OPERATION_ID: Final = "stream_session_events"
STREAM_TAG: Final = "streaming"

_STREAM_EXAMPLE: Final = (
    "retry: 1000\n\n"
    'id: 5\ndata: {"event_id":5,"session_id":"sess_a","type":"tool_result",'
    '"payload":{"call_id":"call_1","content":"42"},"created_at":1767225600000}\n\n'
    'event: caught-up\ndata: {"after":4,"last_event_id":5}\n\n'
    ": heartbeat\n\n"
)


class _Slot:
    """One of the app's open-stream slots, held from acceptance to the response's end."""

    def __init__(self, streams: _OpenStreams) -> None:
        self._streams: _OpenStreams | None = streams

    def release(self) -> None:
        """Give the slot back; only the first call counts."""
        if self._streams is not None:
            self._streams.count -= 1
            self._streams = None


class EventStreamResponse(StreamingResponse):
    """The stream's response: ``text/event-stream``, holding its slot until it has ended.

    However the response ends (the last frame, a client that went away, shutdown, an error,
    or a connection that closed before the first byte), the frames are closed and the slot
    is released, here, where every one of those paths passes.
    """

    media_type = "text/event-stream"

    def __init__(
        self,
        frames: AsyncGenerator[bytes, None],
        slot: _Slot,
        headers: dict[str, str],
        status_code: int = 200,  # FastAPI reads the default for the schema
    ) -> None:
        super().__init__(frames, status_code=status_code, headers=headers)
        self._frames = frames
        self._slot = slot

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._slot.release()
            await self._frames.aclose()


@dataclass
class _OpenStreams:
    """Per app: the stream settings, the shutdown signal, the slots taken, the read threads."""

    settings: StreamSettings
    closing: threading.Event = field(default_factory=threading.Event)
    count: int = 0
    shared: SharedReads[Any] = field(default_factory=SharedReads)
    _limiter: anyio.CapacityLimiter | None = None

    def take_slot(self) -> _Slot | None:
        """Take a slot, or return None when every one is taken.

        Synchronous on purpose: between the check and the count nothing else runs on the
        event loop, so a burst of requests can never pass the limit, even by one.
        """
        if self.count >= self.settings.max_open_streams:
            return None
        self.count += 1
        return _Slot(self)

    def limiter(self) -> anyio.CapacityLimiter:
        """The threads the streams read with (made on first use, inside the event loop)."""
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.settings.read_threads)
        return self._limiter


def configure_streams(app: FastAPI, settings: StreamSettings) -> None:
    """Use ``settings`` for the app's streams from now on (tests shorten the intervals)."""
    streams = _open_streams(app)
    streams.settings = settings
    streams._limiter = None


def close_event_streams(app: Any) -> None:
    """Tell every open stream of ``app`` to send its ``closing`` frame and end."""
    state = getattr(app, "state", None)
    if state is not None:
        _open_streams(app).closing.set()


class StreamClosingServer(uvicorn.Server):
    """A ``uvicorn.Server`` that ends the app's event streams before waiting on connections."""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        close_event_streams(self.config.app)
        await super().shutdown(sockets=sockets)


def _open_streams(app: Any) -> _OpenStreams:
    streams = getattr(app.state, "live_streams", None)
    if streams is None:
        streams = _OpenStreams(StreamSettings())
        app.state.live_streams = streams
    assert isinstance(streams, _OpenStreams)
    return streams


AfterQuery = Annotated[
    int,
    Query(ge=0, le=MAX_EVENT_ID, description="resume after this event id (0: from the start)"),
]
FollowQuery = Annotated[
    bool,
    Query(description="false: send the backlog and the caught-up frame, then end the response"),
]
LastEventIdHeader = Annotated[
    str,
    Header(
        alias="Last-Event-ID",
        description="resume after this event id; wins over `after` (sent by EventSource)",
        # In the schema only: the endpoint checks it itself, to say what was wrong in words.
        json_schema_extra={"pattern": LAST_EVENT_ID_PATTERN},
    ),
]


def add_stream_route(router: APIRouter) -> None:
    """Add ``GET /sessions/{session_id}/events/stream`` to ``router``."""

    @router.get(
        STREAM_PATH,
        response_class=EventStreamResponse,
        operation_id=STREAM_OPERATION_ID,
        tags=[STREAM_TAG],
        summary="Stream the session's events as Server-Sent Events",
        responses={
            200: {
                "description": "an endless event stream (unless follow=false); each log "
                "event is a frame with `id: <event_id>` and the event as JSON in `data`",
                "content": {
                    "text/event-stream": {"schema": {"type": "string"}, "example": _STREAM_EXAMPLE}
                },
            },
            # By reference: the other operations put ErrorBody in the schema's components.
            **documented(404, 422, 500, 503, by_reference=True),
        },
    )
    async def stream_events(
        session_id: str,
        request: Request,
        after: AfterQuery = 0,
        follow: FollowQuery = True,
        last_event_id: LastEventIdHeader = "",
    ) -> EventStreamResponse:
        resume_after = _resume_point(after, last_event_id)
        store: EventStore = request.app.state.store
        streams = _open_streams(request.app)
        # Raises UnknownSessionError, which the app answers with its 404. In the streams'
        # own threads: a burst of streams opening must not queue ahead of other requests.
        await anyio.to_thread.run_sync(store.get_session, session_id, limiter=streams.limiter())
        slot = streams.take_slot()  # no await since the check: the limit is exact
        if slot is None:
            fields = {"count": streams.count, "seconds": RETRY_AFTER_SECONDS}
            message = Said("api.too_many_streams", fields)
            raise ApiError(503, "too_many_streams", message, retryable=True)
        source = StreamSource(
            store, event_json_text, store.append_signal, streams.limiter(), streams.shared
        )
        frames = session_event_stream(
            source,
            session_id,
            resume_after,
            follow=follow,
            settings=streams.settings,
            closing=streams.closing,
        )
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return EventStreamResponse(frames, slot, headers)


def _resume_point(after: int, last_event_id: str) -> int:
    try:
        from_header = parse_last_event_id(last_event_id)
    except ValueError:
        shown = last_event_id if len(last_event_id) <= 40 else last_event_id[:40] + "..."
        message = Said("api.bad_last_event_id", {"shown": shown})
        raise ApiError(422, "invalid_request", message) from None
    return after if from_header is None else from_header
