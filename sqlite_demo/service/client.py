"""A small synchronous client for the agent service, one method per endpoint."""

from __future__ import annotations

from types import TracebackType
from typing import Any

import httpx

from sqlite_demo.service.http_errors import ApiError

JsonObject = dict[str, Any]

__all__ = ["AgentClient", "ApiError", "lend_token"]

#: Tokens of the servers this process started, by base URL (see :func:`lend_token`).
_LENT_TOKENS: dict[str, str] = {}


def lend_token(base_url: str, token: str) -> None:
    """Let clients of ``base_url`` in this process use ``token`` without being given it.

    :class:`~sqlite_demo.server.ServerProcess` lends the token of each server it starts, so
    that ``AgentClient(server.url)`` works as it did before the service had a door. The
    token stays in this process's memory; nothing is written anywhere.
    """
    _LENT_TOKENS[base_url.rstrip("/")] = token


class AgentClient:
    """Talks JSON to one running service over one kept-alive connection pool.

    Args:
        base_url: e.g. ``http://127.0.0.1:8123``.
        timeout: seconds per request.
        token: the service's token, sent as ``Authorization: Bearer``; None uses the token
            lent for ``base_url`` by a server this process started (:func:`lend_token`), if
            any, and else sends none.

    Every method raises :class:`ApiError` when the service refuses the request (its status,
    code, message and whether a retry can help), and ``httpx.TransportError`` when the
    service cannot be reached or died mid-request.
    """

    def __init__(self, base_url: str, timeout: float = 10.0, token: str | None = None) -> None:
        token = token or _LENT_TOKENS.get(base_url.rstrip("/"))
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        self._http = httpx.Client(base_url=base_url, timeout=timeout, headers=headers)

    def health(self) -> JsonObject:
        """Return ``{"status": "ok", "database": "writable"}`` (or ``"busy"``) when healthy."""
        return _object(self._request("GET", "/health"))

    def create_session(self, title: str) -> JsonObject:
        """Create a session; return ``{"id", "title", "created_at"}``."""
        return _object(self._request("POST", "/sessions", json={"title": title}))

    def list_sessions(self) -> list[JsonObject]:
        """Return every session, oldest first."""
        return _objects(self._request("GET", "/sessions"))

    def send_message(
        self, session_id: str, content: str, idempotency_key: str | None = None
    ) -> JsonObject:
        """Take one turn; return ``{"reply", "events", "recovered_events", "repeated"}``.

        A retry with the same ``idempotency_key`` is safe: it gets the first answer.
        """
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
        path = f"/sessions/{session_id}/messages"
        return _object(self._request("POST", path, json={"content": content}, headers=headers))

    def get_messages(self, session_id: str) -> list[JsonObject]:
        """Return the session's ``messages`` projection rows, every page."""
        return self._every_page(f"/sessions/{session_id}/messages", 0)

    def get_events(self, session_id: str, after: int = 0) -> list[JsonObject]:
        """Return the session's events with ``event_id > after``, oldest first, every page."""
        return self._every_page(f"/sessions/{session_id}/events", after)

    def replay(self, session_id: str) -> list[JsonObject]:
        """Return the session replayed as OpenAI chat messages."""
        return _objects(self._request("GET", f"/sessions/{session_id}/replay"))

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def __enter__(self) -> AgentClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _every_page(self, path: str, after: int) -> list[JsonObject]:
        # A read answers one page at a time; its Link header names the next page, if any.
        response = self._response("GET", path, params={"after": after})
        rows = _objects(response.json())
        while (next_page := response.links.get("next", {}).get("url")) is not None:
            response = self._response("GET", next_page)
            rows += _objects(response.json())
        return rows

    def _request(self, method: str, path: str, **options: Any) -> object:
        body: object = self._response(method, path, **options).json()
        return body

    def _response(self, method: str, path: str, **options: Any) -> httpx.Response:
        response = self._http.request(method, path, **options)
        if response.is_success:
            return response
        raise _refusal(response)


def _refusal(response: httpx.Response) -> ApiError:
    """Read the service's error shape; a body without it (a proxy's page) still says what."""
    try:
        error = response.json()["error"]
        return ApiError(
            response.status_code, error["code"], error["message"], retryable=error["retryable"]
        )
    except (ValueError, KeyError, TypeError):
        return ApiError(response.status_code, "http_error", response.text[:200])


def _object(body: object) -> JsonObject:
    if not isinstance(body, dict):
        raise TypeError(f"expected a JSON object from the service, got {type(body).__name__}")
    return body


def _objects(body: object) -> list[JsonObject]:
    if not isinstance(body, list) or not all(isinstance(item, dict) for item in body):
        raise TypeError("expected a JSON array of objects from the service")
    return body
