"""Watching requests: Prometheus metrics by route template, and a JSON access log line.

One thin ASGI middleware does both, so a request is wrapped once. Labels use the route
template (`/v1/games/{game_id:str}`), never the raw path, so game ids cannot explode the
metrics' cardinality; the log line has method, path, status and duration, never a header.
"""

import json
import logging
import time

from litestar import Response, get
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest

log = logging.getLogger("service.access")

REQUESTS = Counter("crab_http_requests_total", "HTTP requests answered",
                   ["method", "route", "status"])
DURATION = Histogram("crab_http_request_duration_seconds", "Time to answer a request",
                     ["method", "route"],
                     buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0))
IN_PROGRESS = Gauge("crab_http_requests_in_progress", "Requests being answered")


def observer(access_log: bool):
    """The middleware factory: metrics always, the access log when asked for."""
    counters: dict[tuple[str, str, int], Counter] = {}  # children cached: labels() is slow
    timers: dict[tuple[str, str], Histogram] = {}

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

            IN_PROGRESS.inc()
            try:
                await app(scope, receive, send_status)
            finally:
                IN_PROGRESS.dec()
                seconds = time.perf_counter() - start
                method, route = scope["method"], scope.get("path_template", "unmatched")
                key = (method, route, status)
                counter = counters.get(key) or counters.setdefault(
                    key, REQUESTS.labels(method, route, str(status)))
                counter.inc()
                timer = timers.get(key[:2]) or timers.setdefault(
                    key[:2], DURATION.labels(method, route))
                timer.observe(seconds)
                if access_log:
                    log.info(json.dumps({"method": method, "path": scope["path"],
                                         "status": status, "ms": round(seconds * 1000, 2)}))
        return observed
    return middleware


@get("/metrics", include_in_schema=True, summary="Prometheus metrics of this worker",
     tags=["health"], sync_to_thread=False, media_type=CONTENT_TYPE_LATEST)
def metrics() -> Response[str]:
    """Prometheus' text exposition format, version 0.0.4."""
    return Response(generate_latest().decode(), media_type=CONTENT_TYPE_LATEST)
