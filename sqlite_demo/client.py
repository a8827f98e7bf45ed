"""A small synchronous client for the agent service, one method per endpoint."""

from __future__ import annotations

from types import TracebackType
from typing import Any

import httpx


class ApiError(Exception):
    """The service refused a request; ``status`` and ``code`` say how, ``message`` why."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


class AgentClient:
    """Talks JSON to one running service.

    Args:
        base_url: e.g. ``http://127.0.0.1:8123``.
        timeout: seconds per request.
    """

    def __init__(self, base_url: str, timeout: float = 10.0) -> None:
        self._http = httpx.Client(base_url=base_url, timeout=timeout)

    def health(self) -> dict[str, Any]:
        """Return ``{"status": "ok"}`` from a live service."""
        return self._request("GET", "/health")  # type: ignore[no-any-return]

    def create_session(self, title: str) -> dict[str, Any]:
        """Create a session; return ``{"id", "title", "created_at"}``."""
        return self._request("POST", "/sessions", json={"title": title})  # type: ignore[no-any-return]

    def list_sessions(self) -> list[dict[str, Any]]:
        """Return every session, oldest first."""
        return self._request("GET", "/sessions")  # type: ignore[no-any-return]

    def send_message(
        self, session_id: str, content: str, idempotency_key: str | None = None
    ) -> dict[str, Any]:
        """Take one turn; return ``{"reply", "events", "recovered_events", "repeated"}``.

        Raises:
            ApiError: the service refused the message (unknown session, too large, ...).
            httpx.TransportError: the service could not be reached or died mid-request;
                retrying with the same ``idempotency_key`` is safe.
        """
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
        path = f"/sessions/{session_id}/messages"
        return self._request("POST", path, json={"content": content}, headers=headers)  # type: ignore[no-any-return]

    def get_messages(self, session_id: str) -> list[dict[str, Any]]:
        """Return the session's ``messages`` projection rows."""
        return self._request("GET", f"/sessions/{session_id}/messages")  # type: ignore[no-any-return]

    def get_events(self, session_id: str, after: int = 0) -> list[dict[str, Any]]:
        """Return the session's events with ``event_id > after``, oldest first."""
        path = f"/sessions/{session_id}/events"
        return self._request("GET", path, params={"after": after})  # type: ignore[no-any-return]

    def replay(self, session_id: str) -> list[dict[str, Any]]:
        """Return the session replayed as OpenAI chat messages."""
        return self._request("GET", f"/sessions/{session_id}/replay")  # type: ignore[no-any-return]

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

    def _request(self, method: str, path: str, **options: Any) -> Any:
        response = self._http.request(method, path, **options)
        if response.is_success:
            return response.json()
        error = response.json().get("error", {})
        raise ApiError(response.status_code, error.get("code", "?"), error.get("message", ""))
