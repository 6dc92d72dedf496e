"""Watching requests: Prometheus metrics by route template, and a JSON access log line.
(The metrics are served apart from the API: service.replica.exposition.)

One thin ASGI middleware does both, so a request is wrapped once. Labels use the route
template (`/v1/games/{game_id:str}`), never the raw path, so game ids cannot explode the
metrics' cardinality; the log line has method, path, status and duration, never a header.
"""

import asyncio
import bisect
import json
import logging
import time

from litestar import Litestar
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from prometheus_client import Counter, Gauge, Histogram

from service.replica import tracing

log = logging.getLogger("service.access")

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)  # seconds

# A response may leave the rest of its body here (a callable taking send and receive) to
# be sent by LateBodies once the framework has returned: an event stream's body lasts as
# long as its client stays, and the frames, request and parsed headers of everything
# between the server and the handler need not live that long. The request's metrics
# and log line wait for the late body (observer wraps it), so they time the whole stream.
LATE_BODY = "service.late_body"
LATE_DONE = "service.late_done"  # (f, *arguments): f(scope, *arguments) once it is sent


class LateBodies(Litestar):
    """The application, sending the late body a response left (LATE_BODY) once Litestar's
    own call has returned: then only the server's task, this call and the body's
    coroutine stay suspended for the stream's life, not Litestar's call and the
    middlewares around its router (head_as_get, cors) too."""

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        scope[LATE_BODY] = None  # supported here
        await super().__call__(scope, receive, send)
        if scope.get(LATE_BODY) is not None:  # inline, not send_late_body: a frame fewer
            scope.pop("state", None)  # the framework's caches of this request
            _forget_headers(scope)
            try:  # (the bound method called at once, not kept in this frame)
                await scope.pop(LATE_BODY)(send, receive)
            finally:
                _done(scope)


def _forget_headers(scope: Scope) -> None:
    """Empties the request's header list, read by nobody once the response has started:
    the server keeps it (in the scope and in its protocol, one list) for the connection's
    life, and a browser's EventSource sends about 1 KB of them (User-Agent, Accept-*,
    Sec-Fetch-*, Referer, cookies: 1.8 KiB of every idle stream, measured)."""
    headers = scope.get("headers")
    if isinstance(headers, list):
        headers.clear()


async def send_late_body(scope: Scope, receive: Receive, send: Send) -> None:
    """Sends the late body a response left in scope (if any) with this send and receive:
    for a middleware that gave the application a scope of its own (head_as_get)."""
    if scope.get(LATE_BODY) is not None:
        try:
            await scope.pop(LATE_BODY)(send, receive)
        finally:
            _done(scope)


def _done(scope: Scope) -> None:
    if (done := scope.pop(LATE_DONE, None)) is not None:
        finish, *arguments = done
        finish(scope, *arguments)


class _Durations(Histogram):
    """A histogram filled in batches: observe() takes a lock and writes a shared value per
    call, and requests are counted in plain numbers first (RequestStats)."""

    def add(self, counts: list[int], total: float) -> None:
        """Adds counts requests to each bucket (not cumulative: the last, slower than every
        bound) and total seconds to the sum."""
        for bucket, count in zip(self._buckets, counts):
            if count:
                bucket.inc(count)
        self._sum.inc(total)


ANSWERED = Counter("crab_http_requests", "HTTP requests answered", ["method", "route", "status"])
DURATIONS = _Durations("crab_http_request_duration_seconds", "Time to answer a request",
                       ["method", "route"], buckets=BUCKETS)
IN_PROGRESS = Gauge("crab_http_requests_in_progress", "Requests being answered",
                    multiprocess_mode="livesum")

FLUSH_SECONDS = 0.25  # how stale a scrape may find this worker's requests


class RequestStats:
    """Requests answered and their durations, counted in plain numbers on the event loop's
    thread and added to the metrics (FLUSH_SECONDS later, in one batch): each update of a
    prometheus-client metric takes a lock, and with several workers (multiprocess mode)
    writes a memory-mapped file: 3.7 us of every request, where the plain numbers and
    their flush take 0.8 (docs/benchmarks.md, "Operations (issue 35)")."""

    def __init__(self) -> None:
        self.in_progress = 0
        self.begun = 0   # requests begun since the start (the archive's drain paces by it)
        self.answered: dict[tuple[str, str, int], int] = {}   # (method, route, status)
        # (method, route) -> requests per bucket (the last: slower than every bound), sum
        self.durations: dict[tuple[str, str], tuple[list[int], list[float]]] = {}
        self._flush: asyncio.TimerHandle | None = None

    def begin(self) -> None:
        self.in_progress += 1
        self.begun += 1
        self._due()

    def record(self, method: str, route: str, status: int, seconds: float) -> None:
        self.in_progress -= 1
        key = (method, route, status)
        self.answered[key] = self.answered.get(key, 0) + 1
        counts, total = self.durations.get(key[:2]) or self.durations.setdefault(
            key[:2], ([0] * (len(BUCKETS) + 1), [0.0]))
        counts[bisect.bisect_left(BUCKETS, seconds)] += 1
        total[0] += seconds
        self._due()

    def _due(self) -> None:
        if self._flush is None:
            self._flush = asyncio.get_running_loop().call_later(FLUSH_SECONDS, self.flush)

    def flush(self) -> None:
        """Adds what was counted since the last flush to the metrics (and at shutdown, so
        that a stopping worker's last requests are counted)."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        answered, durations, self.answered, self.durations = self.answered, self.durations, {}, {}
        for (method, route, status), count in answered.items():
            ANSWERED.labels(method, route, str(status)).inc(count)
        for (method, route), (counts, total) in durations.items():
            DURATIONS.labels(method, route).add(counts, total[0])
        IN_PROGRESS.set(self.in_progress)


STATS = RequestStats()


def observer(access_log: bool):
    """The middleware factory: metrics always, the access log when asked for."""
    def finished(scope: Scope, start: float, status: int) -> None:
        seconds = time.perf_counter() - start
        method, route = scope["method"], scope.get("path_template", "unmatched")
        STATS.record(method, route, status, seconds)
        if access_log:
            log.info(json.dumps({"method": method, "path": scope["path"],
                                 "status": status, "ms": round(seconds * 1000, 2)}))

    def middleware(app: ASGIApp) -> ASGIApp:
        async def observed(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            start = time.perf_counter()
            status = 500
            tracing.name_request(scope)

            async def send_status(message: Message) -> None:
                nonlocal status
                if message["type"] == "http.response.start":
                    status = message["status"]
                await send(message)

            STATS.begin()
            late = None
            try:
                await app(scope, receive, send_status)
                late = scope.get(LATE_BODY)
            finally:
                if late is None:
                    finished(scope, start, status)
            if late is not None:  # the request is done once its late body is sent
                # (a tuple, not a closure: it lives as long as the stream, and a closure's
                # function, cells and their tuple would be five objects of every stream)
                scope[LATE_DONE] = (finished, start, status)

        return observed
    return middleware
