"""The AI levels' fixed ratings, computed once from games between the levels.

    python -m service.players.ratings.calibrate [--rounds 6] [--jobs 2] [--write]

Plays seeded games between the five levels of core.ai (every pair with 2 players, every
set of distinct levels with 3 to 5, seats rotated), rates them in order through the
model of service.players.ratings (every level learning, from OpenSkill's default skill),
and prints each level's skill. For a game of several table sizes (core.PLAYERS; Cup the
Crab: 2 to 5) it also fits the 2-player games and the larger tables' apart, and where the
two fits disagree, ratings are kept apart: one rating pool for 2 players, one for more.
--write stores the pools and the levels' skills in each in
service/players/ratings/anchors.json, which the service reads and never changes. Every
game is seeded: a run repeats exactly.
"""

import argparse
import itertools
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import core
from core.tools import ladder
from service.players.ratings.model import ANCHORS, DEFAULT, Skill, rated

LEVELS = (1, 2, 3, 4, 5)
TABLES = core.PLAYERS  # each game's table sizes, as the registry gives them


def schedule(game: str, rounds: int) -> list[tuple[str, tuple[int, ...], int]]:
    """(game, levels by seat, seed) of every calibration game, in the order they are rated."""
    games = []
    for players in TABLES[game]:
        for group in itertools.combinations(LEVELS, players):
            for turn in range(rounds):
                shift = turn % players  # every level takes every seat in turn
                seating = group[shift:] + group[:shift]
                games.append((game, seating, 10_000 * players + len(games)))
    return games


def ranks_of(args: tuple[str, tuple[int, ...], int]) -> list[int]:
    """The ranks by seat of one game."""
    game, seating, seed = args
    result = ladder.played(game, list(seating), seed).result()
    ranks = [0] * len(seating)
    for place in result["ranking"]:
        ranks[place["seat"]] = place["rank"]
    return ranks


def fitted(games: list[tuple[tuple[int, ...], list[int]]]) -> dict[int, Skill]:
    """The levels' skills after rating the games in order, every level learning."""
    skills = {level: DEFAULT for level in LEVELS}
    for seating, ranks in games:
        after = rated([skills[level] for level in seating], ranks, [False] * len(seating))
        skills.update(zip(seating, after))
    return skills


def agree(a: dict[int, Skill], b: dict[int, Skill]) -> bool:
    """Whether two fits agree: every level's gap to level 1 the same within two standard
    errors of the difference."""
    for level in LEVELS[1:]:
        gap_a, gap_b = a[level].mu - a[1].mu, b[level].mu - b[1].mu
        spread = math.sqrt(sum(s[level].sigma ** 2 + s[1].sigma ** 2 for s in (a, b)))
        if abs(gap_a - gap_b) > 2 * spread:
            return False
    return True


def _pool(game: str, players: list[int], skills: dict[int, Skill]) -> dict[str, Any]:
    return {"game": game, "players": players,
            "levels": {str(level): {"mu": s.mu, "sigma": s.sigma} for level, s in skills.items()}}


def _sizes(players: tuple[int, ...]) -> str:
    """Table sizes as the fits and the pools name them: 2, 3-5."""
    return f"{players[0]}-{players[-1]}" if len(players) > 1 else str(players[0])


def _tables(game: str) -> tuple[tuple[int, ...], ...]:
    """The game's table sizes as rated apart if the fits disagree: its smallest tables and
    the larger ones ((2,), (3, 4, 5)), or all at once for a game of one size."""
    smallest, *larger = TABLES[game]
    return ((smallest,), tuple(larger)) if larger else ()


def fits_of(game: str, results: list[tuple[tuple[int, ...], list[int]]]
            ) -> dict[str, dict[int, Skill]]:
    """The levels' skills fitted on all the game's games ("all") and on each of its tables
    apart ("2 players", "3-5 players")."""
    fits = {"all": fitted(results)}
    for players in _tables(game):
        fits[f"{_sizes(players)} players"] = fitted([r for r in results if len(r[0]) in players])
    return fits


def pools_of(game: str, fits: dict[str, dict[int, Skill]]) -> dict[str, dict[str, Any]]:
    """The game's rating pools: one, or one per table where their fits disagree
    (cup-the-crab-2p, cup-the-crab-3-5p)."""
    tables = _tables(game)
    if not tables or agree(*(fits[f"{_sizes(players)} players"] for players in tables)):
        return {game: _pool(game, list(TABLES[game]), fits["all"])}
    return {f"{game}-{_sizes(players)}p": _pool(game, list(players),
                                                fits[f"{_sizes(players)} players"])
            for players in tables}


def table(title: str, fits: dict[str, dict[int, Skill]]) -> None:
    print(f"\n{title}\n")
    print("| level | " + " | ".join(f"{name}: mu, sigma" for name in fits) + " |")
    print("|---|" + "---|" * len(fits))
    for level in LEVELS:
        cells = [f"{fit[level].mu:.2f}, {fit[level].sigma:.2f}" for fit in fits.values()]
        print(f"| {level} | " + " | ".join(cells) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6, help="games per group of levels")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--write", action="store_true", help="store the skills in anchors.json")
    args = parser.parse_args(argv)
    pools: dict[str, dict[str, Any]] = {}
    report: dict[str, Any] = {}
    with ProcessPoolExecutor(args.jobs) as workers:
        for game in TABLES:
            work = schedule(game, args.rounds)
            started, results = time.perf_counter(), []
            for done, ranks in enumerate(workers.map(ranks_of, work), 1):
                results.append((work[done - 1][1], ranks))
                sys.stderr.write(f"\r  {game}: {done}/{len(work)} games,"
                                 f" {time.perf_counter() - started:.0f} s   ")
            sys.stderr.write("\n")
            fits = fits_of(game, results)
            game_pools = pools_of(game, fits)
            if len(fits) > 1:
                report[game] = {"separate ratings needed": len(game_pools) > 1}
            pools.update(game_pools)
            table(f"{game}: {len(results)} games", fits)
    print("\n" + json.dumps(report))
    if args.write:
        ANCHORS.write_text(json.dumps({"rounds": args.rounds, "pools": pools}, indent=1) + "\n")
        print(f"wrote {ANCHORS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
