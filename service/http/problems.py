"""Every error as an RFC 9457 problem+json body with a stable type and an actionable detail.

Handlers never put a stack trace, a token or internal state in a response; a 500 says
only that the fault is ours (the traceback goes to the server's log).
"""

import logging
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from core import InvalidState
from service.arena.challenges import ChallengeClosed, ChallengeNotFound
from service.arena.series import (
    ForbiddenContestant,
    NotSeriesOwner,
    SeriesNotFound,
    TooManySeries,
)
from service.games.bodies.common import TITLES, Problem
from service.games.limits import OverLimit
from service.games.robots import AIBusy, BudgetRefused, HintsOff, NotYourTurn
from service.games.sessions import (
    GameArchived,
    GameNotFound,
    GameNotOver,
    IdempotencyMismatch,
    InvalidGame,
    MoveRejected,
    NotStarted,
    PlayerNotFound,
    Unauthorized,
    UnknownPlayer,
    VersionConflict,
)
from service.http.rate_limits import RateLimited
from service.lobby.seats import BadCursor, NoSuchSeat, SeatUnavailable
from service.matchmaking.queue import TicketNotFound
from service.replica.shutdown import Draining
from service.reviews.worker import ReviewNotFound, SeatOutOfRange
from service.sql.database import DatabaseUnavailable
from service.store import StoreUnavailable

log = logging.getLogger("service.errors")

MEDIA_TYPE = "application/problem+json"


def problem(request: Request, status: int, slug: str, detail: str,
            headers: dict[str, str] | None = None, **extensions: Any) -> Response[Problem]:
    body = Problem(type=f"/problems/{slug}", title=TITLES.get(status, "Error"), status=status,
                   detail=detail, instance=request.url.path, **extensions)
    return Response(body, status_code=status, media_type=MEDIA_TYPE, headers=headers)


# Where a refused value was, as a detail names it (Litestar's `source` of an error, or
# ours: service/controllers and service/decoding set it on what they refuse).
_PLACES = {"query": "query parameter", "header": "header", "path": "path parameter",
           "cookie": "cookie"}


def _named(request: Request, key: object) -> object:
    """A parameter as the document names it: Litestar names one by its argument
    (`last_event_id`), the document by its header or query name (`Last-Event-ID`)."""
    try:
        parameter = request.route_handler.parsed_fn_signature.parameters[str(key)]
    except (AttributeError, KeyError):
        return key  # named by us (service/controllers), as the document does
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
            return problem(request, 400, "malformed-request",
                           "the request body is empty; send a JSON object")
        source = item.get("source", "body")
        place = _PLACES.get(getattr(source, "value", source))
        if place is None:
            body.append(message if key in (None, "data") else f"{message} - at `$.{key}`")
        else:
            elsewhere.append(f"invalid {place} `{_named(request, key)}`: {message}")
    if body or not elsewhere:
        elsewhere.insert(0, f"invalid request body: {'; '.join(body) or exc.detail}")
    return problem(request, 400, "invalid-request", "; ".join(elsewhere))


def _http(request: Request, exc: HTTPException) -> Response:
    status = exc.status_code
    if status == 413:
        limit = request.app.state.settings.max_body_bytes
        return problem(request, 413, "body-too-large",
                       f"request bodies are limited to {limit} bytes")
    if status == 400:
        return problem(request, 400, "malformed-request", str(exc.detail))
    if status == 404:
        return problem(request, 404, "not-found", f"no resource at {request.url.path}")
    if status == 405:
        return problem(request, 405, "method-not-allowed",
                       f"{request.method} is not allowed on {request.url.path}",
                       headers=exc.headers)
    if status >= 500:
        return _internal(request, exc)
    return problem(request, status, "http-error", str(exc.detail))


def _internal(request: Request, exc: Exception) -> Response:
    log.error("unhandled %s on %s %s", type(exc).__name__, request.method, request.url.path,
              exc_info=exc)
    return problem(request, 500, "internal-error", _UNKNOWN_OUTCOME.get(
        request.method, "the server failed to handle this request; nothing was changed"))


# A request that changes something may have failed after its change was committed: say so
# rather than "nothing was changed", which a client would take as leave to send it again.
_UNKNOWN_OUTCOME = {method: "the server failed while handling this request, which may have"
                            " been applied: read the resource before sending it again"
                    for method in ("POST", "PUT", "PATCH", "DELETE")}


def _store_unavailable(request: Request, exc: StoreUnavailable) -> Response:
    log.warning("store unavailable: %s", exc)
    return problem(request, 503, "store-unavailable",
                   "the game store cannot be reached; nothing was changed, retry shortly",
                   headers={"Retry-After": "1"})


def _archive_unavailable(request: Request, exc: DatabaseUnavailable) -> Response:
    log.warning("archive unavailable: %s", exc)
    return problem(request, 503, "archive-unavailable",
                   "the archive's database cannot be reached; nothing was changed, retry"
                   " shortly", headers={"Retry-After": "5"})


def _corrupt(request: Request, exc: InvalidState) -> Response:
    return _internal(request, exc)


HANDLERS = {
    ValidationException: _validation,
    HTTPException: _http,
    GameNotFound: lambda r, e: problem(r, 404, "game-not-found",
                                       "no game has this id (or it expired after going idle)"),
    Unauthorized: lambda r, e: problem(r, 401, "unauthorized", str(e),
                                       headers={"WWW-Authenticate": "Bearer"}),
    InvalidGame: lambda r, e: problem(r, 422, "invalid-game", str(e)),
    OverLimit: lambda r, e: problem(r, 422, e.slug, str(e)),
    UnknownPlayer: lambda r, e: problem(r, 403, "unknown-player", str(e)),
    PlayerNotFound: lambda r, e: problem(r, 404, "player-not-found", str(e)),
    TicketNotFound: lambda r, e: problem(r, 404, "ticket-not-found",
                                         "this player has no ticket with this id"),
    ChallengeNotFound: lambda r, e: problem(r, 404, "challenge-not-found",
                                            "this player is party to no challenge with this id"),
    ChallengeClosed: lambda r, e: problem(r, 409, "challenge-closed", str(e)),
    SeriesNotFound: lambda r, e: problem(r, 404, "series-not-found", "no series has this id"),
    TooManySeries: lambda r, e: problem(r, 409, "too-many-series", str(e)),
    NotSeriesOwner: lambda r, e: problem(r, 403, "not-series-owner", str(e)),
    ForbiddenContestant: lambda r, e: problem(r, 403, "forbidden-contestant", str(e)),
    MoveRejected: lambda r, e: problem(r, 422, "illegal-move", str(e),
                                       legal_moves=e.legal_moves),
    VersionConflict: lambda r, e: problem(r, 409, "version-conflict", str(e),
                                          current_version=e.current),
    IdempotencyMismatch: lambda r, e: problem(r, 409, "idempotency-key-reused", str(e)),
    BudgetRefused: lambda r, e: problem(r, 422, "budget-refused", str(e)),
    NotYourTurn: lambda r, e: problem(r, 409, "not-your-turn", str(e)),
    HintsOff: lambda r, e: problem(r, 409, "hints-off", str(e)),
    AIBusy: lambda r, e: problem(r, 503, "ai-busy", str(e), headers={"Retry-After": "1"}),
    Draining: lambda r, e: problem(r, 503, "draining", str(e)),
    NotStarted: lambda r, e: problem(r, 409, "game-waiting", str(e)),
    GameArchived: lambda r, e: problem(r, 409, "game-archived", str(e)),
    GameNotOver: lambda r, e: problem(r, 409, "game-not-over", str(e)),
    ReviewNotFound: lambda r, e: problem(r, 404, "review-not-found", str(e)),
    SeatOutOfRange: lambda r, e: problem(r, 422, "invalid-seat", str(e)),
    DatabaseUnavailable: _archive_unavailable,
    SeatUnavailable: lambda r, e: problem(r, 409, e.slug, str(e)),
    NoSuchSeat: lambda r, e: problem(r, 409, "no-such-seat", str(e)),
    BadCursor: lambda r, e: problem(r, 400, "invalid-request", str(e)),
    RateLimited: lambda r, e: problem(r, 429, "rate-limited", str(e),
                                      headers={"Retry-After": str(e.retry_after)}),
    StoreUnavailable: _store_unavailable,
    InvalidState: _corrupt,
    Exception: _internal,
}
