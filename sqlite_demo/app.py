"""The agent as an HTTP service: FastAPI endpoints over the SQLite event store.

Endpoints (JSON in and out; errors as ``{"error": {"code", "message"}}``, see
:mod:`sqlite_demo.http_errors`):

=======  ================================  ==============================================
POST     /sessions                         ``{"title"}`` -> 201 the new session
GET      /sessions                         every session, oldest first
POST     /sessions/{id}/messages           ``{"content"}`` (+ ``Idempotency-Key``) -> the
                                           reply and the events this turn appended
GET      /sessions/{id}/messages           the ``messages`` projection rows
GET      /sessions/{id}/events?after=N     the session's events with event_id > N
GET      /sessions/{id}/replay             the session as OpenAI chat messages
GET      /health                           ``{"status": "ok"}``
=======  ================================  ==============================================

The endpoints are plain ``def`` functions, so FastAPI runs them in worker threads; one lock
shared with the :class:`~sqlite_demo.agent.Agent` keeps them to one store call at a time.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import FastAPI, Header, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from sqlite_demo.agent import Agent
from sqlite_demo.connection import Synchronous
from sqlite_demo.errors import IdempotencyConflictError, UnknownSessionError
from sqlite_demo.http_errors import (
    MAX_CONTENT_BYTES,
    ApiError,
    BodySizeLimit,
    install_error_handlers,
)
from sqlite_demo.live import create_live_router
from sqlite_demo.model import Model, scripted_model
from sqlite_demo.store import Session, SqliteEventStore, StoredEvent

MAX_TITLE_CHARS: Final = 200
MAX_IDEMPOTENCY_KEY_CHARS: Final = 200


class NewSession(BaseModel):
    """Body of ``POST /sessions``; unknown fields are refused so typos do not pass silently."""

    model_config = ConfigDict(extra="forbid", strict=True)
    title: str = Field(min_length=1, max_length=MAX_TITLE_CHARS)


class NewMessage(BaseModel):
    """Body of ``POST /sessions/{id}/messages``; the size limit is checked in the endpoint."""

    model_config = ConfigDict(extra="forbid", strict=True)
    content: str = Field(min_length=1)


IdempotencyKey = Annotated[
    str | None,
    Header(alias="Idempotency-Key", min_length=1, max_length=MAX_IDEMPOTENCY_KEY_CHARS),
]
#: SQLite's largest integer; a bigger ``after`` cannot even be compared with an event id.
MAX_EVENT_ID: Final = 2**63 - 1
AfterEventId = Annotated[
    int, Query(ge=0, le=MAX_EVENT_ID, description="return events with event_id > after")
]


def create_app(
    db_path: str | Path, synchronous: Synchronous = "NORMAL", model: Model = scripted_model
) -> FastAPI:
    """Build the service; the store opens when the app starts and closes when it stops.

    Args:
        db_path: the SQLite file (created with its schema when missing).
        synchronous: ``"NORMAL"`` survives a killed process, ``"FULL"`` a power cut too.
        model: the brain of the agent loop; tests pass one that fails on purpose.
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = SqliteEventStore(db_path, synchronous=synchronous)
        app.state.store = store
        app.state.lock = threading.Lock()
        app.state.agent = Agent(store, model, lock=app.state.lock)
        try:
            yield
        finally:
            store.close()

    app = FastAPI(title="sqlite_demo agent", lifespan=lifespan)
    install_error_handlers(app)
    app.add_middleware(BodySizeLimit)
    _add_routes(app)
    app.include_router(create_live_router(event_json))  # the page at / and the event stream
    return app


def _add_routes(app: FastAPI) -> None:
    @app.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/sessions", status_code=201)
    def create_session(body: NewSession, request: Request) -> dict[str, Any]:
        with request.app.state.lock:
            return session_json(_store(request).create_session(body.title))

    @app.get("/sessions")
    def list_sessions(request: Request) -> list[dict[str, Any]]:
        with request.app.state.lock:
            return [session_json(session) for session in _store(request).list_sessions()]

    @app.post("/sessions/{session_id}/messages")
    def post_message(
        session_id: str, body: NewMessage, request: Request, key: IdempotencyKey = None
    ) -> dict[str, Any]:
        _check_content_size(body.content)
        agent: Agent = request.app.state.agent
        try:
            turn = agent.handle_message(session_id, body.content, idempotency_key=key)
        except UnknownSessionError as error:
            raise ApiError(404, "unknown_session", str(error)) from None
        except IdempotencyConflictError as error:
            raise ApiError(409, "idempotency_key_reused", str(error)) from None
        return {
            "reply": turn.reply,
            "events": [event_json(event) for event in turn.events],
            "recovered_events": [event_json(event) for event in turn.recovered],
            "repeated": turn.repeated,
        }

    @app.get("/sessions/{session_id}/messages")
    def get_messages(session_id: str, request: Request) -> list[dict[str, Any]]:
        with request.app.state.lock:
            store = _known_session_store(request, session_id)
            rows = store.get_messages(session_id)
        return [{"event_id": r.event_id, "role": r.role, "content": r.content} for r in rows]

    @app.get("/sessions/{session_id}/events")
    def get_events(session_id: str, request: Request, after: AfterEventId = 0) -> list[Any]:
        with request.app.state.lock:
            store = _known_session_store(request, session_id)
            events = store.get_events_for_session(session_id, after_event_id=after)
        return [event_json(event) for event in events]

    @app.get("/sessions/{session_id}/replay")
    def replay(session_id: str, request: Request) -> list[dict[str, Any]]:
        with request.app.state.lock:
            return _known_session_store(request, session_id).replay_session(session_id)


def session_json(session: Session) -> dict[str, Any]:
    """Return a session as the API shows it."""
    return {"id": session.id, "title": session.title, "created_at": session.created_at}


def event_json(event: StoredEvent) -> dict[str, Any]:
    """Return an event as the API shows it, payload as a plain JSON object."""
    return {
        "event_id": event.event_id,
        "session_id": event.session_id,
        "type": event.type,
        "payload": dict(event.payload),
        "created_at": event.created_at,
    }


def _store(request: Request) -> SqliteEventStore:
    store: SqliteEventStore = request.app.state.store
    return store


def _known_session_store(request: Request, session_id: str) -> SqliteEventStore:
    store = _store(request)
    try:
        store.get_session(session_id)
    except UnknownSessionError as error:
        raise ApiError(404, "unknown_session", str(error)) from None
    return store


def _check_content_size(content: str) -> None:
    size = len(content.encode("utf-8"))
    if size > MAX_CONTENT_BYTES:
        raise ApiError(
            413,
            "content_too_large",
            f"content is {size} bytes of UTF-8; the limit is {MAX_CONTENT_BYTES} bytes",
        )
