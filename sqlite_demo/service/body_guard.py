"""The guard in front of every request body: JSON only, UTF-8 only, 1 MiB at most.

It runs before routing and before FastAPI reads a byte, as plain ASGI middleware, so that a
body FastAPI would misread gets its own clear refusal instead: a wrong content type would
otherwise be a misleading 422 ("field required"), invalid UTF-8 a generic 400, and a huge
body would be read whole before anyone looked at its size.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sqlite_demo.service.http_errors import error_body
from sqlite_demo.service.languages import accepted_language
from sqlite_demo.texts import Said

#: Largest request body read at all; a larger declared Content-Length is refused unread.
MAX_BODY_BYTES: Final = 1024 * 1024
_JSON_TYPES: Final = ("application/json",)


class BodyGuard:
    """ASGI middleware: refuse a body that is too big (413), not JSON (415) or not UTF-8 (400).

    A declared ``Content-Length`` over the limit is refused before a byte is read; a body
    without one (chunked) is read up to the limit and refused as soon as it passes it; both
    close the connection, the only way to skip the rest of a body. Other refusals come after
    the whole body was read, so the connection stays open. An accepted body is handed on to
    the app unchanged.
    """

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self._app = app
        self._max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self._app(scope, receive, send)
            return
        language = accepted_language(_header(scope, b"accept-language"))
        refuse = partial(_refuse, send, language)
        declared = _header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self._max_bytes:
            await refuse(413, "content_too_large", self._too_large(), close=True)
            return
        body = await self._read_body(receive)
        if body is None:
            await refuse(413, "content_too_large", self._too_large(), close=True)
        elif body and not _is_json(content_type := _header(scope, b"content-type")):
            await refuse(415, "unsupported_media_type", _not_json(content_type))
        elif not _is_utf8(body):
            await refuse(400, "malformed_json", Said("api.not_utf8"))
        else:
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

    def _too_large(self) -> Said:
        return Said("api.too_large", {"limit": self._max_bytes})


def _not_json(content_type: str | None) -> Said:
    if not content_type:
        return Said("api.not_json_unlabelled")
    return Said("api.not_json_type", {"content_type": content_type})


def _is_utf8(body: bytes) -> bool:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _is_json(content_type: str | None) -> bool:
    media_type = (content_type or "").split(";", 1)[0].strip().lower()
    return media_type in _JSON_TYPES


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


async def _refuse(
    send: Send, language: str, status: int, code: str, message: Said, *, close: bool = False
) -> None:
    body = json.dumps(error_body(code, message, language)).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


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
