"""Players at scale: leaderboard pages, profiles, a rating rebuild, and the queue.

    python loadtests/players_bench.py [--players 100000] [--games 1000000]
                                      [--requests 2000] [--tickets 1000] [--runs 3]

Needs PostgreSQL (BENCH_DATABASE_URL's server; a database of its own is made and dropped)
and Redis (REDIS_URL, default database 11 of 127.0.0.1:6379, which it flushes).

1. Fills the database with --players players, each with a standing in two pools, and
   --games rated 2-player games (their seats, ranks and rating changes; the games' stored
   documents are placeholders, which none of the measured reads opens), then VACUUM
   ANALYZE, as autovacuum leaves tables that have settled.
2. Serves it with `python -m service` and reads, one request at a time over one
   connection, --requests leaderboard pages (at depths spread over the whole board) and
   --requests profiles of random players: p50 and p99 per run.
3. Times `python -m service.archive rebuild-ratings` over every rated game.
4. Starts two replicas on one Redis and one database, makes --tickets players, and sends
   their tickets for Crabe vs Poulpe at once through both (20 threads): ticket-to-game
   time from each ticket's `since` to its `seated_at`, and that every ticket is seated
   once, two to a game.
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path

import httpx
import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.databases import migrate, psql  # noqa: E402

SERVER = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/11")
POOLS = ("crabe-vs-poulpe", "cup-the-crab-2p")


def progress(text: str) -> None:
    print(f"  {time.strftime('%H:%M:%S')} {text}", file=sys.stderr, flush=True)


def fill(url: str, players: int, games: int) -> None:
    """Players, standings, rated games, their seats and rating changes, in SQL."""
    now = int(time.time() * 1000)
    statements = [
        f"""INSERT INTO players SELECT 'p_' || lpad(i::text, 16, '0'), 'Player ' || i, 'human',
            md5(i::text) || md5((-i)::text), {now}, {now} FROM generate_series(1, {players}) i""",
        *[f"""INSERT INTO standings SELECT 'p_' || lpad(i::text, 16, '0'), '{pool}', mu, sigma,
              mu - 3 * sigma, rated, rated + 3, rated / 2, rated >= 5,
              floor((mu - 3 * sigma) * 10)::int, '[]'
              FROM (SELECT i, 15 + random() * 20 AS mu, 1 + random() * 7 AS sigma,
                           floor(random() * 60)::int AS rated
                    FROM generate_series(1, {players}) i) s""" for pool in POOLS],
        f"""INSERT INTO archived_games SELECT 'g' || i, 'crabe-vs-poulpe', 2, false, 'finished',
            {now} - i, {now} - i, {now}, 40, '{{}}', '\\x00', '\\x00', '\\x00', i
            FROM generate_series(1, {games}) i""",
        # Seat 1's player is never seat 0's: an offset of 1 to players - 1 from it.
        *[f"""INSERT INTO game_players SELECT 'g' || i, {seat},
              'p_' || lpad((1 + (i * 7 + {offset}) % {players})::text, 16, '0'),
              'crabe-vs-poulpe', {now} - i, 1 + ((i + {seat}) % 2)
              FROM generate_series(1, {games}) i"""
          for seat, offset in ((0, "0"), (1, f"1 + i % ({players} - 1)"))],
        """INSERT INTO rating_changes SELECT game_id, player_id, 'crabe-vs-poulpe',
            substr(game_id, 2)::bigint, ended_ms, 25, 8 FROM game_players
            ON CONFLICT DO NOTHING""",
        """INSERT INTO rank_counts SELECT pool, bucket, count(*) FROM standings WHERE ranked
           GROUP BY pool, bucket""",
        # Each standing's last 50 rated games, as the service keeps them for a profile.
        """UPDATE standings SET recent = r.points FROM (
             SELECT player_id, pool, json_agg(json_build_array(game_id, ended_ms, mu, sigma)
                                              ORDER BY rated_order)::text AS points
             FROM (SELECT *, row_number() OVER (PARTITION BY player_id, pool
                                                ORDER BY rated_order DESC) AS age
                   FROM rating_changes) latest WHERE age <= 50 GROUP BY player_id, pool) r
           WHERE standings.player_id = r.player_id AND standings.pool = r.pool""",
        "VACUUM ANALYZE",  # as autovacuum leaves a table that has settled
    ]
    for statement in statements:
        psql(url, statement)


def serve(port: int, env: dict[str, str]) -> subprocess.Popen:
    server = subprocess.Popen([sys.executable, "-m", "service", "--port", str(port)], cwd=ROOT,
                              env={**os.environ, **env}, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("the service did not start")


def timed(client: httpx.Client, paths: list[str]) -> tuple[float, float]:
    """p50 and p99 in ms of GETs of paths, one at a time."""
    took = []
    for path in paths:
        start = time.perf_counter()
        response = client.get(path)
        took.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.text
    took.sort()
    return statistics.median(took), took[int(len(took) * 0.99) - 1]


def board_paths(url: str, count: int, rng: random.Random) -> list[str]:
    """Leaderboard pages at depths spread over the whole board: each starts after a line
    read in the board's order (value, then id, both descending) by one query."""
    board = [line.split("|") for line in psql(url, f"""SELECT conservative, player_id
        FROM standings WHERE pool = '{POOLS[0]}' AND ranked
        ORDER BY conservative DESC, player_id DESC""").split()]
    paths = []
    for _ in range(count):
        depth = rng.randrange(len(board))
        if depth == 0:
            paths.append(f"/v1/leaderboards/{POOLS[0]}?limit=50")
            continue
        value, player = board[depth - 1]
        paths.append(f"/v1/leaderboards/{POOLS[0]}?limit=50&cursor={float(value)!r}~{player}"
                     f"~{depth}")
    return paths


def queue(tickets: int, url: str) -> dict[str, float]:
    env = {"REDIS_URL": REDIS_URL, "DATABASE_URL": url, "ACCESS_LOG": "0",
           "RATE_LIMIT_CREATES_PER_MINUTE": "0", "RATE_LIMIT_MOVES_PER_SECOND": "0"}
    replicas = [serve(8395, env), serve(8396, env)]
    bases = ["http://127.0.0.1:8395", "http://127.0.0.1:8396"]
    try:
        with httpx.Client(base_url=bases[0], timeout=30) as http:
            keys = [http.post("/v1/players", json={"name": f"Q{index}"}).json()["key"]
                    for index in range(tickets)]

        def enter(index: int) -> str:
            with httpx.Client(base_url=bases[index % 2], timeout=30) as http:
                response = http.post("/v1/queue", json={"game": "crabe-vs-poulpe", "players": 2},
                                     headers={"Authorization": f"Bearer {keys[index]}"})
                assert response.status_code == 201, response.text
                return response.json()["id"]

        with ThreadPoolExecutor(20) as pool:
            ids = list(pool.map(enter, range(tickets)))
        found = []
        with httpx.Client(base_url=bases[1], timeout=30) as http:
            for key, ticket_id in zip(keys, ids):
                for _ in range(600):
                    body = http.get(f"/v1/queue/{ticket_id}",
                                    headers={"Authorization": f"Bearer {key}"}).json()
                    if body["status"] == "seated":
                        break
                    time.sleep(0.05)
                found.append(body)
    finally:
        for replica in replicas:
            replica.terminate()
            replica.wait(15)
    assert all(body["status"] == "seated" for body in found), "a ticket was never seated"
    games: dict[str, int] = {}
    for body in found:
        games[body["game_id"]] = games.get(body["game_id"], 0) + 1
    assert len(games) == tickets // 2 and set(games.values()) == {2}, "seated twice or alone"
    waits = sorted((datetime.fromisoformat(body["seated_at"]) -
                    datetime.fromisoformat(body["since"])).total_seconds() * 1000
                   for body in found)
    return {"p50": statistics.median(waits), "p99": waits[int(len(waits) * 0.99) - 1],
            "max": waits[-1], "games": len(games)}


def reads(args: argparse.Namespace, url: str, rng: random.Random) -> list:
    """Leaderboard pages and profiles through `python -m service`, run by run."""
    rows = []
    server = serve(8394, {"DATABASE_URL": url, "REDIS_URL": REDIS_URL, "ACCESS_LOG": "0"})
    try:
        with httpx.Client(base_url="http://127.0.0.1:8394", timeout=30) as client:
            boards = board_paths(url, args.requests, rng)
            profiles = [f"/v1/players/p_{rng.randrange(1, args.players + 1):016d}"
                        for _ in range(args.requests)]
            timed(client, boards[:100] + profiles[:100])  # warm the caches
            for run in range(1, args.runs + 1):
                progress(f"run {run}: {args.requests} leaderboard pages, {args.requests}"
                         " profiles")
                rows.append(("leaderboard page", run, *timed(client, boards)))
                rows.append(("player profile", run, *timed(client, profiles)))
    finally:
        server.terminate()
        server.wait(15)
    return rows


def print_reads(args: argparse.Namespace, rows: list) -> None:
    print(f"\n{args.players:,} players, {args.games:,} rated games; {args.requests} requests"
          " a run, one at a time\n")
    print("| read | run | p50 ms | p99 ms |\n|---|---|---|---|")
    for label, run, p50, p99 in rows:
        print(f"| {label} | {run} | {p50:.2f} | {p99:.2f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--tickets", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--parts", default="reads,rebuild,queue",
                        help="which measures to run, comma-separated")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    rng = random.Random(1)
    name = f"crab_players_{uuid.uuid4().hex[:8]}"
    psql(SERVER, f"CREATE DATABASE {name}")
    url = SERVER.rsplit("/", 1)[0] + f"/{name}"
    rows = []
    try:
        migrate(url)
        progress(f"filling: {args.players:,} players, {args.games:,} rated games")
        started = time.perf_counter()
        fill(url, args.players, args.games)
        progress(f"filled in {time.perf_counter() - started:.0f} s")
        if "reads" in parts:
            rows = reads(args, url, rng)
        print_reads(args, rows)
        rebuilds = []
        for run in range(1, args.runs + 1 if "rebuild" in parts else 1):
            progress(f"run {run}: rebuilding every rating")
            done = subprocess.run([sys.executable, "-m", "service.archive", "rebuild-ratings"],
                                  cwd=ROOT, env={**os.environ, "DATABASE_URL": url},
                                  capture_output=True, text=True)
            if done.returncode:
                raise RuntimeError(f"the rebuild failed: {done.stderr[-2000:]}")
            out = done.stdout
            rebuilds.append(float(out.split("(")[1].split()[0].replace(",", "")))
            progress(out.strip())
        redis.Redis.from_url(REDIS_URL).flushdb()
        waits = []
        for run in range(1, args.runs + 1 if "queue" in parts else 1):
            progress(f"run {run}: {args.tickets} tickets through two replicas")
            waits.append(queue(args.tickets, url))
            redis.Redis.from_url(REDIS_URL).flushdb()
    finally:
        psql(SERVER, f"DROP DATABASE {name} WITH (FORCE)")
    if rebuilds:
        print(f"\nrating rebuild, games/s: median {statistics.median(rebuilds):,.0f}"
              f" (runs {', '.join(f'{r:,.0f}' for r in rebuilds)})\n")
    if waits:
        print("| queue run | tickets | games | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|---|")
    for run, found in enumerate(waits, 1):
        print(f"| {run} | {args.tickets} | {found['games']} | {found['p50']:.0f} |"
              f" {found['p99']:.0f} | {found['max']:.0f} |")


if __name__ == "__main__":
    main()
