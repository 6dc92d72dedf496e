"""The AI levels' fixed ratings, computed once from games between the levels.

    python -m service.players.ratings.calibrate [--rounds 6] [--jobs 2] [--write]

Plays seeded games between the five levels of core.ai (every pair with 2 players, every
set of distinct levels with 3 to 5, seats rotated), rates them in order through the
model of service.players.ratings (every level learning, from OpenSkill's default skill),
and prints each level's skill. For Cup the Crab it also fits the 2-player games and the 3
to 5-player games apart, and where the two fits disagree, ratings are kept apart: one
rating pool per table size. --write stores the pools and the levels' skills in each in
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

from core.tools import ladder
from service.players.ratings.model import ANCHORS, DEFAULT, Skill, rated

LEVELS = (1, 2, 3, 4, 5)
TABLES = {"cup-the-crab": (2, 3, 4, 5), "crabe-vs-poulpe": (2,)}


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
            skills = fitted(results)
            fits = {"all": skills}
            split = False
            if len(TABLES[game]) > 1:
                fits["2 players"] = fitted([r for r in results if len(r[0]) == 2])
                fits["3-5 players"] = fitted([r for r in results if len(r[0]) > 2])
                split = not agree(fits["2 players"], fits["3-5 players"])
                report[game] = {"separate ratings needed": split}
            if split:  # a rating per table size: 2 players, and more
                pools[f"{game}-2p"] = _pool(game, [2], fits["2 players"])
                pools[f"{game}-3-5p"] = _pool(game, list(TABLES[game][1:]), fits["3-5 players"])
            else:
                pools[game] = _pool(game, list(TABLES[game]), skills)
            table(f"{game}: {len(results)} games", fits)
    print("\n" + json.dumps(report))
    if args.write:
        ANCHORS.write_text(json.dumps({"rounds": args.rounds, "pools": pools}, indent=1) + "\n")
        print(f"wrote {ANCHORS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
