"""Who may talk to the service: a token at the door, and only the Host names it serves.

Two checks, in this order, before a request reaches routing or reads a byte of its body:

1. **Host.** The ``Host`` header must name the address and port the server serves
   (``127.0.0.1:PORT``, ``localhost:PORT`` and ``[::1]:PORT`` on loopback) or one the operator
   allowed (``--allow-host``). A page on another site that rebinds its DNS name to 127.0.0.1
   still sends its own name as the Host, so it is refused: 403 ``forbidden_host``.
2. **Token**, as Jupyter does it. ``serve`` makes a random token (or takes one), and prints
   the page's address carrying it as ``?token=``. Every route but ``/health`` then asks for it:
   ``Authorization: Bearer <token>``, or the cookie that the page's first load sets from the
   address (HttpOnly, so no script reads it; SameSite=Strict, so no other site's page sends
   it). ``?token=`` itself counts only on the page, ``/``: in any other address it would end
   up in logs and histories. Otherwise 401 ``unauthorized``. A wrong token is refused
   everywhere, ``/health`` included: a client holding a stale one learns it at once.

The token is compared in constant time, and no message, log line or header ever repeats it.
``/health`` stays open for monitors, and says nothing about sessions.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sqlite_demo.service.http_errors import error_body
from sqlite_demo.service.languages import accepted_language
from sqlite_demo.texts import Said

#: Where ``serve`` looks for its token when ``--token`` is not given (not on the command
#: line, which every user of the machine can read); the parent of a server it starts passes
#: the token the same way.
TOKEN_ENVIRONMENT_VARIABLE: Final = "SQLITE_DEMO_TOKEN"
#: What a token may hold: it travels in a URL, a header and a cookie without any escaping.
TOKEN_PATTERN: Final = r"[A-Za-z0-9._~-]{1,256}"
#: Routes anyone who reaches the port may call; every other route needs the token.
OPEN_PATHS: Final = frozenset({"/health"})
#: The one route whose ``?token=`` counts, and sets the cookie.
PAGE_PATH: Final = "/"
UNAUTHORIZED_MESSAGE: Final = Said("api.unauthorized")


def new_token() -> str:
    """Return a fresh random token: 256 bits, URL-safe."""
    return secrets.token_urlsafe(32)


def check_token(token: str) -> str:
    """Return ``token`` if it can travel in a URL, a header and a cookie as it is.

    Raises:
        ValueError: it holds other characters than letters, digits and ``._~-``, or is longer
            than 256 (the message does not repeat it).
    """
    if not re.fullmatch(TOKEN_PATTERN, token):
        raise ValueError("a token is 1 to 256 letters, digits, '.', '_', '~' or '-'")
    return token


def served_hosts(bound_address: str, port: int, extra: Iterable[str] = ()) -> frozenset[str]:
    """Return the Host values to accept: the address served, its loopback names, and ``extra``.

    Args:
        bound_address: the address the socket is bound to (``0.0.0.0`` and ``::`` add none
            of their own: name the address clients use with ``extra``).
        port: the port served; a value of ``extra`` without a port gets this one.
        extra: the operator's own names, ``host`` or ``host:port``.
    """
    address = ipaddress.ip_address(bound_address)
    names: set[str] = set()
    if address.is_loopback:
        names |= {"127.0.0.1", "localhost", "[::1]"}
    elif not address.is_unspecified:
        names.add(f"[{address}]" if address.version == 6 else str(address))
    hosts = {f"{name}:{port}" for name in names}
    hosts |= {normalise_host(value, port) for value in extra}
    return frozenset(hosts)


def normalise_host(value: str, default_port: int = 80) -> str:
    """Return a Host value as ``name:port``, lower case, with the port it implies."""
    value = value.strip().lower().rstrip(".")
    if re.fullmatch(r".*:\d+", value) and (not value.startswith("[") or "]:" in value):
        name, _, port = value.rpartition(":")
        return f"{name.rstrip('.')}:{int(port)}"
    return f"{value}:{default_port}"


@dataclass(frozen=True, slots=True)
class AccessPolicy:
    """What the door checks.

    Attributes:
        token: the token every route but ``/health`` needs; None lets anyone in (``--no-token``).
        allowed_hosts: accepted ``Host`` values as ``name:port`` (see :func:`served_hosts`);
            empty accepts any Host (an app embedded behind the caller's own gate).
        cookie_name: the cookie that carries the token, named after the port: cookies do not
            tell ports apart, and two servers on one machine must not overwrite each other's.
    """

    token: str | None
    allowed_hosts: frozenset[str]
    cookie_name: str = "sqlite_demo_token"

    @classmethod
    def for_server(
        cls, token: str | None, bound_address: str, port: int, extra_hosts: Iterable[str] = ()
    ) -> AccessPolicy:
        """Return the policy of a server bound to ``bound_address:port``."""
        hosts = served_hosts(bound_address, port, extra_hosts)
        return cls(token, hosts, f"sqlite_demo_token_{port}")

    def set_cookie_header(self) -> str:
        """Return the ``Set-Cookie`` value that hands the token to the page."""
        return f"{self.cookie_name}={self.token}; HttpOnly; SameSite=Strict; Path=/"


class AccessGuard:
    """ASGI middleware: refuse a foreign Host (403), then a request without the token (401).

    A page loaded with the right ``?token=`` gets the cookie with its response.
    """

    def __init__(self, app: ASGIApp, policy: AccessPolicy) -> None:
        self._app = app
        self._policy = policy
        self._token = None if policy.token is None else policy.token.encode("ascii")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        headers = _headers(scope)
        if not self._host_allowed(headers.get("host")):
            message = Said("api.forbidden_host")
            close = _may_have_body(scope)
            await _refuse(send, headers, 403, "forbidden_host", message, close=close)
            return
        presented = self._presented(headers)
        path = scope["path"]
        if self._token is None or self._any_matches(presented):
            await self._app(scope, receive, send)
        elif path == PAGE_PATH and self._any_matches([_query_token(scope)]):
            # The cookie replaces any stale one, from an earlier server on this port.
            await self._app(scope, receive, self._with_cookie(send))
        elif path in OPEN_PATHS and not presented:
            await self._app(scope, receive, send)
        else:
            close = _may_have_body(scope)
            await _refuse(
                send, headers, 401, "unauthorized", UNAUTHORIZED_MESSAGE, close=close, bearer=True
            )

    def _host_allowed(self, host: str | None) -> bool:
        allowed = self._policy.allowed_hosts
        return not allowed or (host is not None and normalise_host(host) in allowed)

    def _presented(self, headers: dict[str, str]) -> list[str]:
        """Every token the request offers: its bearer token, and each cookie of ours."""
        scheme, _, credentials = headers.get("authorization", "").partition(" ")
        offered = [credentials.strip()] if scheme.lower() == "bearer" else []
        return offered + _cookies(headers.get("cookie", ""), self._policy.cookie_name)

    def _any_matches(self, candidates: Sequence[str | None]) -> bool:
        # Every candidate is compared, so the time taken does not tell which came close.
        return sum(self._matches(candidate) for candidate in candidates) > 0

    def _matches(self, candidate: str | None) -> bool:
        if candidate is None or self._token is None:
            return False
        try:
            presented = candidate.encode("ascii")
        except UnicodeEncodeError:
            return False
        return hmac.compare_digest(presented, self._token)

    def _with_cookie(self, send: Send) -> Send:
        cookie = self._policy.set_cookie_header().encode("ascii")

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", ()), (b"set-cookie", cookie)]
                message = {**message, "headers": headers}
            await send(message)

        return send_with_cookie


def _headers(scope: Scope) -> dict[str, str]:
    # The last of a repeated header wins, except that Cookie lines are joined as one.
    found: dict[str, str] = {}
    for key, value in scope.get("headers", ()):
        name, text = bytes(key).decode("latin-1"), bytes(value).decode("latin-1")
        if name == "cookie" and name in found:
            text = f"{found[name]}; {text}"
        found[name] = text
    return found


def _cookies(header: str, name: str) -> list[str]:
    values = []
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            values.append(value.strip().strip('"'))
    return values


def _query_token(scope: Scope) -> str | None:
    query = bytes(scope.get("query_string", b"")).decode("latin-1")
    for part in query.split("&"):
        key, _, value = part.partition("=")
        if key == "token":
            return value
    return None


def _may_have_body(scope: Scope) -> bool:
    return scope["method"] in ("POST", "PUT", "PATCH") or any(
        key in (b"content-length", b"transfer-encoding") for key, _ in scope.get("headers", ())
    )


async def _refuse(
    send: Send,
    request_headers: dict[str, str],
    status: int,
    code: str,
    message: Said,
    *,
    close: bool,
    bearer: bool = False,
) -> None:
    language = accepted_language(request_headers.get("accept-language"))
    body = json.dumps(error_body(code, message, language)).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    if bearer:
        headers.append((b"www-authenticate", b'Bearer realm="sqlite_demo"'))
    if close:
        # The body of a refused request is never read: closing the connection skips it.
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def document_access(schema: dict[str, Any], policy: AccessPolicy) -> dict[str, Any]:
    """Write the door into an OpenAPI ``schema``: the token's two ways in, on every operation.

    Every operation requires the bearer token or the cookie, except the open ones
    (:data:`OPEN_PATHS`), which say ``security: []``. Returns ``schema``, changed in place.
    """
    if policy.token is None:
        return schema
    components = schema.setdefault("components", {})
    components["securitySchemes"] = {
        "token": {
            "type": "http",
            "scheme": "bearer",
            "description": "The token `serve` printed (in the page's address as ?token=).",
        },
        "cookie": {
            "type": "apiKey",
            "in": "cookie",
            "name": policy.cookie_name,
            "description": "Set by the page's first load from its ?token= address.",
        },
    }
    for path, operations in schema.get("paths", {}).items():
        for operation in operations.values():
            operation["security"] = [] if path in OPEN_PATHS else [{"token": []}, {"cookie": []}]
    return schema
