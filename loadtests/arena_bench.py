"""How many deals does a series need to tell two bots apart? Duplicate deals against not.

    python loadtests/arena_bench.py [--deals 200] [--game cup-the-crab] [--at-once 4]
                                    [--url http://127.0.0.1:8000] [--out results.json]

Starts `python -m service` on the embedded store and a SQLite archive of its own (unless
--url names a running service) and plays four series of --deals deals, each deal once
per rotation of the seats:

1. the example bot (examples/bot.py, core.ai at level 2 from its seat's view, through its
   stream and the HTTP API) against AI level 3, with duplicate deals;
2. the same without duplicate deals (every game its own cards);
3. AI level 3 against AI level 3 (the same strength), with duplicate deals;
4. the same without.

For each: the paired and the unpaired difference with their 95% intervals, their
variance ratio, the first number of deals after which the interval excludes zero (and
stays clear of it to the end), and how many deals each format needs for +-5% (the
crosstable's `deals_for_5_percent`, at the spread measured). Progress every 10 s.
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.arena.crosstable import Played, pair  # noqa: E402

KINDS = [("bot level 2 vs AI level 3", "bot", True), ("bot level 2 vs AI level 3", "bot", False),
         ("AI level 3 vs AI level 3", "ai", True), ("AI level 3 vs AI level 3", "ai", False)]


def serve(port: int, archive: str) -> subprocess.Popen:
    env = {"DATABASE_URL": f"sqlite:///{archive}", "ACCESS_LOG": "0",
           "RATE_LIMIT_CREATES_PER_MINUTE": "0", "RATE_LIMIT_MOVES_PER_SECOND": "0",
           "PATH": "/usr/bin:/bin"}
    process = subprocess.Popen([sys.executable, "-m", "service", "--port", str(port)],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            httpx.get(f"http://127.0.0.1:{port}/health", timeout=1)
            return process
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("the service did not start")


def start_series(url: str, kind: str, duplicate: bool, args) -> tuple[str, subprocess.Popen | None]:
    if kind == "bot":  # the example bot starts its own series and plays it
        bot = subprocess.Popen(
            [sys.executable, "examples/bot.py", "--url", url, "--series", "ai-3",
             "--deals", str(args.deals), "--game", args.game, "--policy", "ai", "--level",
             "2", "--turn-seconds", "30", "--seed", "1",
             *([] if duplicate else ["--no-duplicate"])],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for line in bot.stdout:
            if line.startswith('{"series"'):
                return json.loads(line)["series"], bot
        raise RuntimeError("the bot started no series")
    owner = httpx.post(f"{url}/v1/players", json={"name": "bench", "kind": "bot"}).json()
    made = httpx.post(f"{url}/v1/series", headers={"Authorization": f"Bearer {owner['key']}"},
                      json={"game": args.game, "players": 2, "contestants": ["ai-3", "ai-3"],
                            "deals": args.deals, "duplicate": duplicate,
                            "turn_seconds": 30, "at_once": args.at_once})
    made.raise_for_status()
    return made.json()["id"], None


def wait(url: str, series_id: str, label: str) -> dict:
    started = time.monotonic()
    while (found := httpx.get(f"{url}/v1/series/{series_id}").json())["status"] == "running":
        print(f"  {label}: {found['games_done']}/{found['games_total']} games"
              f" ({time.monotonic() - started:.0f} s)", flush=True)
        time.sleep(10)
    return found


def games(url: str, series: dict) -> list[dict]:
    found, page = [], f"{url}{series['games']}"
    while page:
        body = httpx.get(page).json()
        found += body["games"]
        page = f"{url}{body['next']}" if body["next"] else None
    return found


def excluded_from(played: list[Played], deals: int, measure: str) -> int | None:
    """The first number of deals from which on the interval of `measure` (a crosstable
    cell's field) excludes zero."""
    first = None
    for n in range(2, deals + 1):
        cell = pair([game for game in played if game.deal < n], 0, 1, rotations=2)
        clear = cell[measure] is not None and cell[measure]["excludes_zero"]
        first = (first or n) if clear else None
    return first


def measure(url: str, label: str, kind: str, duplicate: bool, args) -> dict:
    series_id, bot = start_series(url, kind, duplicate, args)
    series = wait(url, series_id, f"{label}, {'duplicate' if duplicate else 'fresh deals'}")
    if bot is not None:
        bot.wait(60)
    played = [Played(g["deal"], dict(enumerate(g["ranks"])), g["game_id"],
                     dict(enumerate(g["scores"])) if g["scores"] else None)
              for g in games(url, series) if g["ranks"]]
    [cell] = series["crosstable"]
    return {"label": label, "duplicate": duplicate, "series": series_id, "cell": cell,
            **{f"clear_{measure}": excluded_from(played, args.deals, measure) for measure in
               ("paired_difference", "difference", "paired_points_difference",
                "points_difference")},
            "latency": [c["latency"] for c in series["contestants"]]}


def interval(found: dict | None) -> str:
    return "-" if found is None else \
        f"{found['mean']:+.3f} [{found['low']:+.3f}, {found['high']:+.3f}]"


def points_table(results: list[dict]) -> str:
    rows = ["| series | points difference, paired | points difference, unpaired |"
            " variance ratio | interval clear of 0 from deal (paired / unpaired) |",
            "|---|---|---|---|---|"]
    for r in results:
        cell = r["cell"]
        rows.append(
            f"| {r['label']}, {'duplicate' if r['duplicate'] else 'fresh deals'} |"
            f" {interval(cell['paired_points_difference'])} |"
            f" {interval(cell['points_difference'])} | {cell['points_variance_ratio']} |"
            f" {r['clear_paired_points_difference'] or 'never'} /"
            f" {r['clear_points_difference'] or 'never'} |")
    return "\n".join(rows)


def table(results: list[dict]) -> str:
    rows = ["| series | deals | a's score | difference, paired | difference, unpaired |"
            " variance ratio | interval clear of 0 from deal (paired / unpaired) |"
            " deals for +-5% (paired / unpaired) |", "|---|---|---|---|---|---|---|---|"]
    for r in results:
        cell = r["cell"]
        p, u = cell["paired_difference"], cell["difference"]
        rows.append(
            f"| {r['label']}, {'duplicate' if r['duplicate'] else 'fresh deals'} |"
            f" {cell['deals']} | {cell['score']:.3f} |"
            f" {p['mean']:+.3f} [{p['low']:+.3f}, {p['high']:+.3f}] |"
            f" {u['mean']:+.3f} [{u['low']:+.3f}, {u['high']:+.3f}] |"
            f" {cell['variance_ratio']} |"
            f" {r['clear_paired_difference'] or 'never'} / {r['clear_difference'] or 'never'} |"
            f" {cell['deals_for_5_percent']['paired']} / {cell['deals_for_5_percent']['unpaired']} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--game", default="cup-the-crab")
    parser.add_argument("--at-once", type=int, default=4)
    parser.add_argument("--url")
    parser.add_argument("--port", type=int, default=8590)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    service = None
    with tempfile.TemporaryDirectory() as scratch:
        url = args.url
        if url is None:
            service = serve(args.port, f"{scratch}/archive.sqlite3")
            url = f"http://127.0.0.1:{args.port}"
        try:
            results = [measure(url, label, kind, duplicate, args)
                       for label, kind, duplicate in KINDS]
        finally:
            if service is not None:
                service.terminate()
                service.wait(20)
    print(table(results))
    if results[0]["cell"]["points_difference"] is not None:
        print()
        print(points_table(results))
    if args.out:
        args.out.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
