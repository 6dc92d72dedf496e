"""Rate limits shared by every replica: budgets counted in the store, not per process.

Creating games and joining them are limited per client address
(RATE_LIMIT_CREATES_PER_MINUTE); moves and suggestions per seat token
(RATE_LIMIT_MOVES_PER_SECOND). Each budget is a GCRA cell in the store, expiring by
itself: a smooth rate with bursts up to the limit. Over budget: 429 problem+json with
Retry-After; every limited response carries the RateLimit headers.

An address's budget is spent here, before the handler, by one small script under its own
key (service/store/keys.py: its own cluster slot). A seat's budget lives beside its game
(a token works on one game only), so this middleware hands it to the handler as a
SeatBudget and the store spends it in the same round trip as it reads the game: a move
costs no Redis call more for being limited.
"""

import ipaddress
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from litestar.types import ASGIApp, Message, Receive, Scope, Send

from service.games.bodies.common import problem_bytes
from service.http.credentials import NotBearer, bearer, secret_hash
from service.http.errors import ApiError
from service.store import Allowance, Budgets, RateBudget, StoreUnavailable, keys

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class Limit:
    kind: str        # "creates" or "moves": names the budget in keys and headers
    limit: int       # requests per period; 0 turns the limit off
    period_ms: int
    per_token: bool  # the seat's token names the budget, else the client's address

    def refusal(self, allowance: Allowance) -> tuple[int, str]:
        """Retry-After's seconds and the problem's detail for a request over budget."""
        seconds = -(-allowance.retry_after_ms // 1000)
        per = "minute" if self.period_ms == 60_000 else f"{self.period_ms / 1000:g} s"
        who = "seat" if self.per_token else "client address"
        return seconds, (f"too many {self.kind} from this {who}: {self.limit} per {per};"
                         f" retry in {seconds} s")


class RateLimited(ApiError):
    """A request over its seat's budget, found by the store with the game's read (the
    middleware answers the same problem itself for what it counts: _refuse)."""
    status = 429
    type = "rate-limited"
    when = ("Over the rate limit of this client address (creates, joins) or seat token"
            " (moves, suggestions): `rate-limited`, with `Retry-After` and the RateLimit"
            " headers")
    sentence = "Too many requests at once: wait a moment and try again."

    def __init__(self, limit: Limit, allowance: Allowance) -> None:
        self.retry_after, detail = limit.refusal(allowance)
        super().__init__(detail)

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after)}


@dataclass
class SeatBudget:
    """A seat's budget for this request, left by the middleware for the handler to spend
    with the game's read; what the store answered fills the response's headers."""
    limit: Limit
    budget: RateBudget
    allowance: Allowance | None = None  # set once spent

    def settle(self, allowance: Allowance) -> None:
        """Records the store's answer; RateLimited if the request does not fit."""
        self.allowance = allowance
        if not allowance.allowed:
            raise RateLimited(self.limit, allowance)

    def headers(self) -> list[tuple[bytes, bytes]]:
        return [] if self.allowance is None else _headers(self.limit, self.allowance)


_SEAT_BUDGET = "service.seat_budget"  # its key in the ASGI scope's state


def seat_budget(scope: Scope) -> SeatBudget | None:
    """The seat's budget the middleware left for this request's handler, if any."""
    return scope.get("state", {}).get(_SEAT_BUDGET)


# (method, route template) -> which budget a request spends.
ROUTES = {("POST", "/v1/games"): "creates", ("POST", "/v1/games/{game_id}/join"): "creates",
          ("POST", "/v1/players"): "creates", ("POST", "/v1/queue"): "creates",
          ("POST", "/v1/games/{game_id}/reviews"): "creates",  # each may cost a replica a second
          ("POST", "/v1/challenges"): "creates", ("POST", "/v1/series"): "creates",
          ("POST", "/v1/tournaments"): "creates",
          ("POST", "/v1/games/{game_id}/moves"): "moves",
          ("POST", "/v1/games/{game_id}/suggest"): "moves"}


def client_address(scope: Scope, trusted: Sequence[Network]) -> str:
    """The client's address: the socket's peer, unless it is a trusted proxy; then the
    nearest address in X-Forwarded-For that is not a trusted proxy itself."""
    peer = (scope.get("client") or ("unknown", 0))[0]
    if not trusted or not _is_trusted(peer, trusted):
        return peer
    forwarded = [value.decode("latin-1") for name, value in scope["headers"]
                 if name == b"x-forwarded-for"]
    hops = [hop.strip() for value in forwarded for hop in value.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, trusted):
            return hop
    return hops[0] if hops else peer


def _is_trusted(address: str, trusted: Sequence[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def trusted_proxies(raw: str) -> tuple[Network, ...]:
    """TRUSTED_PROXIES: comma-separated addresses or networks (ValueError if not)."""
    return tuple(ipaddress.ip_network(item.strip(), strict=False)
                 for item in raw.split(",") if item.strip())


def _bearer(scope: Scope) -> str | None:
    """A seat's token, if the request carries one (a malformed header is the handler's to
    refuse: here it spends the address's budget like no header)."""
    try:
        return bearer(scope)
    except NotBearer:
        return None


class RateLimits:
    """The ASGI middleware: spends an address's budget before the handler runs, or leaves
    a seat's for the handler to spend with the game's read."""

    def __init__(self, store: Budgets, limits: dict[str, Limit],
                 trusted: Sequence[Network]) -> None:
        self.store = store
        self.limits = limits
        self.trusted = trusted

    def __call__(self, app: ASGIApp) -> ASGIApp:
        async def limited(scope: Scope, receive: Receive, send: Send) -> None:
            limit = self._limit_of(scope)
            if limit is None:
                await app(scope, receive, send)
                return
            token = _bearer(scope) if limit.per_token else None
            if token is not None:  # the handler's store call spends it
                budget = RateBudget(secret_hash(token)[:32], limit.period_ms, limit.limit)
                deferred = SeatBudget(limit, budget)
                scope.setdefault("state", {})[_SEAT_BUDGET] = deferred
                await app(scope, receive, _with_headers(send, deferred.headers))
                return
            try:
                allowance = await self.store.spend(self._key(scope, limit), limit.period_ms,
                                                   limit.limit)
            except StoreUnavailable:
                await app(scope, receive, send)  # the handler answers 503 on its own
                return
            headers = _headers(limit, allowance)
            if not allowance.allowed:
                await _refuse(scope, send, limit, allowance, headers)
                return
            await app(scope, receive, _with_headers(send, lambda: headers))
        return limited

    def _limit_of(self, scope: Scope) -> Limit | None:
        if scope["type"] != "http":
            return None
        kind = ROUTES.get((scope["method"], scope.get("path_template", "")))
        limit = None if kind is None else self.limits.get(kind)
        return limit if limit is not None and limit.limit > 0 else None

    def _key(self, scope: Scope, limit: Limit) -> str:
        return keys.address_budget(limit.kind, client_address(scope, self.trusted))


def _headers(limit: Limit, allowance: Allowance) -> list[tuple[bytes, bytes]]:
    window = max(1, limit.period_ms // 1000)
    return [(b"ratelimit-limit", str(limit.limit).encode()),
            (b"ratelimit-remaining", str(allowance.remaining).encode()),
            (b"ratelimit-reset", str(-(-allowance.reset_ms // 1000)).encode()),
            (b"ratelimit-policy", f"{limit.limit};w={window}".encode())]


def _with_headers(send: Send, headers: Callable[[], list[tuple[bytes, bytes]]]) -> Send:
    """send, adding headers() to the response's start (called then: a handler may have
    spent the budget meanwhile)."""
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *headers()]}
        await send(message)
    return sending


async def _refuse(scope: Scope, send: Send, limit: Limit, allowance: Allowance,
                  headers: list[tuple[bytes, bytes]]) -> None:
    seconds, detail = limit.refusal(allowance)
    body = problem_bytes(RateLimited.status, RateLimited.type, scope["path"], detail)
    await send({"type": "http.response.start", "status": RateLimited.status, "headers": [
        (b"content-type", b"application/problem+json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(seconds).encode()), *headers]})
    await send({"type": "http.response.body", "body": body})
