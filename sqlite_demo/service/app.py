"""The agent as an HTTP service: FastAPI endpoints over the event store (SQLite or PostgreSQL).

The OpenAPI schema (``/openapi.json``) is the contract: every status an operation can answer
with is documented there with the one error shape (:mod:`sqlite_demo.service.http_errors`), the
limits are in it, and schemathesis checks the service against it in the test suite.

The path of one ``POST /sessions/{id}/messages``, and what each hop adds:

0. ``access``: the Host it was sent to, and the token (a header or the page's cookie).
1. ``body_guard``: JSON, UTF-8 and 1 MiB, before FastAPI reads a byte of the body.
2. ``app`` (here): the body against its published schema (``api_schema``), and the
   turn's JSON answer.
3. ``agent``: the turn. It reads the session (only what is new since it last looked),
   asks ``model`` for each step, and appends each step with the version it decided on.
4. ``store``: the rules (``eventlog``), then the transaction for the SQL (the contract is
   :mod:`sqlite_demo.store.contract`; :func:`~sqlite_demo.store.open_store` picks the backend).
5. the backend's ``writes`` and ``projections``: the SQL of one append: event row, projection row.
6. ``http_errors``: only when something is refused, the one error shape and its status.

The endpoints are plain ``def`` functions, so FastAPI runs them in worker threads; no lock is
held around a turn, only the store's own (a lock, or a pooled connection) around its SQL.
The list reads answer a page at a time (:mod:`sqlite_demo.service.pages`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import FastAPI, Header, Request
from fastapi.responses import JSONResponse, Response

from eventlog import StorageError
from sqlite_demo.service.access import AccessGuard, AccessPolicy, document_access
from sqlite_demo.service.agent import Agent
from sqlite_demo.service.api_schema import (
    MAX_IDEMPOTENCY_KEY_CHARS,
    SESSION_LINKS,
    ChatMessage,
    EventOut,
    Health,
    MessageOut,
    NewMessage,
    NewSession,
    SessionOut,
    TurnOut,
)
from sqlite_demo.service.body_guard import BodyGuard
from sqlite_demo.service.event_json import event_json, events_json_text
from sqlite_demo.service.http_errors import documented, install_error_handlers
from sqlite_demo.service.model import Model, scripted_model
from sqlite_demo.service.pages import (
    MAX_PAGE,
    NEXT_PAGE_RESPONSE,
    AfterEventId,
    PageLimit,
    name_next_page,
)
from sqlite_demo.store.contract import EventStore, check_writable_or_busy
from sqlite_demo.store.opening import open_store
from sqlite_demo.store.sqlite.connection import Synchronous

IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=MAX_IDEMPOTENCY_KEY_CHARS,
        description="Names this request: a repeat gets the first answer and writes nothing.",
    ),
]
#: Statuses every operation on a session's data can answer with, besides its success.
_SESSION_ERRORS: Final = (404, 422, 500, 503)


def create_api(
    db: str | Path,
    synchronous: Synchronous = "NORMAL",
    model: Model = scripted_model,
    access: AccessPolicy | None = None,
) -> FastAPI:
    """Build the agent's HTTP API; the store opens when the app starts and closes when it stops.

    The live page is added on top of it by :func:`sqlite_demo.app.create_app`, the app
    ``serve`` runs: the API knows nothing of the page.

    Args:
        db: the SQLite file (created with its schema when missing), or a ``postgresql://``
            URL (see :func:`~sqlite_demo.store.open_store`).
        synchronous: SQLite's ``"NORMAL"`` survives a killed process, ``"FULL"`` a power
            cut too; PostgreSQL always waits for its WAL at COMMIT.
        model: the brain of the agent loop; tests pass one that fails on purpose.
        access: the token and Host names the door checks (see :mod:`sqlite_demo.service.access`);
            None checks nothing, for an app in a test or behind the caller's own gate.
            ``serve`` always passes one.

    The app refuses to start (raising :class:`~eventlog.StorageError`) on a database it
    cannot write: better no service than one that fails every write.
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = open_store(db, synchronous=synchronous)
        try:
            check_writable_or_busy(store)
            app.state.store = store
            app.state.agent = Agent(store, model)
            yield
        finally:
            store.close()

    # No /docs or /redoc: FastAPI's pages load their scripts from a CDN, and this server
    # answers with nothing that points elsewhere. /openapi.json is the contract; open it in
    # any OpenAPI viewer.
    app = FastAPI(
        title="sqlite_demo agent", version="1", lifespan=lifespan, docs_url=None, redoc_url=None
    )
    install_error_handlers(app)
    app.add_middleware(BodyGuard)
    if access is not None:
        # Added last, so it runs first: a refused request never reaches the body guard.
        app.add_middleware(AccessGuard, policy=access)
        _document_access(app, access)
    _add_session_routes(app)
    _add_read_routes(app)
    return app


def _document_access(app: FastAPI, access: AccessPolicy) -> None:
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document_access(build(), access)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way


def _add_session_routes(app: FastAPI) -> None:
    @app.get("/health", operation_id="health", responses=documented(503))
    def health(request: Request) -> Health:
        """Whether the service can write its database now (a write is tried, then undone).

        Another process holding the write lock just then makes the database busy, not
        broken: that is still a 200, so a health check does not flap under load.
        """
        try:
            _store(request).check_writable()
        except StorageError as fault:
            if fault.reason != "busy":
                raise
            return Health(status="ok", database="busy")
        return Health(status="ok", database="writable")

    @app.post(
        "/sessions",
        status_code=201,
        operation_id="create_session",
        responses={
            201: {"description": "The new session.", "links": SESSION_LINKS},
            **documented(400, 413, 415, 422, 500, 503),
        },
    )
    def create_session(body: NewSession, request: Request) -> SessionOut:
        """Create a session with a random, unguessable id."""
        return SessionOut.of(_store(request).create_session(body.title))

    @app.get("/sessions", operation_id="list_sessions", responses=documented(500, 503))
    def list_sessions(request: Request) -> list[SessionOut]:
        """Every session, with or without messages, oldest first."""
        return [SessionOut.of(session) for session in _store(request).list_all_sessions()]

    @app.post(
        "/sessions/{session_id}/messages",
        operation_id="post_message",
        response_model=TurnOut,
        responses=documented(400, 409, 413, 415, *_SESSION_ERRORS),
    )
    def post_message(
        session_id: str, body: NewMessage, request: Request, key: IdempotencyKey = None
    ) -> JSONResponse:
        """Take one turn: the reply, and the events of the turn, every one already committed."""
        agent: Agent = request.app.state.agent
        turn = agent.handle_message(session_id, body.content, idempotency_key=key)
        return JSONResponse(
            {
                "reply": turn.reply,
                "events": [event_json(event) for event in turn.events],
                "recovered_events": [event_json(event) for event in turn.recovered],
                "repeated": turn.repeated,
            }
        )


def _add_read_routes(app: FastAPI) -> None:
    @app.get(
        "/sessions/{session_id}/messages",
        operation_id="get_messages",
        response_model=list[MessageOut],
        responses={200: NEXT_PAGE_RESPONSE, **documented(*_SESSION_ERRORS)},
    )
    def get_messages(
        session_id: str, request: Request, after: AfterEventId = 0, limit: PageLimit = MAX_PAGE
    ) -> Response:
        """The ``messages`` projection: user and assistant messages, by event id, one page at
        a time (``Link: <...>; rel="next"`` names the next page when there is one)."""
        store = _known_session_store(request, session_id)
        rows = store.get_messages(session_id, after_event_id=after, limit=limit + 1)
        body = [{"event_id": r.event_id, "role": r.role, "content": r.content} for r in rows]
        return name_next_page(
            request, JSONResponse(body[:limit]), [r.event_id for r in rows], limit
        )

    @app.get(
        "/sessions/{session_id}/events",
        operation_id="get_events",
        response_model=list[EventOut],
        responses={200: NEXT_PAGE_RESPONSE, **documented(*_SESSION_ERRORS)},
    )
    def get_events(
        session_id: str, request: Request, after: AfterEventId = 0, limit: PageLimit = MAX_PAGE
    ) -> Response:
        """The session's events with ``event_id > after``, oldest first: how a client resumes.

        One page at a time: ``Link: <...>; rel="next"`` names the next page when there is one.
        """
        store = _known_session_store(request, session_id)
        events = store.get_events_for_session(session_id, after_event_id=after, limit=limit + 1)
        body = Response(events_json_text(events[:limit]), media_type="application/json")
        return name_next_page(request, body, [event.event_id for event in events], limit)

    @app.get(
        "/sessions/{session_id}/replay",
        operation_id="replay",
        response_model=list[ChatMessage],
        responses=documented(*_SESSION_ERRORS),
    )
    def replay(session_id: str, request: Request) -> JSONResponse:
        """The session folded into OpenAI Chat Completions messages, ready for a model."""
        return JSONResponse(_known_session_store(request, session_id).replay_session(session_id))


def _store(request: Request) -> EventStore:
    store: EventStore = request.app.state.store
    return store


def _known_session_store(request: Request, session_id: str) -> EventStore:
    store = _store(request)
    store.get_session(session_id)  # raises UnknownSessionError: 404
    return store
