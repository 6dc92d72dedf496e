"""The replica's metrics, served apart from the API: one scrape gives every worker's sum.

`python -m service` with METRICS_PORT set makes a folder for prometheus-client's
multiprocess mode (PROMETHEUS_MULTIPROC_DIR) before its workers start, so that each
worker's metrics are written to memory-mapped files there, and serves `GET /metrics` from
its own process on METRICS_HOST:METRICS_PORT, summing those files: a counter never goes
back when the next scrape lands on another worker, and it keeps what a dead worker
counted. A dead worker's live gauges (requests in progress, streams open) are dropped at
the next scrape. The API's port has no /metrics unless the operator asks for it there too
(METRICS_ON_API_PORT=1: service.replica.api_metrics): game clients reach it, operators this.
"""

import glob
import hmac
import json
import logging
import os
import re
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from service.config import ConfigError, Settings

log = logging.getLogger("service.replica.exposition")

DIRECTORY = "PROMETHEUS_MULTIPROC_DIR"
TOKEN_REQUIRED = "the metrics need the operators' bearer token"
_LIVE_FILE = re.compile(r"gauge_live\w+?_(\d+)\.db$")


@contextmanager
def metrics_served(settings: Settings) -> Iterator[None]:
    """Serves the replica's metrics for the block when METRICS_PORT is set (else nothing).
    Must run before prometheus-client is imported in this process, and before the
    workers start: both read PROMETHEUS_MULTIPROC_DIR once."""
    if not settings.metrics_port and not settings.metrics_on_api_port:
        yield
        return
    given = os.environ.get(DIRECTORY)
    folder = given or tempfile.mkdtemp(prefix="crab-metrics-")
    if given:  # the operator's folder: a previous run's files would be counted again
        os.makedirs(folder, exist_ok=True)
        _empty(folder)
    os.environ[DIRECTORY] = folder
    try:
        server = _server(settings, folder) if settings.metrics_port else None
    except BaseException:
        if not given:
            shutil.rmtree(folder, ignore_errors=True)
        raise
    if server is not None:
        threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
        log.info("metrics on http://%s:%d/metrics%s", settings.metrics_host,
                 server.server_address[1], " (bearer token)" if settings.metrics_token else "")
    # uvicorn, once it has stopped on SIGTERM, raises the signal again for the handler it
    # found: the default one would end the process before the folder is removed.
    stopping = signal.signal(signal.SIGTERM, _stopped)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, stopping)
        if server is not None:
            server.shutdown()
            server.server_close()
        if given:
            _empty(folder)
        else:
            shutil.rmtree(folder, ignore_errors=True)


def _empty(folder: str) -> None:
    for stale in glob.glob(os.path.join(folder, "*.db")):
        os.remove(stale)


def _stopped(signum: int, frame: object) -> None:
    raise SystemExit(0)  # stopped as asked: the service drained first (uvicorn)


def scrape(folder: str | None) -> bytes:
    """The metrics in Prometheus' text format: every worker's sum from the multiprocess
    folder, or this process's own where there is none (an app made outside `python -m
    service`)."""
    from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
    from prometheus_client.multiprocess import MultiProcessCollector
    if folder is None:
        return generate_latest(REGISTRY)
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=folder)
    forget_dead_workers(folder)
    return generate_latest(registry)


def authorized(token: str, authorization: str) -> bool:
    """Whether a request's Authorization header carries METRICS_TOKEN (any does if unset)."""
    return not token or hmac.compare_digest(authorization.encode(), f"Bearer {token}".encode())


def _server(settings: Settings, folder: str) -> ThreadingHTTPServer:
    from prometheus_client import CONTENT_TYPE_LATEST

    class Handler(BaseHTTPRequestHandler):
        server_version = "crab-metrics"
        sys_version = ""

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            if self.path.split("?", 1)[0] != "/metrics":
                return self._problem(404, "not-found", "only /metrics is served here")
            if not authorized(settings.metrics_token, self.headers.get("Authorization", "")):
                return self._problem(401, "unauthorized", TOKEN_REQUIRED)
            self._answer(200, scrape(folder), CONTENT_TYPE_LATEST)

        def _problem(self, status: int, type: str, detail: str) -> None:
            body = json.dumps({"type": f"/problems/{type}", "title": HTTPStatus(status).phrase,
                               "status": status, "detail": detail, "instance": self.path})
            self._answer(status, body.encode(), "application/problem+json",
                         {"WWW-Authenticate": 'Bearer realm="metrics"'} if status == 401 else {})

        def _answer(self, status: int, body: bytes, media_type: str,
                    headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", media_type)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass  # scrapes every few seconds are not news

    try:
        return ThreadingHTTPServer((settings.metrics_host, settings.metrics_port), Handler)
    except OSError as error:
        raise ConfigError(f"METRICS_HOST:METRICS_PORT ({settings.metrics_host}:"
                          f"{settings.metrics_port}) cannot serve the metrics:"
                          f" {error.strerror or error}") from None


def forget_dead_workers(folder: str) -> None:
    """Removes the live gauges' files of workers no longer running (uvicorn starts a new
    worker in place of one that died): their requests in progress ended with them. Their
    counters and histograms stay, so that no sum ever goes back."""
    from prometheus_client.multiprocess import mark_process_dead
    for path in glob.glob(os.path.join(folder, "gauge_live*.db")):
        if (found := _LIVE_FILE.search(os.path.basename(path))) and not _running(int(found[1])):
            mark_process_dead(int(found[1]), folder)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive
    return True
