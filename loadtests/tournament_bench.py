"""A Swiss tournament of many bots, played to the end: how long it takes, how fast the
moves and the standings' reads answer meanwhile, and whether every game is archived once.

    python loadtests/tournament_bench.py [--bots 256] [--rounds 7] [--deals 1]
        [--no-duplicate] [--game cup-the-crab] [--turn-seconds 30] [--port 8591]
        [--out results.json]

Starts `python -m service` (one worker, the embedded store, a SQLite archive of its own in
a temporary folder), registers --bots bots, each the example bot (examples/bot.py, its
`random` policy) as an in-process client over HTTP: it follows its player stream, enters
the tournament with its own key, and plays every game it is announced through that
game's stream. A reader meanwhile GETs the tournament every 0.25 s, once in full and once
with If-None-Match. When the tournament is over and the archive drained, every game of it
is looked for in the archive's database: once each.

Progress on stderr every 10 s; the results as JSON on stdout (and in --out): the wall
time from the start to the final standings, the moves' latency (each bot's POST, as the
bot sees it), the standings reads' latency (full and conditional), CPU seconds of the
service and of this process, the load average before and after.
"""

import argparse
import asyncio
import importlib.util
import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("example_bot", ROOT / "examples" / "bot.py")
example = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(example)  # type: ignore[union-attr]


def serve(port: int, archive: str, log: Path) -> subprocess.Popen:
    env = {"DATABASE_URL": f"sqlite:///{archive}", "ACCESS_LOG": "0",
           "RATE_LIMIT_CREATES_PER_MINUTE": "0", "RATE_LIMIT_MOVES_PER_SECOND": "0",
           "TURN_SECONDS_MIN": "1", "PATH": "/usr/bin:/bin"}
    with log.open("wb") as output:
        process = subprocess.Popen([sys.executable, "-m", "service", "--port", str(port)],
                                   cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT)
    for _ in range(600):
        try:
            httpx.get(f"http://127.0.0.1:{port}/health", timeout=1)
            return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.terminate()
    raise RuntimeError("the service did not start")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1)


def summary(values: list[float]) -> dict:
    return {"count": len(values), "p50_ms": percentile(values, 0.5),
            "p90_ms": percentile(values, 0.9), "p99_ms": percentile(values, 0.99),
            "max_ms": round(max(values), 1) if values else None}


class TimedBot(example.Bot):
    """The example bot, its moves' requests timed."""

    def __init__(self, *args, times: list[float], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.times = times

    async def move(self, game_id: str, token: str, body: dict) -> None:
        move = await asyncio.to_thread(self.policy.choose, body)
        began = time.perf_counter()
        answer = await self.client.post(
            f"/v1/games/{game_id}/moves", headers={"Authorization": f"Bearer {token}"},
            json={"move": move, "expected_version": body["version"]})
        self.times.append((time.perf_counter() - began) * 1000)
        if answer.status_code == 200:
            self.moves += 1


async def get_json(client: httpx.AsyncClient, url: str) -> dict:
    """A read, tried again when a kept-alive connection was closed under it (the server
    closes idle ones after 5 s, and a loaded machine can make a request meet that)."""
    for attempt in range(5):
        try:
            answer = await client.get(url)
            answer.raise_for_status()
            return answer.json()
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(1)
    raise AssertionError("unreachable")


async def register(client: httpx.AsyncClient, name: str) -> dict:
    answer = await client.post("/v1/players", json={"name": name, "kind": "bot"})
    answer.raise_for_status()
    return answer.json()


async def read_standings(client: httpx.AsyncClient, url: str, full: list[float],
                         conditional: list[float]) -> None:
    tag = None
    while True:
        try:
            began = time.perf_counter()
            answer = await client.get(url)
            full.append((time.perf_counter() - began) * 1000)
            tag = answer.headers.get("ETag", tag)
            if tag:
                began = time.perf_counter()
                await client.get(url, headers={"If-None-Match": tag})
                conditional.append((time.perf_counter() - began) * 1000)
        except httpx.TransportError as error:  # counted, and the reads go on
            print(f"standings read failed: {error!r}", file=sys.stderr)
        await asyncio.sleep(0.25)


async def run(url: str, args: argparse.Namespace, archive: str | None,
              service_pid: int | None) -> dict:
    moves: list[float] = []
    full: list[float] = []
    conditional: list[float] = []
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        owner = await register(client, "organiser")
        made = await client.post("/v1/tournaments", headers={
            "Authorization": f"Bearer {owner['key']}"}, json={
            "game": args.game, "players": 2, "format": "swiss", "rounds": args.rounds,
            "deals": args.deals, "duplicate": not args.no_duplicate,
            "turn_seconds": args.turn_seconds, "entry_seconds": 3600})
        made.raise_for_status()
        tournament = made.json()
        bots = []
        for i in range(args.bots):
            player = await register(client, f"bot-{i}")
            bots.append(TimedBot(url, player["key"], example.Policy("random", 0, i), False,
                                 times=moves))
            entered = await client.put(f"/v1/tournaments/{tournament['id']}/entrants/"
                                       f"{player['id']}",
                                       headers={"Authorization": f"Bearer {player['key']}"})
            entered.raise_for_status()
        print(f"{args.bots} bots entered tournament {tournament['id']}", file=sys.stderr)
        streams = [asyncio.create_task(bot.follow()) for bot in bots]
        await asyncio.sleep(2)  # every bot's stream open
        service_cpu = cpu_seconds(service_pid) if service_pid else None
        own_cpu = resource.getrusage(resource.RUSAGE_SELF)
        load_before = os.getloadavg()
        began = time.monotonic()
        started = await client.post(f"/v1/tournaments/{tournament['id']}/start",
                                    headers={"Authorization": f"Bearer {owner['key']}"})
        started.raise_for_status()
        reader = asyncio.create_task(read_standings(client, f"/v1/tournaments/{tournament['id']}",
                                                    full, conditional))
        last = 0.0
        try:
            while True:
                found = await get_json(client, f"/v1/tournaments/{tournament['id']}")
                if found["status"] not in ("entry", "running"):
                    break
                if time.monotonic() - last >= 10:
                    last = time.monotonic()
                    over = sum(t["over"] for t in found["tables"])
                    print(f"{last - began:6.0f} s: round {found['round']}/{args.rounds},"
                          f" {over}/{len(found['tables'])} tables over, {len(moves)} moves,"
                          f" move p99 {percentile(moves, 0.99)} ms, standings p99"
                          f" {percentile(full, 0.99)} ms", file=sys.stderr)
                await asyncio.sleep(0.5)
            wall = time.monotonic() - began
            load_after = os.getloadavg()
            service_cpu = None if service_cpu is None else cpu_seconds(service_pid) - service_cpu
            after = resource.getrusage(resource.RUSAGE_SELF)
            own = after.ru_utime + after.ru_stime - own_cpu.ru_utime - own_cpu.ru_stime
        finally:
            reader.cancel()
            for stream in streams:
                stream.cancel()
            for bot in bots:
                for task in bot.playing.values():
                    task.cancel()
                await bot.close()
        games = []
        page = f"/v1/tournaments/{tournament['id']}/games"
        while page:
            body = await get_json(client, page)
            games.extend(body["games"])
            page = body["next"]
        for _ in range(600):
            if (await get_json(client, "/ready"))["archive"]["outbox_depth"] == 0:
                break
            await asyncio.sleep(0.5)
    archived = None
    if archive is not None:
        with sqlite3.connect(archive) as database:
            rows, distinct = database.execute(
                "SELECT count(*), count(DISTINCT id) FROM archived_games WHERE id LIKE ?",
                (f"{tournament['id']}-%",)).fetchone()
            archived = {"rows": rows, "distinct": distinct}
    return {"tournament": tournament["id"], "status": found["status"], "bots": args.bots,
            "rounds": args.rounds, "deals": args.deals, "duplicate": not args.no_duplicate,
            "games": len(games), "games_over": sum(1 for g in games if g["ended_at"]),
            "archived": archived, "wall_seconds": round(wall, 1),
            "bot_moves": sum(bot.moves for bot in bots), "moves": summary(moves),
            "standings_reads": summary(full), "standings_reads_304": summary(conditional),
            "service_cpu_seconds": None if service_cpu is None else round(service_cpu, 1),
            "bench_cpu_seconds": round(own, 1),
            "load_before": [round(x, 2) for x in load_before],
            "load_after": [round(x, 2) for x in load_after],
            "top": found["standings"][:3]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument("--no-duplicate", action="store_true")
    parser.add_argument("--game", default="cup-the-crab")
    parser.add_argument("--turn-seconds", type=int, default=30)
    parser.add_argument("--port", type=int, default=8591)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        archive = f"{scratch}/archive.sqlite3"
        log = Path(scratch) / "service.log"
        service = serve(args.port, archive, log)
        try:
            results = asyncio.run(run(f"http://127.0.0.1:{args.port}", args, archive,
                                      service.pid))
        except BaseException:
            print("the service's last lines:\n" + "\n".join(
                log.read_text(errors="replace").splitlines()[-40:]), file=sys.stderr)
            raise
        finally:
            service.terminate()
            service.wait(20)
    print(json.dumps(results, indent=1))
    if args.out:
        args.out.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
