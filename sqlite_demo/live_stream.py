"""``GET /sessions/{id}/events/stream``: the endpoint, its limits, and a clean shutdown.

The stream itself (poll by id, heartbeat, catch-up) is :mod:`sqlite_demo.event_stream`; this
module puts it on HTTP:

* **Where to resume.** ``Last-Event-ID`` (what a reconnecting ``EventSource`` sends) wins
  over ``?after=N`` (what a page passes when it opens a new stream itself), because a
  browser reconnects to the same URL, ``after`` included, adding the header each time.
* **Refusals come first.** A bad header, an unknown session or too many open streams get
  their JSON error and status before the first byte of the stream; once it has started,
  a stream only ever ends.
* **Shutdown.** uvicorn waits for every open response to finish before it stops, and an
  event stream never finishes by itself, so a plain ``uvicorn.Server`` would hang on
  shutdown with a page open. :class:`StreamClosingServer` tells the streams first; each sends
  a ``closing`` frame and ends, and the server stops at once.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field
from typing import Annotated, Any, Final

import anyio
import uvicorn
from fastapi import APIRouter, FastAPI, Header, Query, Request
from starlette.responses import StreamingResponse

from sqlite_demo.api_schema import MAX_EVENT_ID
from sqlite_demo.event_stream import EventToJson, StreamSettings, session_event_stream
from sqlite_demo.http_errors import ApiError, documented
from sqlite_demo.sse import LAST_EVENT_ID_PATTERN, parse_last_event_id
from sqlite_demo.store import SqliteEventStore

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


class EventStreamResponse(StreamingResponse):
    """The stream's response class: ``text/event-stream`` in the schema and on the wire."""

    media_type = "text/event-stream"


@dataclass
class _OpenStreams:
    """Per app: the stream settings, the shutdown signal, and how many streams are open."""

    settings: StreamSettings
    closing: threading.Event = field(default_factory=threading.Event)
    count: int = 0


def configure_streams(app: FastAPI, settings: StreamSettings) -> None:
    """Use ``settings`` for the app's streams from now on (tests shorten the intervals)."""
    _open_streams(app).settings = settings


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


def add_stream_route(router: APIRouter, event_to_json: EventToJson) -> None:
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
        store: SqliteEventStore = request.app.state.store
        # Raises UnknownSessionError, which the app answers with its 404.
        await anyio.to_thread.run_sync(store.get_session, session_id)
        streams = _open_streams(request.app)
        if streams.count >= streams.settings.max_open_streams:
            message = f"{streams.count} streams are open, the limit; close one or retry later"
            raise ApiError(503, "too_many_streams", message)
        frames = session_event_stream(
            store,
            session_id,
            resume_after,
            follow=follow,
            settings=streams.settings,
            closing=streams.closing,
            to_json=event_to_json,
        )
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return EventStreamResponse(_counted(streams, frames), headers=headers)


def _resume_point(after: int, last_event_id: str) -> int:
    try:
        from_header = parse_last_event_id(last_event_id)
    except ValueError as error:
        raise ApiError(422, "invalid_request", str(error)) from None
    return after if from_header is None else from_header


async def _counted(streams: _OpenStreams, frames: AsyncGenerator[str, None]) -> AsyncIterator[str]:
    # Counted from the first frame to the end, however it ends (shutdown, a client that went
    # away, an error): a stream that never started holds no slot.
    streams.count += 1
    try:
        async for frame in frames:
            yield frame
    finally:
        streams.count -= 1
        await frames.aclose()
