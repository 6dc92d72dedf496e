"""What one game costs in Redis at its start, middle and end (issue #24: <= 8 KiB).

    python loadtests/redis_footprint.py [--games 8] [--port 8250] [--redis-port 8200]
        [--turn-seconds 0] [--service-dir .]

Starts a private Redis (redis-server on --redis-port, nothing saved) and one replica
(`python -m service` of --service-dir, default this checkout, e.g. an older commit's
tree for the before figures; the limit on creates off, each seat's budget of moves on as
by default, its archive a SQLite file in a temporary directory).
Then, for Cup the Crab at 2 to 5 players and Crabe vs Poulpe, plays --games games to the
end through the API, every seat a person (a random legal move of a seat to move, with
the seat's token and expected_version, as a frontend sends it). After every version it
reads MEMORY USAGE (SAMPLES 0: exact) of each of the game's keys (`game:{<id>}:*`), and
prints, per game and player count, the median bytes a game holds at its start (version
0), middle (half its versions) and end, the largest at any version, and the share of
each key at the end. It also reads INFO memory's used_memory once the games of a row
have ended, deletes their keys and reads it again, and prints the drop per game (what
Redis as a whole held for them: the keys, their entries in the keyspace and expiry
dictionaries, the allocator's rounding). (A difference from before the games were
created to after they ended moved by tens of KiB a game either way with 8 games: the
service's connections, buffers and scripts take and give back memory meanwhile.) One
uncounted game comes first. The games of the last row are kept for the timing below.
Last, with --service-dir's store: for the last game of each row it times changes_since
(what an event stream's feed reads) after the version before the last (the latest
record only), after the middle version and after 0 (rebuilt by the core from the log,
or read from the records before), and it times the commits of 10 4-player games.

With --turn-seconds N the games are played with a turn clock (every version's metadata
then carries new deadlines).
"""

import argparse
import asyncio
import importlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import redis

ROOT = Path(__file__).resolve().parent.parent
TABLES = (("cup-the-crab", 2), ("cup-the-crab", 3), ("cup-the-crab", 4),
          ("cup-the-crab", 5), ("crabe-vs-poulpe", 2))
GOAL = 8 * 1024


@dataclass
class Played:
    """One game's footprint: bytes per key at each version."""
    game_id: str
    versions: list[dict[str, int]] = field(default_factory=list)

    def total(self, version: int) -> int:
        return sum(self.versions[version].values())


def game_keys(client: redis.Redis, game_id: str) -> list[bytes]:
    """Every key of the game (its tag's braces escaped: SCAN's pattern is a glob)."""
    return list(client.scan_iter(match=f"game:\\{{{game_id}\\}}:*", count=1000))


def footprint(client: redis.Redis, game_id: str) -> dict[str, int]:
    """Bytes each of the game's keys holds, by its name without the game's tag (a seat's
    rate budgets together, as "budget")."""
    found: dict[str, int] = {}
    for key in game_keys(client, game_id):
        name = key.decode().split("}:", 1)[1]
        name = "budget" if name.startswith("budget:") else name
        found[name] = found.get(name, 0) + (client.memory_usage(key, samples=0) or 0)
    return found


async def play(http: aiohttp.ClientSession, url: str, client: redis.Redis, game: str,
               players: int, turn_seconds: int, rng: random.Random) -> Played:
    body: dict = {"game": game, "players": players}
    if turn_seconds:
        body["turn_seconds"] = turn_seconds
    async with http.post(f"{url}/v1/games", json=body) as response:
        assert response.status == 201, await response.text()
        created = await response.json()
    game_id = created["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    played = Played(game_id, [footprint(client, game_id)])
    while True:
        async with http.get(f"{url}/v1/games/{game_id}") as response:
            view = await response.json()
        if view["status"] == "over":
            return played
        seat = rng.choice(view["to_move"])
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        async with http.get(f"{url}/v1/games/{game_id}", headers=headers) as response:
            mine = await response.json()
        move = {"move": rng.choice(mine["legal_moves"]), "expected_version": mine["version"]}
        async with http.post(f"{url}/v1/games/{game_id}/moves", json=move,
                             headers=headers) as response:
            assert response.status == 200, await response.text()
        played.versions.append(footprint(client, game_id))


def start(port: int, redis_url: str, directory: Path, root: Path) -> subprocess.Popen:
    env = {**os.environ, "REDIS_URL": redis_url, "ACCESS_LOG": "0",
           "RATE_LIMIT_CREATES_PER_MINUTE": "0",
           "DATABASE_URL": f"sqlite:///{directory / 'archive.sqlite3'}"}
    log = (directory / "service.log").open("w")
    process = subprocess.Popen([sys.executable, "-m", "service", "--port", str(port)],
                               cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1):
                return process
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit(f"the service did not start: see {directory / 'service.log'}")


def kib(value: float) -> str:
    return f"{value / 1024:.1f}"


async def measure(args: argparse.Namespace, url: str, client: redis.Redis) -> None:
    rng = random.Random(args.seed)
    print(f"{args.games} games per row, turn clock: {args.turn_seconds or 'none'};"
          f" KiB per game (medians), goal {GOAL // 1024} KiB at any point")
    print(f"{'game':<16} {'players':>7} {'versions':>8} {'start':>6} {'middle':>6} {'end':>6}"
          f" {'max':>6} {'INFO/game':>9}  end by key")
    rows: list[tuple[str, int, Played]] = []
    async with aiohttp.ClientSession() as http:
        # One game first, not counted: Redis' first allocations (the scripts, the
        # service's connections, the notices' subscription) are nobody's game.
        await play(http, url, client, *TABLES[0], args.turn_seconds, rng)
        for game, players in TABLES:
            games = [await play(http, url, client, game, players, args.turn_seconds, rng)
                     for _ in range(args.games)]
            await asyncio.sleep(2)  # the archive takes the finished games meanwhile
            held = held_per_game(client, [played.game_id for played in games[:-1]])
            ends = [played.versions[-1] for played in games]
            keys = sorted({key for end in ends for key in end})
            shares = " ".join(f"{key} {kib(statistics.median(end.get(key, 0) for end in ends))}"
                              for key in keys)
            rows.append((game, players, games[-1]))
            print(f"{game:<16} {players:>7}"
                  f" {statistics.median(len(p.versions) - 1 for p in games):>8}"
                  f" {kib(statistics.median(p.total(0) for p in games)):>6}"
                  f" {kib(statistics.median(p.total(len(p.versions) // 2) for p in games)):>6}"
                  f" {kib(statistics.median(p.total(-1) for p in games)):>6}"
                  f" {kib(max(max(p.total(v) for v in range(len(p.versions))) for p in games)):>6}"
                  f" {kib(held):>9}  {shares}", flush=True)
    store_module = importlib.import_module("service.store")  # --service-dir's (main())
    store = store_module.RedisStore(f"redis://127.0.0.1:{args.redis_port}/0", 3600)
    try:
        await rebuilding(store, rows)
        await committing(store, store_module)
    finally:
        await store.close()


def held_per_game(client: redis.Redis, game_ids: list[str]) -> float:
    """Bytes used_memory drops by per game when these games' keys are deleted."""
    doomed = [key for game_id in game_ids for key in game_keys(client, game_id)]
    before = client.info("memory")["used_memory"]
    client.delete(*doomed)
    return (before - client.info("memory")["used_memory"]) / len(game_ids)


async def rebuilding(store, rows: list[tuple[str, int, Played]]) -> None:
    """How long the store takes to give a stream the versions after one (the feed's read:
    the latest only, or rebuilt by the core from the log), median of 50, for the last
    game of each row (kept by held_per_game)."""
    print("changes_since, ms (median of 50): after the version before the last, after"
          " the middle one, after 0")
    for game, players, played in rows:
        latest = len(played.versions) - 1
        times = []
        for after in (latest - 1, latest // 2, 0):
            await store.changes_since(played.game_id, after)  # connected, scripts loaded
            runs = []
            for _ in range(50):
                started = time.perf_counter()
                found = await store.changes_since(played.game_id, after)
                runs.append(time.perf_counter() - started)
            assert len(found) == latest - after
            times.append(f"{statistics.median(runs) * 1000:.2f}")
        print(f"{game:<16} {players:>7} {latest:>8} versions: {' '.join(times)}")


async def committing(store, store_module, games: int = 10) -> None:
    """How long the store takes to commit a move (the Lua script and what the store does
    around it), median over every move of `games` 4-player Cup the Crab games played by
    the core, with a service-shaped entry and metadata."""
    import core  # --service-dir's, as the store
    rng, runs = random.Random(4), []
    meta = json.dumps({"game": "cup-the-crab", "players": 4, "token_hashes": ["ab" * 32] * 4,
                       "created": time.time(), "open_seats": []}).encode()
    for number in range(games):
        state = core.new_game("cup-the-crab", 4, seed=number)
        game_id = f"commit-bench-{number}"
        await store.create(game_id, store_module.GameRecord(0, state.to_bytes(), meta))
        version = 0
        while not state.is_over:
            seat = rng.choice(list(state.to_move))
            move = rng.choice(state.legal_moves(seat))
            state.apply(seat, move)
            entry = json.dumps({"version": version + 1, "seat": seat, "kind": "move",
                                "move": move, "at": "2026-12-01T20:00:00.000Z"},
                               separators=(",", ":")).encode()
            started = time.perf_counter()
            assert await store.commit(game_id, version, store_module.Commit(
                state.to_bytes(), meta, entry))
            runs.append(time.perf_counter() - started)
            version += 1
    print(f"commit, ms (median of {len(runs)} moves): {statistics.median(runs) * 1000:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--port", type=int, default=8250)
    parser.add_argument("--redis-port", type=int, default=8200)
    parser.add_argument("--service-dir", type=Path, default=ROOT)
    parser.add_argument("--turn-seconds", type=int, default=0)
    parser.add_argument("--seed", type=int, default=24)
    args = parser.parse_args()
    sys.path.insert(0, str(args.service_dir.resolve()))  # its store is timed below
    url = f"redis://127.0.0.1:{args.redis_port}/0"
    server = subprocess.Popen(["redis-server", "--port", str(args.redis_port), "--save", "",
                               "--appendonly", "no"], stdout=subprocess.DEVNULL)
    try:
        client = redis.Redis.from_url(url)
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.1)
        print(f"Redis {client.info('server')['redis_version']},"
              f" service of {args.service_dir.resolve()}")
        with tempfile.TemporaryDirectory() as directory:
            process = start(args.port, url, Path(directory), args.service_dir)
            try:
                asyncio.run(measure(args, f"http://127.0.0.1:{args.port}", client))
            finally:
                process.terminate()
                process.wait(10)
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
