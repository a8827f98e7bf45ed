"""The body guard as ASGI middleware, driven message by message: what it reads of a body
before refusing it, and that an accepted body reaches the app unchanged.

A real server's side of the same refusals (the client still sending) is in
``test_body_guard_on_the_wire.py``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable
from dataclasses import dataclass, field

from starlette.types import Message, Receive, Scope, Send

from sqlite_demo.service.body_guard import MAX_BODY_BYTES, BodyGuard

CHUNK = 64 * 1024


@dataclass
class Exchange:
    """One request through the guard: what it received, what it sent, what the app saw."""

    received: int = 0
    sent: list[Message] = field(default_factory=list)
    app_body: bytes | None = None

    @property
    def status(self) -> int:
        return int(self.sent[0]["status"])

    @property
    def headers(self) -> dict[bytes, bytes]:
        return dict(self.sent[0]["headers"])

    @property
    def code(self) -> str:
        return str(json.loads(self.sent[1]["body"])["error"]["code"])


def post(headers: dict[str, str], chunks: list[bytes], *, endless: bool = False) -> Exchange:
    """Send a POST through the guard, its body in ``chunks``; with ``endless``, the body
    never ends (the last chunk says more follows, and no more ever comes)."""
    exchange = Exchange()
    scope: Scope = {
        "type": "http",
        "method": "POST",
        "path": "/sessions",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }
    pending = list(chunks)

    async def receive() -> Message:
        if not pending:
            await asyncio.Event().wait()  # a client that never sends the rest
        exchange.received += 1
        chunk = pending.pop(0)
        return {"type": "http.request", "body": chunk, "more_body": endless or bool(pending)}

    async def send(message: Message) -> None:
        exchange.sent.append(message)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        exchange.app_body = body
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    run(BodyGuard(app)(scope, receive, send))
    return exchange


def run(call: Awaitable[None], seconds: float = 10) -> None:
    """Run ``call``; a guard that waits for a body that never comes fails, it does not hang."""

    async def bounded() -> None:
        await asyncio.wait_for(call, seconds)

    asyncio.run(bounded())


JSON: dict[str, str] = {"content-type": "application/json"}


def test_a_declared_length_over_the_limit_is_refused_without_reading_a_byte() -> None:
    declared = {**JSON, "content-length": str(MAX_BODY_BYTES + 1)}

    exchange = post(declared, [b"x" * CHUNK], endless=True)

    assert (exchange.status, exchange.code) == (413, "content_too_large")
    assert exchange.received == 0 and exchange.app_body is None
    assert exchange.headers[b"connection"] == b"close"


def test_an_endless_body_is_refused_as_soon_as_it_passes_the_limit() -> None:
    past_the_limit = MAX_BODY_BYTES // CHUNK + 1

    exchange = post(JSON, [b"x" * CHUNK] * (past_the_limit + 5), endless=True)

    assert (exchange.status, exchange.code) == (413, "content_too_large")
    assert exchange.received == past_the_limit and exchange.app_body is None
    assert exchange.headers[b"connection"] == b"close"


def test_a_body_at_the_limit_reaches_the_app_unchanged_in_one_piece() -> None:
    chunks = [bytes([65 + i % 26]) * CHUNK for i in range(MAX_BODY_BYTES // CHUNK)]

    exchange = post(JSON, chunks)

    assert exchange.status == 200
    assert exchange.app_body == b"".join(chunks)


def test_a_refusal_after_the_whole_body_keeps_the_connection() -> None:
    refusals: list[tuple[dict[str, str], bytes, tuple[int, str]]] = [
        ({"content-type": "text/plain"}, b"{}", (415, "unsupported_media_type")),
        ({}, b'{"title": "x"}', (415, "unsupported_media_type")),
        (JSON, b'{"content": "\xff"}', (400, "malformed_json")),
    ]
    for headers, body, expected in refusals:
        exchange = post(headers, [body[:1], body[1:]])

        assert (exchange.status, exchange.code) == expected, headers
        assert exchange.received == 2 and exchange.app_body is None
        assert b"connection" not in exchange.headers


def test_a_request_without_a_body_passes_to_the_app_whatever_its_type() -> None:
    exchange = post({}, [b""])

    assert (exchange.status, exchange.app_body) == (200, b"")
