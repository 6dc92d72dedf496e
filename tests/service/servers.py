"""Real processes for the service tests: uvicorn servers and private redis-server instances.

Nothing is mocked: a test talks HTTP to `python -m service` on a loopback port, and the
service talks to a real Redis (the shared one on 6379, or a private one it can kill).
"""

import inspect
import os
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.databases import TestDatabase
from tests.ports import free_port
from tests.processes import START_SECONDS, Process, holds

ROOT = Path(__file__).resolve().parents[2]


def _worker_database(url: str) -> str:
    """url, with a database of its own for each pytest-xdist worker (gw0 keeps url's, gw1
    the one below it...): the suite flushes its database, and workers run side by side."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    base, _, number = url.rpartition("/")
    return f"{base}/{int(number or 0) - int(worker.removeprefix('gw'))}"


SHARED_REDIS = _worker_database(os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14"))
# The suite creates games far faster than any person: servers run without rate limits
# unless a test sets them (tests/service/test_api_limits.py).
UNLIMITED = {"RATE_LIMIT_CREATES_PER_MINUTE": "0", "RATE_LIMIT_MOVES_PER_SECOND": "0"}


_suite_database: TestDatabase | None = None


def suite_database() -> TestDatabase:
    """The suite's PostgreSQL database, made when first needed (dropped at the end:
    tests/conftest.py)."""
    global _suite_database
    if _suite_database is None:
        _suite_database = TestDatabase()
    return _suite_database


def close_suite_database() -> None:
    global _suite_database
    if _suite_database is not None:
        _suite_database.close()
        _suite_database = None


def wait_until(check: Callable[[], object], seconds: float = 30.0, what: str = "") -> None:
    """Polls check until it holds; gives up after seconds (generous: a loaded machine is
    slow) saying what it waited for (default: check's source; the report of the test adds
    its processes' last log lines: tests/conftest.py)."""
    deadline = time.monotonic() + seconds
    while not holds(check):
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up after {seconds:g} s waiting for "
                               f"{what or _source(check)}")
        time.sleep(0.05)


def _source(check: Callable[[], object]) -> str:
    try:
        return inspect.getsource(check).strip()
    except (OSError, TypeError):
        return repr(check)


class Server:
    """A running `python -m service`; its output is kept in a file for log checks. A start
    that fails (the process exits, or does not answer /health within start_seconds while
    it runs) stops the process and raises StartFailed with its last log lines."""

    def __init__(self, env: dict[str, str], workers: int = 1,
                 start_seconds: float = START_SECONDS) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        full_env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        full_env.update(UNLIMITED)
        # Its metrics on a port of their own, as operators run it (a test may say otherwise).
        full_env["METRICS_PORT"] = str(free_port())
        # Replicas of the suite's Redis archive into the suite's PostgreSQL database, as
        # replicas of one deployment do; any other server into a SQLite file of its own,
        # unless the test names a database.
        shared = suite_database().url if env.get("REDIS_URL") == SHARED_REDIS else None
        self.archive_dir = tempfile.mkdtemp(prefix="crab-archive-")
        full_env["DATABASE_URL"] = shared or f"sqlite:///{self.archive_dir}/archive.sqlite3"
        full_env.update(env)
        self.database_url = full_env["DATABASE_URL"]
        self.metrics_url = (f"http://127.0.0.1:{full_env['METRICS_PORT']}/metrics"
                            if full_env["METRICS_PORT"] != "0" else None)
        try:
            self.process = Process(
                f"`python -m service` on port {self.port}",
                [sys.executable, "-m", "service", "--port", str(self.port),
                 "--workers", str(workers)], env=full_env, cwd=ROOT)
        except BaseException:  # not started (no such program...): only its folder to remove
            shutil.rmtree(self.archive_dir, ignore_errors=True)
            raise
        try:
            self.process.wait_ready(
                lambda: httpx.get(self.url + "/health", timeout=2).status_code == 200,
                "answering GET /health", start_seconds)
        except BaseException:  # StartFailed, or the run interrupted meanwhile
            self.stop()
            raise

    def output(self) -> str:
        return self.process.output()

    def metrics(self, headers: dict[str, str] | None = None) -> str:
        """The replica's metrics, as Prometheus scrapes them (every worker summed)."""
        assert self.metrics_url, "this server serves no metrics (METRICS_PORT=0)"
        response = httpx.get(self.metrics_url, headers=headers, timeout=5)
        response.raise_for_status()
        return response.text

    def stop(self) -> None:
        """Stops the service (SIGTERM, SIGKILL after 10 s) and removes its files; a test
        may have stopped or killed it already."""
        try:
            self.process.close()
        finally:
            shutil.rmtree(self.archive_dir, ignore_errors=True)


@contextmanager
def server(env: dict[str, str], workers: int = 1,
           start_seconds: float = START_SECONDS) -> Iterator[Server]:
    """A Server for the block; a block that fails reports the service's last log lines."""
    running = Server(env, workers, start_seconds)
    try:
        yield running
    except BaseException as error:
        running.process.note_on(error)
        raise
    finally:
        running.stop()


class PrivateRedis:
    """A redis-server of the test's own on a free loopback port, to stop at will; options
    are further redis-server arguments. A context manager; stop() ends it too."""

    def __init__(self, *options: str) -> None:
        if shutil.which("redis-server") is None:
            raise RuntimeError("redis-server is not installed (.ci/run installs it)")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.options = options
        self.process: Process | None = None
        self.start()

    def start(self) -> None:
        """Starts (or restarts, on the same port) the server, empty."""
        self.stop()
        self.process = Process(
            f"redis-server on port {self.port}",
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", *self.options])
        self.process.wait_ready(
            lambda: socket.create_connection(("127.0.0.1", self.port), 1).close() is None,
            f"listening on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.close()

    def __enter__(self) -> "PrivateRedis":
        return self

    def __exit__(self, kind: object, error: BaseException | None, trace: object) -> None:
        if error is not None and self.process is not None:
            self.process.note_on(error)
        self.stop()
