"""Real processes for the service tests: uvicorn servers and private redis-server instances.

Nothing is mocked: a test talks HTTP to `python -m service` on a loopback port, and the
service talks to a real Redis (the shared one on 6379, or a private one it can kill).
"""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.databases import TestDatabase
from tests.ports import free_port

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
    if _suite_database is not None:
        _suite_database.close()



def wait_until(check, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (httpx.HTTPError, OSError):
            pass
        time.sleep(0.05)
    raise TimeoutError("gave up waiting")


class Server:
    """A running `python -m service`; its output is kept in a file for log checks."""

    def __init__(self, env: dict[str, str], workers: int = 1) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
        full_env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        full_env.update(UNLIMITED)
        # Replicas of the suite's Redis archive into the suite's PostgreSQL database, as
        # replicas of one deployment do; any other server into a SQLite file of its own,
        # unless the test names a database.
        self.archive_dir = tempfile.mkdtemp(prefix="crab-archive-")
        full_env["DATABASE_URL"] = suite_database().url if env.get("REDIS_URL") == SHARED_REDIS \
            else f"sqlite:///{self.archive_dir}/archive.sqlite3"
        full_env.update(env)
        self.database_url = full_env["DATABASE_URL"]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service", "--port", str(self.port), "--workers", str(workers)],
            cwd=ROOT, env=full_env, stdout=self.log, stderr=subprocess.STDOUT)
        wait_until(lambda: httpx.get(self.url + "/health", timeout=1).status_code == 200)

    def output(self) -> str:
        return Path(self.log.name).read_text()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        Path(self.log.name).unlink(missing_ok=True)  # a test may have stopped it already
        shutil.rmtree(self.archive_dir, ignore_errors=True)


@contextmanager
def server(env: dict[str, str], workers: int = 1) -> Iterator[Server]:
    running = Server(env, workers)
    try:
        yield running
    finally:
        running.stop()


class PrivateRedis:
    """A redis-server of the test's own on a free loopback port, to stop at will."""

    def __init__(self) -> None:
        if shutil.which("redis-server") is None:
            raise RuntimeError("redis-server is not installed (.ci/run installs it)")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.start()

    def start(self) -> None:
        """Starts (or restarts, on the same port) the server, empty."""
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(lambda: socket.create_connection(("127.0.0.1", self.port), 0.2).close() is None)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
