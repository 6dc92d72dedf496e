"""How well core.ai.evaluate's win chances are calibrated: ``python -m core.tools.calibrate``.

Plays held-out games (seeds from --seed on, never used elsewhere), every seat the same AI
level; at every --every-th decision it asks evaluate() for the chances of every seat from
the deciding seat's knowledge (its history as the service hands it over), and compares
them, at the end, with who won (a victory shared by k counts 1/k).  Printed per pool and
for all: the Brier score (mean over positions and seats of (chance - outcome)^2), the
same for the uninformed forecast (1/players for everyone), and a reliability table (the
chances in ten bins: positions, mean chance, observed victory share).

    python -m core.tools.calibrate --games 100 --jobs 2
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import core.ai
from core import ladder

POOLS = (("cup-the-crab", 2), ("cup-the-crab", 3), ("cup-the-crab", 4), ("cup-the-crab", 5),
         ("crabe-vs-poulpe", 2))
BINS = 10


def _one_game(args: tuple[str, int, int, int, int, int]) -> list[tuple[float, float]]:
    """(chance, outcome) for every seat at every sampled decision of one game."""
    game, players, level, every, iterations, seed = args
    state = ladder.new_state(game, players, seed)
    log: list[tuple[int, dict[str, Any], dict[str, Any] | None]] = []
    asked: list[list[float]] = []
    decision = 0
    while not state.is_over:
        for seat in state.to_move:
            if seat not in state.to_move:
                continue
            decision += 1
            history = ladder.seen_history(state, log, seat)
            if decision % every == 0:
                asked.append(core.ai.evaluate(state, seat, iterations=iterations,
                                              seed=seed * 1000 + decision, history=history))
            move = core.ai.suggest(state, seat, level=level, history=history,
                                   seed=seed * 1000 + decision)["move"]
            log.append((seat, move, state.observed_by(seat)))
            state.apply(seat, move)
    winners = state.result()["winners"]
    outcome = [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
    return [(chance, outcome[s]) for chances in asked for s, chance in enumerate(chances)]


def brier(pairs: list[tuple[float, float]]) -> float:
    return sum((p - o) ** 2 for p, o in pairs) / len(pairs)


def reliability(pairs: list[tuple[float, float]]) -> list[tuple[int, int, float, float]]:
    """(bin, positions, mean chance, observed share) of each non-empty bin."""
    rows = []
    for b in range(BINS):
        inside = [(p, o) for p, o in pairs if min(int(p * BINS), BINS - 1) == b]
        if inside:
            rows.append((b, len(inside), sum(p for p, _ in inside) / len(inside),
                         sum(o for _, o in inside) / len(inside)))
    return rows


def report(label: str, players: int, pairs: list[tuple[float, float]]) -> None:
    base = brier([(1.0 / players, o) for _, o in pairs]) if players else float("nan")
    print(f"\n{label}: {len(pairs)} (position, seat) pairs, Brier {brier(pairs):.4f}"
          + (f" (uninformed 1/{players}: {base:.4f})" if players else ""))
    print("| chance | pairs | mean chance | observed share |")
    print("|---|---|---|---|")
    for b, n, mean, seen in reliability(pairs):
        print(f"| {b / BINS:.1f} to {(b + 1) / BINS:.1f} | {n} | {mean:.3f} | {seen:.3f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m core.tools.calibrate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games per pool")
    parser.add_argument("--level", type=int, default=3, help="the AI level of every seat")
    parser.add_argument("--every", type=int, default=4, help="evaluate every n-th decision")
    parser.add_argument("--iterations", type=int, default=core.ai.EVALUATE_ITERATIONS)
    parser.add_argument("--seed", type=int, default=1_000_000, help="first game's seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    args = parser.parse_args(argv)
    print(f"core.tools.calibrate: level {args.level} at every seat, evaluate() with"
          f" {args.iterations} playouts at every {args.every}th decision, seeds from"
          f" {args.seed}, {args.games} games a pool", flush=True)
    everything: list[tuple[float, float]] = []
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        for game, players in POOLS:
            work = [(game, players, args.level, args.every, args.iterations, args.seed + i)
                    for i in range(args.games)]
            pairs = [pair for game_pairs in (pool.map(_one_game, work) if pool
                                             else map(_one_game, work))
                     for pair in game_pairs]
            report(f"{game}, {players} players", players, pairs)
            everything += pairs
            sys.stdout.flush()
    finally:
        if pool:
            pool.shutdown()
    report("all pools", 0, everything)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
