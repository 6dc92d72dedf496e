"""Real PostgreSQL for tests: a database of the suite's own, and private clusters to kill.

- `test_database()`: a fresh database on the server TEST_DATABASE_URL names (the machine's
  PostgreSQL on 127.0.0.1:5432 by default), migrated with the documented command, or,
  when no server answers there, on a private cluster the suite starts itself.
- `PrivatePostgres`: a cluster of the test's own (`initdb`, `pg_ctl` from
  /usr/lib/postgresql/15/bin) on a free loopback port, which a test can stop, kill and
  start again on the same data directory. PostgreSQL refuses to run as root, so as root
  its commands run as the `postgres` user (`runuser -u postgres --`).
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from tests.ports import free_port
from tests.processes import START_SECONDS, StartFailed, running, tail, track, untrack

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
SERVER = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")



def _as_postgres(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def answers(url: str) -> bool:
    where = url.split("@")[-1].split("/")[0]
    host, _, port = where.partition(":")
    try:
        socket.create_connection((host, int(port or 5432)), 1).close()
    except OSError:
        return False
    return True


def psql(url: str, sql: str) -> str:
    return subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-qAtc", sql], check=True,
                          capture_output=True, text=True).stdout


def migrate(url: str) -> None:
    """The documented command: python -m service.archive upgrade."""
    done = subprocess.run([sys.executable, "-m", "service.archive", "upgrade"], cwd=ROOT,
                          env={**os.environ, "DATABASE_URL": url}, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the migration of {url} failed:\n{done.stdout[-3000:]}"
                           f"{done.stderr[-3000:]}")


class PrivatePostgres:
    """A PostgreSQL cluster of the test's own on a free port; `url` names its database.
    A start that fails stops it, removes its files and says why (pg_ctl's words and the
    server's last log lines); until closed it is tracked, so that the session's end
    stops it if a test did not (tests/processes.py)."""

    def __init__(self) -> None:
        if not (BIN / "initdb").exists():
            raise RuntimeError(f"PostgreSQL's initdb is not in {BIN} (apt-get install postgresql)")
        self.port = free_port()
        self.name = f"PostgreSQL on port {self.port}"
        self.dir = Path(tempfile.mkdtemp(prefix="crab-pg-"))
        self.data = self.dir / "data"
        track(self)
        try:
            if os.geteuid() == 0:
                shutil.chown(self.dir, "postgres", "postgres")
            subprocess.run(_as_postgres([str(BIN / "initdb"), "-D", str(self.data), "-U",
                                         "postgres", "--auth=trust", "--no-sync"]),
                           check=True, capture_output=True)
            self.server_url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
            self.start()
            self.url = f"postgresql://postgres@127.0.0.1:{self.port}/crab"
            psql(self.server_url, "CREATE DATABASE crab")
        except BaseException:
            self.close()
            raise

    def start(self) -> None:
        """Starts the cluster and waits (patiently: a loaded machine is slow) until it
        accepts connections; a start that fails leaves it stopped."""
        started = subprocess.run(_as_postgres([
            str(BIN / "pg_ctl"), "-D", str(self.data), "-w", "-t", str(int(START_SECONDS)),
            "-l", str(self.dir / "log"),
            "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
                  " -c max_connections=200", "start"]), capture_output=True, text=True)
        if started.returncode != 0:
            self.stop("immediate")  # pg_ctl gave up waiting, the server may still be starting
            raise StartFailed(f"{self.name} did not start: {started.stdout}{started.stderr}"
                              f"its last log lines:\n{tail(self.dir / 'log')}")

    def alive(self) -> bool:
        try:
            return running(int((self.data / "postmaster.pid").read_text().split()[0]))
        except (OSError, ValueError, IndexError):
            return False

    def stop(self, mode: str = "fast") -> None:
        """Stops the cluster: fast (clean) or immediate (as a crash)."""
        subprocess.run(_as_postgres([str(BIN / "pg_ctl"), "-D", str(self.data), "-m", mode,
                                     "-w", "stop"]), capture_output=True)

    def kill(self) -> None:
        """SIGKILL to the postmaster: the database dies as in a power cut."""
        pid = int((self.data / "postmaster.pid").read_text().split()[0])
        os.kill(pid, signal.SIGKILL)
        try:  # the test process adopts it (tests/processes.py): a zombie's pid would look
            os.waitpid(pid, 0)  # like a running postmaster to the next start
        except ChildProcessError:
            time.sleep(0.5)
        self.stop("immediate")  # ends the backends the postmaster left

    def close(self) -> None:
        untrack(self)
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "PrivatePostgres":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class TestDatabase:
    """A fresh, migrated database for the suite; dropped (with its private cluster, if
    one was started) on close."""
    __test__ = False  # a fixture's object, not a test class for pytest to collect

    def __init__(self) -> None:
        self.private = None if answers(SERVER) else PrivatePostgres()
        self.server = SERVER if self.private is None else self.private.server_url
        # TEST_DATABASE_PREFIX: sessions sharing one server keep to names of their own.
        self.name = f"{os.environ.get('TEST_DATABASE_PREFIX', 'crab_test')}_{uuid.uuid4().hex[:10]}"
        self.url = self.server.rsplit("/", 1)[0] + f"/{self.name}"
        try:
            psql(self.server, f"CREATE DATABASE {self.name}")
            migrate(self.url)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        try:
            psql(self.server, f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")
        finally:
            if self.private is not None:
                self.private.close()
