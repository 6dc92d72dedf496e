"""Every error as an RFC 9457 problem+json body with a stable type and an actionable detail.

Handlers never put a stack trace, a token or internal state in a response; a 500 says
only that the fault is ours (the traceback goes to the server's log).
"""

import logging

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from prometheus_client import Counter

from core import InvalidState
from service.games.bodies.common import TITLES, Problem
from service.http.errors import ApiError
from service.http.framework_errors import (
    ArchiveUnreachable,
    BodyTooLarge,
    HttpError,
    InternalError,
    InvalidRequest,
    MalformedRequest,
    MethodNotAllowed,
    RouteNotFound,
    StoreUnreachable,
)
from service.sql.database import DatabaseUnavailable
from service.store import StoreUnavailable

log = logging.getLogger("service.errors")

MEDIA_TYPE = "application/problem+json"

# Which problem a response was: a 503 may be the store (store-unavailable), the AI's slots
# (ai-busy) or a stopping worker (draining), which alerts tell apart (deploy/prometheus/).
PROBLEMS = Counter("crab_http_problems", "Problems (RFC 9457) answered, by type and status",
                   ["type", "status"])


def problem(request: Request, error: ApiError) -> Response[Problem]:
    """The answer to every error: each says its status, type, detail, headers and
    extension members itself."""
    status = error.status
    PROBLEMS.labels(error.type, str(status)).inc()
    body = Problem(type=f"/problems/{error.type}", title=TITLES.get(status, "Error"),
                   status=status, detail=error.detail(), instance=request.url.path,
                   **error.extensions())
    return Response(body, status_code=status, media_type=MEDIA_TYPE, headers=error.headers())


# Where a refused value was, as a detail names it (Litestar's `source` of an error, or
# ours: the controllers and service/http/decoding set it on what they refuse).
_PLACES = {"query": "query parameter", "header": "header", "path": "path parameter",
           "cookie": "cookie"}


def _named(request: Request, key: object) -> object:
    """A parameter as the document names it: Litestar names one by its argument
    (`last_event_id`), the document by its header or query name (`Last-Event-ID`)."""
    try:
        parameter = request.route_handler.parsed_fn_signature.parameters[str(key)]
    except (AttributeError, KeyError):
        return key  # named by us (a controller), as the document does
    definition = parameter.kwarg_definition
    return getattr(definition, "header", None) or getattr(definition, "query", None) or key


def _validation(request: Request, exc: ValidationException) -> Response:
    body, elsewhere = [], []
    for item in exc.extra if isinstance(exc.extra, list) else []:
        if not isinstance(item, dict):
            body.append(str(item))
            continue
        key, message = item.get("key"), item.get("message", item)
        if key == "data" and message == "'data'":  # Litestar: no body at all
            return problem(request, MalformedRequest(
                "the request body is empty; send a JSON object"))
        source = item.get("source", "body")
        place = _PLACES.get(getattr(source, "value", source))
        if place is None:
            body.append(message if key in (None, "data") else f"{message} - at `$.{key}`")
        else:
            elsewhere.append(f"invalid {place} `{_named(request, key)}`: {message}")
    if body or not elsewhere:
        elsewhere.insert(0, f"invalid request body: {'; '.join(body) or exc.detail}")
    return problem(request, InvalidRequest("; ".join(elsewhere)))


def _http(request: Request, exc: HTTPException) -> Response:
    status = exc.status_code
    if status == 413:
        limit = request.app.state.settings.max_body_bytes
        return problem(request, BodyTooLarge(f"request bodies are limited to {limit} bytes"))
    if status == 400:
        return problem(request, MalformedRequest(str(exc.detail)))
    if status == 404:
        return problem(request, RouteNotFound(f"no resource at {request.url.path}"))
    if status == 405:
        return problem(request, MethodNotAllowed(
            f"{request.method} is not allowed on {request.url.path}", exc.headers))
    if status >= 500:
        return _internal(request, exc)
    return problem(request, HttpError(status, str(exc.detail)))


def _internal(request: Request, exc: Exception) -> Response:
    log.error("unhandled %s on %s %s", type(exc).__name__, request.method, request.url.path,
              exc_info=exc)
    return problem(request, InternalError(_UNKNOWN_OUTCOME.get(
        request.method, "the server failed to handle this request; nothing was changed")))


# A request that changes something may have failed after its change was committed: say so
# rather than "nothing was changed", which a client would take as leave to send it again.
_UNKNOWN_OUTCOME = {method: "the server failed while handling this request, which may have"
                            " been applied: read the resource before sending it again"
                    for method in ("POST", "PUT", "PATCH", "DELETE")}


def _store_unavailable(request: Request, exc: StoreUnavailable) -> Response:
    log.warning("store unavailable: %s", exc)
    return problem(request, StoreUnreachable())


def _archive_unavailable(request: Request, exc: DatabaseUnavailable) -> Response:
    log.warning("archive unavailable: %s", exc)
    return problem(request, ArchiveUnreachable())


def _corrupt(request: Request, exc: InvalidState) -> Response:
    return _internal(request, exc)


# Every error of ours is an ApiError, answered as it says; what the framework, the store
# and the database raise is translated into one (service/http/framework_errors.py).
HANDLERS = {
    ValidationException: _validation,
    HTTPException: _http,
    ApiError: problem,
    StoreUnavailable: _store_unavailable,
    DatabaseUnavailable: _archive_unavailable,
    InvalidState: _corrupt,
    Exception: _internal,
}
