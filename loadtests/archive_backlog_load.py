"""Moves' latency under locust while the archive writes a backlog, and after it has.

    python loadtests/archive_backlog_load.py [--backlog 100000] [--seconds 30] [--users 10]

Needs Redis (REDIS_URL, default database 11 of 127.0.0.1:6379, which it flushes) and
PostgreSQL (BENCH_DATABASE_URL's server; a database of its own is made and dropped).
Fills the outbox with --backlog finished games (as loadtests/archive_bench.py does), starts
`python -m service` on them, and runs the same locust load (loadtests/run.py) twice: at
once, while that replica writes the backlog, then once the outbox is empty. Prints both
runs' p50/p99 of POST .../moves and the outbox depth at each run's start and end.
"""

import argparse
import asyncio
import csv
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "loadtests"))

import archive_bench as bench  # noqa: E402

from service.archive.storage import Archive  # noqa: E402
from service.games.sessions import Sessions  # noqa: E402
from service.sql.database import Database  # noqa: E402
from service.store import RedisStore  # noqa: E402

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/11")
PORT = 8393


def depth() -> int:
    return httpx.get(f"http://127.0.0.1:{PORT}/ready", timeout=5).json()["archive"]["outbox_depth"]


def locust(seconds: int, users: int, out: Path) -> dict[str, float]:
    subprocess.run([sys.executable, str(ROOT / "loadtests" / "run.py"), "--host",
                    f"http://127.0.0.1:{PORT}", "--users", str(users), "--spawn-rate",
                    str(users), "--run-time", f"{seconds}s", "--out", str(out),
                    "--max-p99-ms", "100000"], cwd=ROOT, capture_output=True)
    with open(out / "locust_stats.csv") as rows:
        for row in csv.DictReader(rows):
            if row["Name"] == "/v1/games/[id]/moves":
                return {"requests": float(row["Request Count"]), "p50": float(row["50%"]),
                        "p99": float(row["99%"])}
    raise RuntimeError("locust made no move")


async def fill(database_url: str, backlog: int) -> None:
    store = RedisStore(REDIS_URL, 7 * 86400)
    archive = Archive(Database(database_url))
    try:
        templates = await bench.played(Sessions(store, archive), 20, seed=2)
        bench.copied(redis.Redis.from_url(REDIS_URL), templates, backlog)
    finally:
        await store.close()
        await archive.database.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backlog", type=int, default=100_000)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--users", type=int, default=10)
    args = parser.parse_args()
    bench.REDIS_URL = REDIS_URL
    redis.Redis.from_url(REDIS_URL).flushdb()
    name = f"crab_backlog_{uuid.uuid4().hex[:8]}"
    bench.psql(bench.SERVER, f"CREATE DATABASE {name}")
    database_url = bench.SERVER.rsplit("/", 1)[0] + f"/{name}"
    bench.migrate(database_url)
    bench.progress(f"filling the outbox with {args.backlog:,} finished games")
    asyncio.run(fill(database_url, args.backlog))
    env = {**os.environ, "REDIS_URL": REDIS_URL, "DATABASE_URL": database_url,
           "ACCESS_LOG": "0", "RATE_LIMIT_CREATES_PER_MINUTE": "0",
           "RATE_LIMIT_MOVES_PER_SECOND": "0"}
    server = subprocess.Popen([sys.executable, "-m", "service", "--port", str(PORT)], cwd=ROOT,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = []
    try:
        for _ in range(200):
            try:
                start_depth = depth()
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        for label in ("while writing the backlog", "after writing it"):
            if label == "after writing it":
                while depth():
                    time.sleep(1)
            start = depth()
            bench.progress(f"locust {args.seconds} s {label} (outbox {start:,})")
            found = locust(args.seconds, args.users, Path(f"/tmp/archive-backlog-{label[0]}"))
            rows.append((label, start, depth(), found))
    finally:
        server.terminate()
        server.wait(15)
        bench.psql(bench.SERVER, f"DROP DATABASE {name} WITH (FORCE)")
        redis.Redis.from_url(REDIS_URL).flushdb()
    print(f"\n# outbox at the replica's start: {start_depth:,}")
    print("| run | outbox at start -> end | moves | p50 ms | p99 ms |")
    print("|---|---|---|---|---|")
    for label, start, end, found in rows:
        print(f"| {label} | {start:,} -> {end:,} | {found['requests']:,.0f} |"
              f" {found['p50']:.0f} | {found['p99']:.0f} |")


if __name__ == "__main__":
    main()
