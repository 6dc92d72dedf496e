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
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import core.ai
from core.tools import ladder

POOLS = (("cup-the-crab", 2), ("cup-the-crab", 3), ("cup-the-crab", 4), ("cup-the-crab", 5),
         ("crabe-vs-poulpe", 2))
BINS = 10


def _one_game(args: tuple[str, int, int, int, int, bool, int]) -> list[tuple[float, float]]:
    """(chance, outcome) for every seat at every sampled decision of one game."""
    game, players, level, every, iterations, raw, seed = args
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
                                              seed=seed * 1000 + decision, history=history,
                                              shrink=not raw))
            move = core.ai.suggest(state, seat, level=level, history=history,
                                   seed=seed * 1000 + decision)["move"]
            log.append((seat, move, state.observed_by(seat)))
            state.apply(seat, move)
    winners = state.result()["winners"]
    outcome = [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
    return [(chance, outcome[s]) for chances in asked for s, chance in enumerate(chances)]


def fit_shrink(pairs: list[tuple[float, float]], players: int) -> float:
    """The lambda in [0, 1] that minimises the Brier score of (1 - lambda) * chance +
    lambda / players over the pairs (least squares, closed form)."""
    u = 1.0 / players
    num = sum((p - o) * (p - u) for p, o in pairs)
    den = sum((p - u) ** 2 for p, _ in pairs)
    return min(1.0, max(0.0, num / den)) if den else 0.0


def fit(path: str) -> None:
    """Prints, per pool, the shrink that best calibrates the raw chances saved in path
    (a run with --raw --save), for core.ai.SHRINK."""
    pools: dict[tuple[str, int], list[tuple[float, float]]] = {}
    with open(path) as saved:
        for line in saved:
            game, players, p, o = json.loads(line)
            pools.setdefault((game, players), []).append((p, o))
    for (game, players), pairs in pools.items():
        lam = fit_shrink(pairs, players)
        shrunk = [((1 - lam) * p + lam / players, o) for p, o in pairs]
        print(f'("{game}", {players}): {lam:.3f},  # Brier {brier(pairs):.4f}'
              f" -> {brier(shrunk):.4f} on {len(pairs)} pairs")


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
    parser.add_argument("--game", help="only this game's pools (a game's rule of thumb changed)")
    parser.add_argument("--level", type=int, default=3, help="the AI level of every seat")
    parser.add_argument("--every", type=int, default=4, help="evaluate every n-th decision")
    parser.add_argument("--iterations", type=int, default=core.ai.EVALUATE_ITERATIONS)
    parser.add_argument("--seed", type=int, default=1_000_000, help="first game's seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--raw", action="store_true",
                        help="judge with the raw playout chances (core.ai.SHRINK not applied)")
    parser.add_argument("--fit", metavar="FILE", help="only fit core.ai.SHRINK to the pairs"
                        " of a --raw --save run and print it")
    parser.add_argument("--save", help="write every (pool, players, chance, outcome) to this"
                        " file, one JSON list a line")
    args = parser.parse_args(argv)
    if args.fit:
        fit(args.fit)
        return 0
    print(f"core.tools.calibrate: level {args.level} at every seat, evaluate()"
          f" {'raw' if args.raw else 'calibrated'} with"
          f" {args.iterations} playouts at every {args.every}th decision, seeds from"
          f" {args.seed}, {args.games} games a pool", flush=True)
    everything: list[tuple[float, float]] = []
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        for game, players in POOLS:
            if args.game and game != args.game:
                continue
            work = [(game, players, args.level, args.every, args.iterations, args.raw,
                     args.seed + i)
                    for i in range(args.games)]
            pairs = [pair for game_pairs in (pool.map(_one_game, work) if pool
                                             else map(_one_game, work))
                     for pair in game_pairs]
            report(f"{game}, {players} players", players, pairs)
            everything += pairs
            if args.save:
                with open(args.save, "a") as out:
                    out.writelines(json.dumps([game, players, p, o]) + "\n" for p, o in pairs)
            sys.stdout.flush()
    finally:
        if pool:
            pool.shutdown()
    report("all pools", 0, everything)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
