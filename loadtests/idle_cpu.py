"""What an idle replica costs: CPU of a `python -m service` nobody talks to.

    python loadtests/idle_cpu.py --seconds 60

Starts one replica per deployment, in turn: Redis (a redis-server of its own) with the
archive in PostgreSQL (a fresh database on TEST_DATABASE_URL's server, migrated with the
documented command), as in production; and the embedded store with a SQLite archive (no
REDIS_URL). Each is left alone for --settle seconds (start-up, the first passes), then its
CPU time (utime + stime of /proc/<pid>/stat, the process and its children) is read over
--seconds of wall clock. Prints each as a percentage of one core; exits 1 if one is over
--limit.
"""

import argparse
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.databases import TestDatabase  # noqa: E402
from tests.ports import free_port  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """utime + stime of pid and of every process below it, in seconds."""
    total = 0.0
    for each in [pid, *children(pid)]:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14, 15)
    return total


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            found += [int(child), *children(int(child))]
    return found


@contextmanager
def redis_server() -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)


@contextmanager
def replica(env: dict[str, str]) -> Iterator[subprocess.Popen]:
    port = free_port()
    full = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
    process = subprocess.Popen([sys.executable, "-m", "service", "--port", str(port)],
                               cwd=ROOT, env={**full, **env, "ACCESS_LOG": "0"},
                               stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the replica did not start:\n"
                                   + Path(log.name).read_text()[-2000:])
            time.sleep(0.1)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        Path(log.name).unlink(missing_ok=True)


def measure(name: str, env: dict[str, str], settle: float, seconds: float) -> float:
    with replica(env) as process:
        print(f"{name}: started (pid {process.pid}); settling {settle:g} s", flush=True)
        time.sleep(settle)
        before, started = cpu_seconds(process.pid), time.monotonic()
        while (elapsed := time.monotonic() - started) < seconds:
            time.sleep(min(10.0, seconds - elapsed))
            used = cpu_seconds(process.pid) - before
            print(f"  {elapsed + min(10.0, seconds - elapsed):5.0f} s:"
                  f" {used:.2f} s of CPU so far", flush=True)
        share = 100 * (cpu_seconds(process.pid) - before) / (time.monotonic() - started)
    print(f"{name}: {share:.2f}% of a core over {seconds:g} s", flush=True)
    return share


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--settle", type=float, default=10.0)
    parser.add_argument("--limit", type=float, default=0.5, help="percent of a core")
    parser.add_argument("--only", choices=["redis", "embedded"])
    args = parser.parse_args(argv)
    shares = {}
    if args.only in (None, "redis"):
        if shutil.which("redis-server") is None:
            sys.exit("redis-server is not installed")
        database = TestDatabase()
        try:
            with redis_server() as url:
                shares["redis + postgresql"] = measure(
                    "redis + postgresql", {"REDIS_URL": url, "DATABASE_URL": database.url},
                    args.settle, args.seconds)
        finally:
            database.close()
    if args.only in (None, "embedded"):
        with tempfile.TemporaryDirectory(prefix="idle-cpu-") as folder:
            shares["embedded + sqlite"] = measure(
                "embedded + sqlite", {"DATABASE_URL": f"sqlite:///{folder}/archive.sqlite3"},
                args.settle, args.seconds)
    over = {name: share for name, share in shares.items() if share > args.limit}
    for name, share in over.items():
        print(f"over the limit of {args.limit:g}%: {name} at {share:.2f}%")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
