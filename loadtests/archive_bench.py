"""The archive's throughput: finished games written from Redis into PostgreSQL, and the export.

    python loadtests/archive_bench.py [--games 20000] [--runs 3] [--distinct 200]

Needs Redis (REDIS_URL, default database 12 of 127.0.0.1:6379, which it flushes) and a
PostgreSQL server (BENCH_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres),
on which it makes and drops a database of its own.

- **Ingest**: `--distinct` games are played to the end through the service's own sessions
  (so each commit, and the outbox entry before the ending one, is what the service writes),
  then copied under new ids until `--games` finished games wait in the outbox, as after an
  outage. One writer (service.archive.writer.ArchiveWriter, as each replica runs it) empties it;
  games per second, median of `--runs` runs.
- **Export**: `python -m service` serves the archive; GET /v1/games/export is read whole,
  games per second and the server's resident memory before and after (median of runs).
"""

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import msgspec
import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.archive.storage import Archive  # noqa: E402
from service.archive.writer import ArchiveWriter  # noqa: E402
from service.config import Settings  # noqa: E402
from service.games.requests import CreateGame  # noqa: E402
from service.games.sessions import Sessions  # noqa: E402
from service.sql.database import Database  # noqa: E402
from service.store import RedisStore, keys  # noqa: E402
from tests.databases import migrate, psql  # noqa: E402

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/12")
SERVER = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def progress(text: str) -> None:
    print(f"  {time.strftime('%H:%M:%S')} {text}", flush=True)


async def played(sessions: Sessions, count: int, seed: int) -> list[str]:
    """count games of Cup the Crab for 3 played to the end with random legal moves."""
    rng, ids = random.Random(seed), []
    for _ in range(count):
        game_id, session, _ = await sessions.create(CreateGame(game="cup-the-crab", players=3))
        while session.status != "over":
            seat = rng.choice(session.state.to_move)
            move = rng.choice(session.state.legal_moves(seat))
            pending = sessions.moved(session, seat, move)
            assert await sessions.commit(pending, sessions.move_entry(seat, move, session))
            session = pending
        ids.append(game_id)
    return ids


def copied(client: redis.Redis, templates: list[str], total: int) -> None:
    """Finished games under new ids, each with its outbox entry, until total are waiting."""
    waiting = sum(client.zcard(bucket) for bucket in keys.ARCHIVE_BUCKETS)
    sources = []
    for game_id in templates:
        game = keys.game(game_id)
        sources.append((client.hgetall(game.state), client.lrange(game.log, 0, -1)))
    pipe = client.pipeline(transaction=False)
    for index in range(total - waiting):
        state, log = sources[index % len(sources)]
        game_id = uuid.uuid4().hex[:16]
        game = keys.game(game_id)
        pipe.hset(game.state, mapping=state)
        pipe.rpush(game.log, *log)
        pipe.zadd(keys.archive_bucket(game_id),
                  {f"{game_id} {int(state[b'version'])} {int(time.time() * 1000)}": time.time()})
        if index % 500 == 499:
            pipe.execute()
    pipe.execute()


async def ingest(sessions: Sessions, archive: Archive) -> tuple[int, float]:
    """The outbox emptied by one replica's writer (ArchiveWriter.write_all: its passes)."""
    archive_writer = ArchiveWriter(sessions, archive, Settings(), sessions.store, sessions.outbox)
    started = time.perf_counter()
    written = await archive_writer.write_all()
    return written, time.perf_counter() - started


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def export_runs(database_url: str, runs: int) -> list[tuple[int, float, int, int]]:
    port = 8391
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": REDIS_URL,
           "ACCESS_LOG": "0", "PORT": str(port)}
    server = subprocess.Popen([sys.executable, "-m", "service"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                httpx.get(f"http://127.0.0.1:{port}/health", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        found = []
        for run in range(runs):
            before = rss_kib(server.pid)
            started, lines = time.perf_counter(), 0
            with httpx.stream("GET", f"http://127.0.0.1:{port}/v1/games/export",
                              timeout=120) as response:
                for chunk in response.iter_lines():
                    lines += bool(chunk)
            seconds = time.perf_counter() - started
            found.append((lines, seconds, before, rss_kib(server.pid)))
            progress(f"export run {run + 1}: {lines} games in {seconds:.2f} s")
        return found
    finally:
        server.terminate()
        server.wait(10)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--distinct", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    client = redis.Redis.from_url(REDIS_URL)
    client.flushdb()
    name = f"crab_bench_{uuid.uuid4().hex[:8]}"
    psql(SERVER, f"CREATE DATABASE {name}")
    database_url = SERVER.rsplit("/", 1)[0] + f"/{name}"
    migrate(database_url)
    store = RedisStore(REDIS_URL, 7 * 86400)
    archive = Archive(Database(database_url))
    sessions = Sessions(store, archive)
    try:
        progress(f"playing {args.distinct} games to the end through the sessions")
        templates = await played(sessions, args.distinct, seed=1)
        await ingest(sessions, archive)  # the played games themselves
        rates = []
        for run in range(args.runs):
            copied(client, templates, args.games)
            written, seconds = await ingest(sessions, archive)
            rates.append(written / seconds)
            progress(f"ingest run {run + 1}: {written} games in {seconds:.2f} s,"
                     f" {written / seconds:,.0f} games/s")
        total = await archive.count()
    finally:
        await store.close()
        await archive.database.close()
    exports = export_runs(database_url, args.runs)
    psql(SERVER, f"DROP DATABASE {name} WITH (FORCE)")
    client.flushdb()
    print()
    print("| measure | median | runs |")
    print("|---|---|---|")
    print(f"| ingest, Redis outbox -> PostgreSQL, games/s ({args.games:,} waiting) |"
          f" {statistics.median(rates):,.0f} | {', '.join(f'{r:,.0f}' for r in rates)} |")
    export_rates = [lines / seconds for lines, seconds, _, _ in exports]
    print(f"| export, PostgreSQL -> ndjson over HTTP, games/s ({total:,} archived) |"
          f" {statistics.median(export_rates):,.0f} |"
          f" {', '.join(f'{r:,.0f}' for r in export_rates)} |")
    growth = [after - before for _, _, before, after in exports]
    print(f"| server RSS growth across one export, KiB | {statistics.median(growth):,.0f} |"
          f" {', '.join(str(g) for g in growth)} |")


if __name__ == "__main__":
    asyncio.run(main())
