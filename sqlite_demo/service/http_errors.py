"""How the HTTP service says no: one JSON error shape, whoever refuses the request.

Our endpoints, the store's errors, FastAPI's validation, Starlette's routing and the body
guard (:mod:`sqlite_demo.service.body_guard`) all answer with the same body, so a client needs one
error path, and ``retryable`` tells it whether sending the same request again can help::

    {"error": {"code": "unknown_session", "message": "no session 'sess_x'", "retryable": false}}

The ``message`` is worded for a person in the language the request asks for (its
``Accept-Language``: see :mod:`sqlite_demo.service.languages`); a refusal is kept as a
message id and its fields (:class:`~sqlite_demo.texts.Said`) until then.

Nothing is written before a request has passed every check, so a refused request leaves
the database as it was. :data:`DESCRIPTIONS` says when each status is sent; it is what the
OpenAPI schema shows for every operation that can answer with it (see :func:`documented`).
A 405 lists the allowed methods in ``Allow``; a retryable 503 says when in ``Retry-After``;
a 500 is a bug, and its ``Connection: close`` tells the client the connection is dropped.
"""

from __future__ import annotations

from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from eventlog import EventLogError, IdempotencyConflictError, StorageError, UnknownSessionError
from sqlite_demo.service.agent import SessionBusyError
from sqlite_demo.service.languages import accepted_language
from sqlite_demo.texts import Said, refusal

#: How long a client should wait before retrying a retryable 503, in seconds.
RETRY_AFTER_SECONDS: Final = 1
#: The schema of the ``Retry-After`` a retryable 503 carries.
RETRY_AFTER_HEADER: Final = {
    "Retry-After": {
        "description": "Seconds to wait before retrying; sent when `retryable` is true.",
        "required": False,
        "schema": {"type": "integer", "minimum": 0},
    }
}

#: When each status is sent, with the codes it carries; the schema shows these words.
DESCRIPTIONS: Final = {
    400: "The body is not valid JSON, or not UTF-8 (`malformed_json`).",
    401: "The request carries no token, or a wrong one (`unauthorized`): send"
    " `Authorization: Bearer <token>`, or the cookie the page sets. `/health` answers"
    " without a token, but refuses a wrong one.",
    403: "The Host header names another server than this one (`forbidden_host`).",
    404: "No session has this id (`unknown_session`), or no such route (`not_found`).",
    409: "The Idempotency-Key was used before for a different message (`idempotency_key_reused`).",
    413: "The body is over 1 MiB (`content_too_large`).",
    415: "The body is not `application/json` (`unsupported_media_type`).",
    422: "The JSON has the wrong shape, a value is outside its limits, or a text is not valid"
    " Unicode, such as a lone surrogate (`invalid_request`).",
    500: "A bug in the service (`internal_error`); the connection is closed.",
    503: "The database cannot be written now (`database_read_only`, `database_disk_full`,"
    " `database_io_error`, `database_busy`, `database_cannot_open`, `database_corrupt`),"
    " other writers kept changing the session (`session_busy`), or every event-stream slot"
    " is taken (`too_many_streams`); `retryable` says whether the same request can succeed"
    " later, and `Retry-After` when.",
}


class ErrorDetail(BaseModel):
    """What went wrong, for a program (``code``) and for a person (``message``)."""

    code: str
    message: str
    retryable: bool


class ErrorBody(BaseModel):
    """The one shape of every refusal."""

    error: ErrorDetail


class ApiError(Exception):
    """A refusal, as an endpoint raises it (its message still to be worded, :class:`Said`)
    and as the client receives it (worded)."""

    def __init__(
        self, status: int, code: str, message: str | Said, *, retryable: bool = False
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.retryable = retryable


def error_body(
    code: str, message: str | Said, language: str = "en", *, retryable: bool = False
) -> dict[str, Any]:
    """Return the one error shape every refusal uses, its message worded in ``language``."""
    worded = message.worded(language) if isinstance(message, Said) else message
    return {"error": {"code": code, "message": worded, "retryable": retryable}}


def error_response(
    request: Request,
    status: int,
    code: str,
    message: str | Said,
    *,
    retryable: bool = False,
    **headers: str,
) -> JSONResponse:
    """Return a refusal in the request's language; a retryable 503 also says when to retry
    (``Retry-After``)."""
    if status == 503 and retryable:
        headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    language = accepted_language(request.headers.get("accept-language"))
    body = error_body(code, message, language, retryable=retryable)
    return JSONResponse(body, status_code=status, headers=headers)


#: What every operation can answer, whatever it does: the door's refusals.
DOOR_STATUSES: Final = (401, 403)


def documented(*statuses: int, by_reference: bool = False) -> dict[int | str, dict[str, Any]]:
    """Return the ``responses=`` of an operation that can answer with ``statuses``.

    The door's refusals (:data:`DOOR_STATUSES`) are added to every operation.

    Args:
        by_reference: name the error schema as JSON explicitly, by reference, instead of
            through the model: for an operation whose own response class is not JSON (the
            event stream), which FastAPI would otherwise give to its refusals too.
    """
    responses: dict[int | str, dict[str, Any]] = {}
    for status in sorted({*DOOR_STATUSES, *statuses}):
        response: dict[str, Any] = {"description": DESCRIPTIONS[status]}
        if by_reference:
            schema = {"$ref": "#/components/schemas/ErrorBody"}
            response["content"] = {"application/json": {"schema": schema}}
        else:
            response["model"] = ErrorBody
        if status == 503:
            response["headers"] = RETRY_AFTER_HEADER
        responses[status] = response
    return responses


def install_error_handlers(app: FastAPI) -> None:
    """Make every refusal, ours or the framework's, speak the kit's error shape."""
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(UnknownSessionError, _unknown_session)
    app.add_exception_handler(IdempotencyConflictError, _idempotency_conflict)
    app.add_exception_handler(StorageError, _storage_error)
    app.add_exception_handler(SessionBusyError, _session_busy)
    app.add_exception_handler(EventLogError, _refused_by_a_rule)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _internal_error)


async def _api_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ApiError)
    return error_response(
        request, error.status, error.code, error.message, retryable=error.retryable
    )


async def _unknown_session(request: Request, error: Exception) -> JSONResponse:
    said = Said("api.unknown_session", {"session_id": request.path_params.get("session_id", "")})
    return error_response(request, 404, "unknown_session", said)


async def _idempotency_conflict(request: Request, error: Exception) -> JSONResponse:
    key = request.headers.get("idempotency-key", "")
    said = Said("api.idempotency_reused", {"key": key})
    return error_response(request, 409, "idempotency_key_reused", said)


async def _storage_error(request: Request, error: Exception) -> JSONResponse:
    # Handled here, as a response like any other, so the connection stays open: only an
    # exception that reaches the server itself makes it drop the connection.
    assert isinstance(error, StorageError)
    said = Said(f"api.database.{error.reason}", {"detail": str(error)})
    code = f"database_{error.reason}"
    return error_response(request, 503, code, said, retryable=error.retryable)


async def _session_busy(request: Request, error: Exception) -> JSONResponse:
    session_id = request.path_params.get("session_id", "")
    said = Said("api.session_busy", {"session_id": session_id})
    return error_response(request, 503, "session_busy", said, retryable=True)


async def _refused_by_a_rule(request: Request, error: Exception) -> JSONResponse:
    # The rules the body's schema could not express, as the store applies them, in the
    # request's language; the few refusals said in English only get general words there.
    assert isinstance(error, EventLogError)
    said = refusal(error)
    if not isinstance(said, Said):
        said = Said("api.rule", {"detail": said})
    return error_response(request, 422, "invalid_request", said)


async def _validation_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    problems = error.errors()
    if any(problem["type"] == "json_invalid" for problem in problems):
        # Not JSON at all is a different mistake from JSON of the wrong shape: 400, not 422.
        return error_response(request, 400, "malformed_json", Said("api.malformed_json"))
    language = accepted_language(request.headers.get("accept-language"))
    message = "; ".join(describe_problem(problem, language) for problem in problems)
    return error_response(request, 422, "invalid_request", message)


#: pydantic's problem types -> the catalog's words for them.
_PROBLEMS: Final = {
    "missing": "missing",
    "string_too_long": "string_too_long",
    "string_too_short": "string_too_short",
    "string_type": "string_type",
    "int_parsing": "int_parsing",
    "int_type": "int_type",
    "greater_than_equal": "greater_than_equal",
    "less_than_equal": "less_than_equal",
    "extra_forbidden": "extra_forbidden",
    "model_attributes_type": "object",
    "dict_type": "object",
    "model_type": "object",
    "value_error": "value_error",
    "literal_error": "literal_error",
}


def describe_problem(problem: Any, language: str) -> str:
    """Turn one pydantic problem into plain words: ``body.title: Field required``."""
    where = ".".join(str(part) for part in problem.get("loc", ())) or "request"
    kind = _PROBLEMS.get(problem.get("type", ""), "other")
    fields = {
        **{key: str(value) for key, value in (problem.get("ctx") or {}).items()},
        "message": problem.get("msg", "is invalid"),
        "type": problem.get("type", "?"),
    }
    said = Said("api.invalid_field", {"where": where, "problem": Said(f"api.field.{kind}", fields)})
    return said.worded(language)


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    if error.status_code == 405:
        allowed = ", ".join(_allowed_methods(request))
        said = Said("api.method_not_allowed", {"method": request.method, "allowed": allowed})
        return error_response(request, 405, "method_not_allowed", said, Allow=allowed)
    if error.status_code == 404:
        said = Said("api.not_found", {"path": request.url.path})
        return error_response(request, 404, "not_found", said)
    said = Said("api.http_error", {"status": error.status_code})
    return error_response(request, error.status_code, "http_error", said)


def _allowed_methods(request: Request) -> list[str]:
    # Starlette names the methods of the first route matching the path only; a path served
    # by several routes (GET and POST /sessions) must list them all.
    methods: set[str] = set()
    for route in request.app.router.routes:
        if route.matches(request.scope)[0] is not Match.NONE:
            methods |= getattr(route, "methods", None) or set()
    return sorted(methods)


async def _internal_error(request: Request, error: Exception) -> JSONResponse:
    # Starlette re-raises the error after this response, and the server then drops the
    # connection: Connection: close says so, instead of leaving a client to find out.
    said = Said("api.internal_error")
    return error_response(request, 500, "internal_error", said, Connection="close")
