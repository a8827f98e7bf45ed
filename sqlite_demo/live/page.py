"""The live page: the chat, the event log and the replay side by side, in the browser.

=======  ====================================  ==========================================
GET      /                                     the page (plain HTML, CSS and JavaScript)
GET      /static/{name}                        its stylesheet and scripts, nothing else
GET      /static/texts.js                      its words in English and Chinese, made from
                                               :mod:`sqlite_demo.texts`
GET      /sessions/{id}/tool_calls             the ``tool_calls`` projection rows, paged
GET      /sessions/{id}/events/stream          the session's events as Server-Sent Events
                                               (see :mod:`sqlite_demo.live.stream_route`)
=======  ====================================  ==========================================

The page needs nothing but this server: no build step, no library, no font or script from
another site (learners may be offline). Its Content-Security-Policy says so to the browser,
which then refuses anything from elsewhere, so a stray external link would fail loudly.

What the page shows is derived from the log, as the chapter teaches: the chat panel is drawn
from the stream's ``user_message`` and ``assistant_message`` events, not from the replies
the POSTs return, so what you see after a reconnect is exactly what the log holds. Like
every route but ``/health``, the page and its files need the token
(:mod:`sqlite_demo.service.access`).
"""

from __future__ import annotations

from dataclasses import asdict
from importlib import resources
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from sqlite_demo.live.stream_route import add_stream_route
from sqlite_demo.service.http_errors import ApiError, documented
from sqlite_demo.service.pages import (
    MAX_PAGE,
    NEXT_PAGE_RESPONSE,
    AfterEventId,
    PageLimit,
    name_next_page,
)
from sqlite_demo.store.contract import EventStore
from sqlite_demo.texts import Said, page_script

#: The only files ``/static/`` serves, and their types: a lookup, never a path built from
#: the request, so ``../`` and its encodings have nothing to reach.
STATIC_FILES: Final = {
    "api.js": "text/javascript; charset=utf-8",
    "i18n.js": "text/javascript; charset=utf-8",
    "live.css": "text/css; charset=utf-8",
    "live.js": "text/javascript; charset=utf-8",
    "log_view.js": "text/javascript; charset=utf-8",
    "stream.js": "text/javascript; charset=utf-8",
    "views.js": "text/javascript; charset=utf-8",
}
#: 'self' only: the page may load and fetch from this server and nowhere else. No inline
#: script or style either, so text from the log can never run as code even if it were
#: ever inserted as HTML (the script only sets textContent).
CONTENT_SECURITY_POLICY: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
_PAGE_HEADERS: Final = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    # A learner who edits the page sees the change on reload.
    "Cache-Control": "no-cache",
}


class ToolCallOut(BaseModel):
    """A row of the ``tool_calls`` projection; ``result`` is null until the tool answered."""

    event_id: int
    call_id: str
    name: str
    arguments: str
    result: str | None


def create_live_router() -> APIRouter:
    """Return the routes of the live page, its projection read and its event stream."""
    router = APIRouter()
    _add_page_routes(router)
    _add_tool_calls_route(router)
    add_stream_route(router)
    return router


def _add_page_routes(router: APIRouter) -> None:
    @router.get("/", include_in_schema=False)
    def page() -> Response:
        return _static_response("index.html", "text/html; charset=utf-8")

    @router.get("/static/{name}", include_in_schema=False)
    def static_file(name: str) -> Response:
        if name == "texts.js":  # made from the catalog, so the page's words live in one place
            script = page_script()
            return Response(script, media_type=STATIC_FILES["i18n.js"], headers=_PAGE_HEADERS)
        media_type = STATIC_FILES.get(name)
        if media_type is None:
            raise ApiError(404, "not_found", Said("api.no_static_file", {"name": name}))
        return _static_response(name, media_type)


def _static_response(name: str, media_type: str) -> Response:
    text = resources.files("sqlite_demo.live").joinpath("static", name).read_text(encoding="utf-8")
    return Response(text, media_type=media_type, headers=_PAGE_HEADERS)


def _add_tool_calls_route(router: APIRouter) -> None:
    @router.get(
        "/sessions/{session_id}/tool_calls",
        summary="The session's rows of the tool_calls projection",
        response_model=list[ToolCallOut],
        responses={200: NEXT_PAGE_RESPONSE, **documented(404, 422, 500, 503)},
    )
    def get_tool_calls(
        session_id: str, request: Request, after: AfterEventId = 0, limit: PageLimit = MAX_PAGE
    ) -> Response:
        store: EventStore = request.app.state.store
        store.get_session(session_id)  # raises UnknownSessionError: the app's 404
        rows = store.get_tool_calls(session_id, after_event_id=after, limit=limit + 1)
        response = JSONResponse([asdict(row) for row in rows[:limit]])
        return name_next_page(request, response, [row.event_id for row in rows], limit)
