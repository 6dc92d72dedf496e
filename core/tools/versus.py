"""Two AI players against each other at one table size: ``python -m core.tools.versus``.

The measuring tool of docs/ai.md for the search's variants (playouts, rewards) and
budgets: a *hero* player holds some seats of every game, a *field* player the others, and
the hero's seats rotate with the game so that every seat is the hero's equally often.
Each player is core.ai.suggest's keywords, e.g. ``level=5`` or
``iterations=2500,playout=policy,reward=rank``.  Printed: the hero's share of the
victories (a shared victory counts 1/winners), its fair share, the 95% Wilson interval,
the hero's *place share* (of the pairs of a hero seat and a field seat, the share in
which the hero's seat finished above, a tie counting half: 50% is fair at every table
size; a sharp proxy for the rating scale, which counts every place), with a 95% normal
interval over the games, and the CPU time a searched decision of each side (to match
budgets at equal CPU time).
Every game is seeded as in the ladder (core/tools/ladder.py), so a run repeats exactly.

    python -m core.tools.versus --players 4 --hero-seats 1 --hero level=4 --field level=5 \\
        --games 200 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from core.tools import ladder


def parse_player(text: str) -> ladder.Player:
    """``level=5`` -> 5; ``iterations=2500,playout=policy`` -> keywords for suggest()."""
    out: dict[str, Any] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise argparse.ArgumentTypeError(f"expected key=value[,key=value...], got {text!r}")
        out[key] = int(value) if value.isdigit() else float(value) if value.replace(
            ".", "", 1).isdigit() else value
    if set(out) == {"level"}:
        return int(out["level"])
    return out


def seating(players: int, hero_seats: int, index: int) -> list[bool]:
    """Which seats the hero holds in game `index`: hero_seats seats spread around the
    table (every other seat for half the table), turned one seat further every game."""
    step = players / hero_seats
    held = {int(k * step) for k in range(hero_seats)}
    return [(seat - index) % players in held for seat in range(players)]


def place_share(ranks: dict[int, int], mine: list[bool]) -> float:
    """The hero's share of the (hero seat, field seat) pairs in which the hero's seat
    finished above (a tie counts half): 0.5 is a fair share at every table size."""
    pairs = [(h, f) for h in range(len(mine)) if mine[h] for f in range(len(mine)) if not mine[f]]
    return sum((ranks[h] < ranks[f]) + 0.5 * (ranks[h] == ranks[f]) for h, f in pairs) / len(pairs)


def _one_game(args: tuple[str, int, int, ladder.Player, ladder.Player, int, int]
              ) -> tuple[float, float, list[float]]:
    game, players, hero_seats, hero, field, index, seed = args
    mine = seating(players, hero_seats, index)
    cpu = [[0.0, 0.0] for _ in range(players)]
    state = ladder.played(game, [hero if m else field for m in mine], seed, cpu)
    result = state.result()
    winners = result["winners"]
    share = sum(1.0 / len(winners) for seat in winners if mine[seat])
    place = place_share({r["seat"]: r["rank"] for r in result["ranking"]}, mine)
    totals = [0.0, 0.0, 0.0, 0.0]           # hero seconds, decisions, field seconds, decisions
    for seat, (seconds, decisions) in enumerate(cpu):
        side = 0 if mine[seat] else 2
        totals[side] += seconds
        totals[side + 1] += decisions
    return share, place, totals


def run(game: str, players: int, hero_seats: int, hero: ladder.Player, field: ladder.Player,
        games: int, seed: int, jobs: int) -> dict[str, Any]:
    work = [(game, players, hero_seats, hero, field, i, seed + i) for i in range(games)]
    progress = ladder.Progress(games)
    started = time.perf_counter()
    wins, totals, places = 0.0, [0.0, 0.0, 0.0, 0.0], []
    pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
    try:
        for share, place, cpu in (pool.map(_one_game, work) if pool else map(_one_game, work)):
            wins += share
            places.append(place)
            totals = [a + b for a, b in zip(totals, cpu)]
            progress.step(f"{players}p")
    finally:
        if pool:
            pool.shutdown()
    sys.stderr.write("\n")
    low, high = ladder.wilson(wins, games)
    place = statistics.fmean(places)
    half = 1.96 * statistics.stdev(places) / math.sqrt(games) if games > 1 else 0.0
    return {"game": game, "players": players, "hero_seats": hero_seats, "hero": hero,
            "field": field, "games": games, "seed": seed, "wins": wins,
            "win_rate": wins / games, "fair": hero_seats / players, "ci95": [low, high],
            "place": place, "place_ci95": [place - half, place + half],
            "hero_ms": 1000 * totals[0] / max(totals[1], 1),
            "field_ms": 1000 * totals[2] / max(totals[3], 1),
            "seconds": time.perf_counter() - started}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m core.tools.versus", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="cup-the-crab")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--hero-seats", type=int, default=1, help="seats the hero holds")
    parser.add_argument("--hero", type=parse_player, required=True)
    parser.add_argument("--field", type=parse_player, required=True)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0, help="first game's seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--json", help="append the result as one JSON line to this file")
    args = parser.parse_args(argv)
    if not 1 <= args.hero_seats < args.players:
        parser.error("--hero-seats must be from 1 to players - 1")
    r = run(args.game, args.players, args.hero_seats, args.hero, args.field, args.games,
            args.seed, args.jobs)
    print(f"{r['game']} {r['players']}p, hero {r['hero']} in {r['hero_seats']} seat(s) vs"
          f" {r['field']}: {r['games']} games, hero share {r['win_rate']:.1%} (fair"
          f" {r['fair']:.1%}), 95% CI [{r['ci95'][0]:.1%}, {r['ci95'][1]:.1%}];"
          f" place share {r['place']:.1%} (fair 50.0%), 95% CI [{r['place_ci95'][0]:.1%},"
          f" {r['place_ci95'][1]:.1%}];"
          f" CPU a decision: hero {r['hero_ms']:.1f} ms, field {r['field_ms']:.1f} ms"
          f" ({r['seconds']:.0f} s)", flush=True)
    if args.json:
        with open(args.json, "a") as out:
            out.write(json.dumps(r) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
