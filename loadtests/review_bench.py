"""What a review costs per decision at each AI level: the figures REVIEW_LEVEL is chosen by.

    python loadtests/review_bench.py --levels 3 4 5 --games 5

Random games of each game are played to the end in the core; every unforced decision of
seat 0 is reviewed as the service does (service.reviews.review), one search at a time on one
thread. Prints, per level and game, the decisions a game, the median and 90th percentile
seconds a decision and the seconds a whole review takes (docs/benchmarks.md, "Reviews").
"""

import argparse
import random
import statistics
import time
from typing import Any

import core
from service.reviews.review import decisions, reviewed

TABLES = (("cup-the-crab", 2), ("cup-the-crab", 5), ("crabe-vs-poulpe", 2))


def random_game(game: str, players: int, seed: int) -> tuple[bytes, list[dict[str, Any]]]:
    state = core.new_game(game, players, seed=seed)
    initial, entries, rng = state.to_bytes(), [], random.Random(seed)
    while not state.is_over:
        seat = rng.choice(state.to_move)
        move = state.move_of(rng.choice(state.legal_actions(seat)))
        state.apply(seat, move)
        entries.append({"version": len(entries) + 1, "seat": seat, "move": move})
    return initial, entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    print("level  game               players  decisions/game  median s  p90 s  s/review")
    for level in args.levels:
        for game, players in TABLES:
            seconds, counts = [], []
            for seed in range(args.games):
                todo = list(decisions(*random_game(game, players, seed), 0))
                counts.append(len(todo))
                for decision in todo:
                    start = time.perf_counter()
                    reviewed(decision, 0, level)
                    seconds.append(time.perf_counter() - start)
            p90 = sorted(seconds)[int(len(seconds) * 0.9)]
            print(f"{level:5}  {game:17}  {players:7}  {statistics.mean(counts):14.1f}"
                  f"  {statistics.median(seconds):8.4f}  {p90:5.3f}"
                  f"  {sum(seconds) / args.games:8.2f}", flush=True)


if __name__ == "__main__":
    main()
