"""How the HTTP service says no: one JSON error shape, and a body-size guard.

Every refusal, whoever raises it (our endpoints, FastAPI's validation, Starlette's routing,
the size guard), has the same body, so a client needs one error path::

    {"error": {"code": "unknown_session", "message": "no session 'sess_x'"}}

Nothing is written before a request has passed every check, so a refused request leaves
the database exactly as it was.

======  ======================  ==========================================================
status  code                    when
======  ======================  ==========================================================
400     malformed_json          the body is not JSON at all
404     unknown_session         no session has this id
404     not_found               no such route
405     method_not_allowed      the route exists, the method does not
409     idempotency_key_reused  the key was used before for a different message
413     content_too_large       content over 64 KiB of UTF-8, or a body over 1 MiB (a
                                declared Content-Length over it is refused unread)
422     invalid_request         JSON of the wrong shape: a missing, unknown (extra) or
                                wrong-typed field, an empty content or title, a title over
                                200 characters, an ``after`` that is not an int >= 0, an
                                empty or over-long Idempotency-Key
500     internal_error          the server failed mid-turn; the next request finishes the
                                turn, and a retry with the same key is safe
======  ======================  ==========================================================
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Largest request body read at all; a larger declared Content-Length is refused unread.
MAX_BODY_BYTES: Final = 1024 * 1024
#: Largest message content (UTF-8 bytes). JSON escapes can make the body up to six times
#: bigger than the text (``\\u00e9``), so the body limit leaves room for any escaped content.
MAX_CONTENT_BYTES: Final = 64 * 1024

_STATUS_CODES: Final = {404: "not_found", 405: "method_not_allowed", 413: "content_too_large"}


class ApiError(Exception):
    """A refusal an endpoint raises: HTTP status, machine-readable code, plain message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def error_body(code: str, message: str) -> dict[str, Any]:
    """Return the one error shape every refusal uses."""
    return {"error": {"code": code, "message": message}}


def install_error_handlers(app: FastAPI) -> None:
    """Make FastAPI's and Starlette's own refusals speak the kit's error shape."""
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _internal_error)


async def _api_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ApiError)
    return JSONResponse(error_body(error.code, error.message), status_code=error.status)


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    code = _STATUS_CODES.get(error.status_code, "http_error")
    return JSONResponse(error_body(code, str(error.detail)), status_code=error.status_code)


async def _internal_error(request: Request, error: Exception) -> JSONResponse:
    # Starlette still logs the traceback; the client gets the usual shape and the one
    # thing it can do: retry. Steps committed before the failure are finished by the next
    # request on the session, and an Idempotency-Key makes the retry safe.
    message = "the server failed to finish the request; retry it with the same Idempotency-Key"
    return JSONResponse(error_body("internal_error", message), status_code=500)


async def _validation_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    problems = error.errors()
    if any(problem["type"] == "json_invalid" for problem in problems):
        # Not JSON at all is a different mistake from JSON of the wrong shape: 400, not 422.
        body = error_body("malformed_json", "the request body is not valid JSON")
        return JSONResponse(body, status_code=400)
    message = "; ".join(_describe(problem) for problem in problems)
    return JSONResponse(error_body("invalid_request", message), status_code=422)


def _describe(problem: Any) -> str:
    """Turn one pydantic problem into plain words: ``body.title: Field required``."""
    location: Sequence[Any] = problem.get("loc", ())
    where = ".".join(str(part) for part in location) or "request"
    return f"{where}: {problem.get('msg', 'is invalid')}"


class BodySizeLimit:
    """ASGI middleware that refuses a request body over ``max_bytes`` with 413.

    A declared ``Content-Length`` over the limit is refused before a byte is read; a body
    without one (chunked) is read up to the limit and refused as soon as it passes it. The
    accepted body is handed on to the app unchanged.
    """

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self._app = app
        self._max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self._max_bytes:
            await self._refuse(send)
            return
        body = await self._read_body(receive)
        if body is None:
            await self._refuse(send)
            return
        await self._app(scope, _replaying(body, receive), send)

    async def _read_body(self, receive: Receive) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self._max_bytes:
                return None
            chunks.append(chunk)
            if message["type"] != "http.request" or not message.get("more_body", False):
                return b"".join(chunks)

    async def _refuse(self, send: Send) -> None:
        text = f"the request body is larger than the limit of {self._max_bytes} bytes"
        body = json.dumps(error_body("content_too_large", text)).encode()
        headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length" and value.isdigit():
            return int(value)
    return None


def _replaying(body: bytes, receive: Receive) -> Receive:
    """Return a ``receive`` that yields the already-read body once, then defers to the real one."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay
