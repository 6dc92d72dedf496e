"""Seeded matches and search speed of the AI: `python -m core.tools.tournament --help`.

Prints, for Cup the Crab:
  * ISMCTS (1,000 iterations a decision by default) against uniformly random players,
    2 and 4 players, the AI's seat rotating game by game;
  * ISMCTS against flat Monte Carlo with the same number of playouts a decision;
  * simulations per second of one ISMCTS search of a 2-player decision on 1 and 2
    threads (median of several runs);
and for Crabe vs Poulpe, ISMCTS against a uniformly random player (2 players, the deck
mode alternating symmetrical / asymmetrical every two games, the AI reading the history
as its seat saw it).
With --ladder, only the strength ladder of core.ai.LEVELS (core/tools/ladder.py): each level
against the level below, for Cup the Crab with 2 and 4 players and Crabe vs Poulpe.
Win rates count a shared victory as a fraction (1/winners) and come with a 95% Wilson
interval.  Every game and search is seeded, so a run repeats exactly (the speed figures
depend on the machine).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable

import core
import core.ai
from core.tools import ladder
from core.tools.ladder import wilson

GAME = "cup-the-crab"
Agent = Callable[[Any, int, int], int]   # (state, seat, seed) -> action id


def random_agent(state: Any, seat: int, seed: int) -> int:
    return random.Random(seed).choice(state.legal_actions(seat))


def search_agent(algorithm: str, iterations: int, exploration: float) -> Agent:
    def agent(state: Any, seat: int, seed: int) -> int:
        return core.ai.suggest(state, seat, iterations=iterations, algorithm=algorithm,
                               exploration=exploration, seed=seed)["action"]
    return agent


def play_game(players: int, agents: list[Agent], seed: int) -> list[float]:
    """One seeded game; each seat's share of the victory (1/winners for a winner)."""
    state = core.new_game(GAME, players, seed=seed)
    decision = 0
    while not state.is_over:
        for seat in state.to_move:      # a simultaneous selection: each seat on its own
            if seat in state.to_move:
                decision += 1
                action = agents[seat](state, seat, seed * 1000 + decision)
                state.apply_action(seat, action)
    winners = state.result()["winners"]
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]


def _match_game(args: tuple) -> float:
    players, hero, hero_spec, other_spec, seed = args
    hero_seat = seed % players
    agents = [_build(hero_spec if seat == hero_seat else other_spec) for seat in range(players)]
    return play_game(players, agents, seed)[hero_seat]


def _build(spec: tuple) -> Agent:
    if spec[0] == "random":
        return random_agent
    return search_agent(*spec)


CVP = "crabe-vs-poulpe"
CVP_MODES = ("symmetrical", "asymmetrical")


def _cvp_match_game(args: tuple) -> float:
    """One Crabe vs Poulpe game, the deck mode alternating with the seed; the searching
    seat reads the history as it saw it (hands shown to it included, see docs/ai.md)."""
    _, _, hero_spec, other_spec, seed = args
    hero_seat = seed % 2
    state = core.new_game(CVP, 2, seed=seed, options={"mode": CVP_MODES[seed // 2 % 2]})
    log: list[tuple[int, dict, Any]] = []
    decision = 0
    while not state.is_over:
        seat = state.to_move[0]
        spec = hero_spec if seat == hero_seat else other_spec
        decision += 1
        if spec[0] == "random":
            action = random_agent(state, seat, seed * 1000 + decision)
        else:
            history = [{"seat": a, "move": state.visible_move(a, m, seat),
                        **({"revealed": r} if a == seat and r is not None else {})}
                       for a, m, r in log]
            action = core.ai.suggest(state, seat, iterations=spec[1], algorithm=spec[0],
                                     exploration=spec[2], seed=seed * 1000 + decision,
                                     history=history)["action"]
        log.append((seat, state.move_of(action), state.view(seat)["revealed"]))
        state.apply_action(seat, action)
    return 1.0 if state.result()["winner"] == hero_seat else 0.0


def match(title: str, players: int, hero: tuple, other: tuple, games: int, seed: int,
          jobs: int, worker: Callable[[tuple], float] = _match_game) -> dict[str, Any]:
    """hero in one seat (rotating with the game index) against `other` in every other."""
    started = time.perf_counter()
    work = [(players, 0, hero, other, seed + g) for g in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            shares = list(pool.map(worker, work, chunksize=1))
    else:
        shares = [worker(w) for w in work]
    wins = sum(shares)
    low, high = wilson(wins, games)
    row = {"match": title, "players": players, "games": games, "win_rate": wins / games,
           "ci95": (low, high), "seconds": time.perf_counter() - started}
    print(f"{title:<44} {players}p  {games:>4} games  win rate {wins / games:6.1%}"
          f"  95% CI [{low:.1%}, {high:.1%}]  ({row['seconds']:.0f} s)", flush=True)
    return row


def speed_position(seed: int = 1) -> tuple[Any, int]:
    """A 2-player decision in the play phase of round 2 (seeded random moves before it)."""
    state = core.new_game(GAME, 2, seed=seed)
    rng = random.Random(seed)
    while state.view()["round"] < 2 or state.view()["phase"] != "play":
        seat = state.to_move[0]
        state.apply_action(seat, rng.choice(state.legal_actions(seat)))
    return state, state.to_move[0]


def speed(time_ms: float, runs: int, threads: tuple[int, ...], algorithm: str = "ismcts",
          selection: bool = False) -> list[tuple[float, float, float]]:
    """Median simulations per second of one timed search of a 2-player decision.

    A time budget (rather than a number of iterations) gives every thread a tree as big
    as a single thread's, so 1 and 2 threads are compared on the same work per playout.
    The thread counts take turns run by run, so a slow spell of the machine hits each
    alike.  Per thread count: (median simulations/s, median share of the wall time the
    threads got a CPU -- below 1 when other processes compete for the cores --, median
    simulations per CPU-second of the search's threads).
    """
    if selection:
        state, seat = core.new_game(GAME, 2, seed=1), 0
    else:
        state, seat = speed_position()
    outs: dict[int, list] = {n: [] for n in threads}
    for run in range(runs):
        for n in threads:
            outs[n].append(core.ai.suggest(state, seat, time_ms=time_ms, seed=run,
                                           threads=n, algorithm=algorithm))
    return [(statistics.median(o["simulations_per_second"] for o in outs[n]),
             statistics.median(o["cpu_seconds"] / (o["seconds"] * o["threads"])
                               for o in outs[n]),
             statistics.median(o["iterations"] / o["cpu_seconds"] for o in outs[n]))
            for n in threads]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m core.tools.tournament", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=500, help="games vs random, 2 players")
    parser.add_argument("--games-4p", type=int, default=500, help="games vs random, 4 players")
    parser.add_argument("--games-flat", type=int, default=500, help="ISMCTS vs flat games")
    parser.add_argument("--games-cvp", type=int, default=200,
                        help="Crabe vs Poulpe games vs random (both deck modes)")
    parser.add_argument("--iterations", type=int, default=1000, help="playouts a decision")
    parser.add_argument("--exploration", type=float, default=core.ai.DEFAULT_EXPLORATION)
    parser.add_argument("--speed-ms", type=float, default=1000, help="time of one search")
    parser.add_argument("--speed-runs", type=int, default=5, help="searches (median)")
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes for the matches (the speed runs are always alone)")
    parser.add_argument("--skip", nargs="*", default=[],
                        choices=["random2", "random4", "flat", "speed", "cvp"])
    ladder_args = parser.add_argument_group(
        "the strength ladder of core.ai.LEVELS (see core/tools/ladder.py); --ladder runs only it")
    ladder_args.add_argument("--ladder", action="store_true",
                             help="each level against the level below, and a rating table")
    ladder_args.add_argument("--ladder-games", type=int, nargs=3, default=[200, 120, 120],
                             metavar=("CC2", "CC4", "CVP"),
                             help="games a match: Cup the Crab 2p and 4p, Crabe vs Poulpe")
    ladder_args.add_argument("--ladder-top-games", type=int, default=200,
                             help="games of the top level against level 1 (2 players)")
    ladder_args.add_argument("--json", help="write the ladder's results to this file")
    ladder_args.add_argument("--plot", help="write the ladder's plot to this PNG"
                             " (needs matplotlib: pip install -e '.[plot]')")
    ladder_args.add_argument("--plot-from", metavar="JSON", nargs="+",
                             help="only plot (to --plot) the results ladder runs wrote"
                             " (a later file's table replaces an earlier one's)")
    args = parser.parse_args(argv)
    if args.plot_from:
        ladder.plot(ladder.merged(args.plot_from), args.plot or "ladder.png")
        return 0
    if args.ladder:
        cc2, cc4, cvp = args.ladder_games
        ladder.ladder({("cup-the-crab", 2): cc2, ("cup-the-crab", 4): cc4,
                       ("crabe-vs-poulpe", 2): cvp}, args.ladder_top_games, args.seed,
                      args.jobs, args.json, args.plot)
        return 0
    n, c = args.iterations, args.exploration
    ismcts, flat = ("ismcts", n, c), ("flat", n, c)
    print(f"core.tools.tournament: {GAME}, {n} iterations a decision, exploration {c},"
          f" seed {args.seed}", flush=True)
    if "speed" not in args.skip:
        print(f"load average before the speed runs: {os.getloadavg()[0]:.2f}"
              f" ({os.cpu_count()} CPUs)", flush=True)
        for label, selection in (("play-phase decision (round 2)", False),
                                 ("selection decision (round 1)", True)):
            (one, busy1, cpu1), (two, busy2, cpu2) = speed(
                args.speed_ms, args.speed_runs, (1, 2), selection=selection)
            print(f"ISMCTS speed, 2 players, {label}, median of {args.speed_runs} searches"
                  f" of {args.speed_ms:g} ms:\n"
                  f"  1 thread : {one:>9,.0f} simulations/s wall clock"
                  f" ({cpu1:,.0f} per CPU-second, on a CPU {busy1:.0%} of the time)\n"
                  f"  2 threads: {two:>9,.0f} simulations/s wall clock ({two / one:.2f}x)"
                  f" ({cpu2:,.0f} per CPU-second per thread, on a CPU {busy2:.0%} of the"
                  f" time)", flush=True)
        (one, busy1, cpu1), = speed(args.speed_ms, args.speed_runs, (1,), algorithm="flat")
        print(f"flat Monte Carlo speed, play-phase decision: {one:,.0f} simulations/s on"
              f" 1 thread ({cpu1:,.0f} per CPU-second, on a CPU {busy1:.0%} of the time)",
              flush=True)
    if "random2" not in args.skip:
        match(f"ISMCTS({n}) vs random", 2, ismcts, ("random",), args.games, args.seed,
              args.jobs)
    if "random4" not in args.skip:
        match(f"ISMCTS({n}) vs 3 random", 4, ismcts, ("random",), args.games_4p,
              args.seed, args.jobs)
    if "flat" not in args.skip:
        match(f"ISMCTS({n}) vs flat MC({n})", 2, ismcts, flat, args.games_flat, args.seed,
              args.jobs)
    if "cvp" not in args.skip:
        match(f"ISMCTS({n}) vs random, Crabe vs Poulpe", 2, ismcts, ("random",),
              args.games_cvp, args.seed, args.jobs, worker=_cvp_match_game)
    return 0


if __name__ == "__main__":
    sys.exit(main())
