"""Watching requests: Prometheus metrics by route template, and a JSON access log line.

One thin ASGI middleware does both, so a request is wrapped once. Labels use the route
template (`/v1/games/{game_id:str}`), never the raw path, so game ids cannot explode the
metrics' cardinality; the log line has method, path, status and duration, never a header.
"""

import bisect
import json
import logging
import time
from collections.abc import Iterator

from litestar import Litestar, Response, get
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)

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


class RequestStats:
    """Requests answered and their durations, counted in plain numbers and turned into
    Prometheus families only when /metrics is read. Every update and every read happens
    on the event loop's thread, so no lock is needed; prometheus-client's own metrics
    take one per update, about 6 us of every request (docs/benchmarks.md)."""

    def __init__(self) -> None:
        self.in_progress = 0
        self.begun = 0   # requests begun since the start (the archive's drain paces by it)
        self.answered: dict[tuple[str, str, int], int] = {}   # (method, route, status)
        # (method, route) -> requests per bucket (the last: slower than every bound), sum
        self.durations: dict[tuple[str, str], tuple[list[int], list[float]]] = {}

    def record(self, method: str, route: str, status: int, seconds: float) -> None:
        key = (method, route, status)
        self.answered[key] = self.answered.get(key, 0) + 1
        counts, total = self.durations.get(key[:2]) or self.durations.setdefault(
            key[:2], ([0] * (len(BUCKETS) + 1), [0.0]))
        counts[bisect.bisect_left(BUCKETS, seconds)] += 1
        total[0] += seconds

    def collect(self) -> Iterator[Metric]:
        answered = CounterMetricFamily("crab_http_requests", "HTTP requests answered",
                                       labels=["method", "route", "status"])
        for (method, route, status), count in self.answered.items():
            answered.add_metric([method, route, str(status)], count)
        duration = HistogramMetricFamily("crab_http_request_duration_seconds",
                                         "Time to answer a request", labels=["method", "route"])
        for (method, route), (counts, total) in self.durations.items():
            cumulative, buckets = 0, []
            for bound, count in zip([*map(str, BUCKETS), "+Inf"], counts):
                cumulative += count
                buckets.append((bound, cumulative))
            duration.add_metric([method, route], buckets, total[0])
        yield answered
        yield duration
        yield GaugeMetricFamily("crab_http_requests_in_progress", "Requests being answered",
                                value=self.in_progress)


STATS = RequestStats()
REGISTRY.register(STATS)


def observer(access_log: bool):
    """The middleware factory: metrics always, the access log when asked for."""
    def finished(scope: Scope, start: float, status: int) -> None:
        STATS.in_progress -= 1
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

            async def send_status(message: Message) -> None:
                nonlocal status
                if message["type"] == "http.response.start":
                    status = message["status"]
                await send(message)

            STATS.in_progress += 1
            STATS.begun += 1
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


@get("/metrics", include_in_schema=True, summary="Prometheus metrics of this worker",
     tags=["health"], sync_to_thread=False, media_type=CONTENT_TYPE_LATEST)
def metrics() -> Response[str]:
    """Prometheus' text exposition format, version 0.0.4."""
    return Response(generate_latest().decode(), media_type=CONTENT_TYPE_LATEST)
