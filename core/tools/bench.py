"""Benchmarks of the compiled core: ``python -m core.tools.bench [--runs 5] [--players 2 3 4 5]``.

First, when the C reference ``../shared/anchors/cupcrab_sol.c`` is beside the project,
our random Cup the Crab games per second against its own, as a ratio measured in the
same run (core/tools/anchor.py; ``--stats N`` compares the statistics of N random games
instead).  Then medians of several runs (this machine is noisy, medians are not) of:

- full random games per second inside C (`core.random_playouts`, GIL released);
- steps per second of a Python loop over the integer path
  (``legal_actions -> random.choice -> apply_action`` until the game is over);
- steps per second of the dict path (``legal_moves -> random.choice -> apply``);
- the dict path against the pure-Python reference model of ``tests/reference`` on the
  same games (only when run from a source checkout, where that model exists);
- for learning code (with the `rl` extra): steps per second of the batched C vector
  (`core.rl.Vector`, observations and masks written) on one and two threads, and of the
  PettingZoo environment driven by PettingZoo's own loop.
"""

import argparse
import importlib
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import core
from core.tools import anchor


def median_rate(work: Callable[[], int], runs: int) -> float:
    """Median over runs of (units of work done) / (seconds taken)."""
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        done = work()
        rates.append(done / (time.perf_counter() - start))
    return statistics.median(rates)


def playouts(game: str, players: int, games: int,
             options: dict[str, Any] | None = None) -> Callable[[], int]:
    def work() -> int:
        core.random_playouts(game, players, games, seed=1, options=options)
        return games
    return work


def integer_loop(game: str, players: int, games: int,
                 options: dict[str, Any] | None = None) -> Callable[[], int]:
    def work() -> int:
        choice = random.Random(1).choice
        steps = 0
        for seed in range(games):
            state = core.new_game(game, players, seed=seed, options=options)
            while not state.is_over:
                seat = state.to_move[0]
                state.apply_action(seat, choice(state.legal_actions(seat)))
                steps += 1
        return steps
    return work


def dict_loop(make: Callable[[int], Any], games: int) -> Callable[[], int]:
    """Steps/s of legal_moves + apply on states made by make(seed)."""
    def work() -> int:
        choice = random.Random(1).choice
        steps = 0
        for seed in range(games):
            state = make(seed)
            while not state.is_over:
                seat = state.to_move[0]
                state.apply(seat, choice(state.legal_moves(seat)))
                steps += 1
        return steps
    return work


# Game name -> (module, class) of its pure-Python model under tests/reference.
REFERENCE_MODELS = {"cup-the-crab": ("tests.reference.cupcrab", "CupCrabModel"),
                    "crabe-vs-poulpe": ("tests.reference.cvp", "CrabeVsPoulpeModel")}
# Game name -> the creation options to benchmark separately (default: one run, no options).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "crabe-vs-poulpe": [{"mode": "symmetrical"}, {"mode": "asymmetrical"}]}


def reference_model(game: str) -> Any:
    """The tests' pure-Python model class of game, or None outside a source checkout."""
    module, name = REFERENCE_MODELS.get(game, ("", ""))
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, ValueError):
        return None


def bench_game(game: str, players: int, runs: int, scale: float,
               options: dict[str, Any] | None = None) -> None:
    label = f"{game} {players}p" + (f" {options['mode'][:4]}" if options else "")
    rate = median_rate(playouts(game, players, int(200_000 * scale), options), runs)
    print(f"{label}  C random playouts      {rate:12,.0f} games/s")
    integer = median_rate(integer_loop(game, players, int(2_000 * scale), options), runs)
    print(f"{label}  Python integer loop    {integer:12,.0f} steps/s")
    games = max(1, int(300 * scale))
    compiled = median_rate(dict_loop(
        lambda s: core.new_game(game, players, seed=s, options=options), games), runs)
    print(f"{label}  Python dict loop       {compiled:12,.0f} steps/s")
    model = reference_model(game)
    if model is None:
        return
    # Same seeds and the same choice sequence: both dict loops pick the same index among
    # the same legal moves, so the model plays exactly the games the core played (up to
    # the first mid-game shuffle, e.g. a Pincer: the model's PRNG starts from seed 0).
    start = {s: core.new_game(game, players, seed=s, options=options).snapshot()
             for s in range(games)}
    pure = median_rate(dict_loop(lambda s: model.from_snapshot(start[s]), games), runs)
    # Moves per game turn the C playouts' games/s into steps/s, comparable with the model's.
    per_game = core.random_playouts(game, players, 2_000, seed=1, options=options)["mean_moves"]
    print(f"{label}  pure-Python model      {pure:12,.0f} steps/s"
          f"   (core: C playouts {rate * per_game / pure:,.0f}x,"
          f" integer loop {integer / pure:,.0f}x, dict loop {compiled / pure:,.0f}x)")


def vector_loop(game: str, players: int, n: int, steps: int, threads: int,
                per_cpu: list[float]) -> Callable[[], int]:
    """Steps/s of Vector.sample_actions + Vector.step (observations and masks written);
    the steps per CPU second of the stepping threads are appended to `per_cpu`."""
    from core.rl import Vector
    vec = Vector(game, players, n, seed=1, threads=threads)

    def work() -> int:
        actions = vec.sample_actions()
        cpu = vec.cpu_seconds
        for _ in range(steps):
            vec.sample_actions(actions)
            vec.step(actions)
        per_cpu.append(n * steps / (vec.cpu_seconds - cpu))
        return n * steps
    return work


def ai_search(threads: int, iterations: int) -> Callable[[], int]:
    """Simulations/s of core.ai.suggest on `threads` threads: a CPU-bound control."""
    import core.ai
    state = core.new_game("cup-the-crab", 2, seed=1)

    def work() -> int:
        return core.ai.suggest(state, 0, iterations=iterations, threads=threads,
                               seed=1)["iterations"]
    return work


def interleaved_rates(works: list[Callable[[], int]], runs: int) -> list[float]:
    """Median rate of each work, the works taking turns run by run, so that the load of
    a shared machine falls on all of them alike."""
    rates: list[list[float]] = [[] for _ in works]
    for _ in range(runs):
        for work, out in zip(works, rates):
            start = time.perf_counter()
            done = work()
            out.append(done / (time.perf_counter() - start))
    return [statistics.median(r) for r in rates]


def aec_loop(game: str, players: int, games: int) -> Callable[[], int]:
    """Steps/s of the PettingZoo AEC env under agent_iter/last/step, random legal moves."""
    import numpy as np
    from core.rl import aec_env
    env = aec_env(game, players)
    rng = np.random.default_rng(1)

    def work() -> int:
        steps = 0
        for seed in range(games):
            env.reset(seed=seed)
            for _agent in env.agent_iter():
                obs, _, termination, truncation, _ = env.last()
                action = (None if termination or truncation
                          else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                env.step(action)
                steps += action is not None
        return steps
    return work


def bench_rl(runs: int, scale: float) -> None:
    """The learning-code figures of docs/rl.md (skipped without the `rl` extra)."""
    try:
        import numpy  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError:
        print("rl: skipped (pip install '.[rl]' for the batched vector and the envs)")
        return
    game, players, n = "cup-the-crab", 2, 4096
    steps = max(1, int(50 * scale))
    per_cpu: dict[int, list[float]] = {1: [], 2: []}
    rates = dict(zip((1, 2), interleaved_rates(
        [vector_loop(game, players, n, steps, threads, per_cpu[threads])
         for threads in (1, 2)], runs)))
    for threads in (1, 2):
        print(f"{game} {players}p  C vector of {n}, {threads} thread(s)"
              f" {rates[threads]:12,.0f} steps/s"
              f"   ({statistics.median(per_cpu[threads]):,.0f} per CPU second in step)")
    print(f"{game} {players}p  C vector 2 threads / 1 thread   {rates[2] / rates[1]:.2f}x")
    search = interleaved_rates([ai_search(threads, int(100_000 * scale)) for threads in (1, 2)],
                               runs)
    print(f"{game} {players}p  control: the AI's search, 2 threads / 1 thread"
          f"   {search[1] / search[0]:.2f}x  (what this machine gives two threads now)")
    for name, count in (("cup-the-crab", 2), ("crabe-vs-poulpe", 2)):
        rate = median_rate(aec_loop(name, count, max(1, int(100 * scale))), runs)
        print(f"{name} {count}p  PettingZoo AEC env loop   {rate:12,.0f} steps/s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--games", nargs="*", default=list(core.GAMES), choices=core.GAMES,
                        help="games to benchmark (none: only the comparison with the reference)")
    parser.add_argument("--scale", type=float, default=1.0, help="work per run (1 = default)")
    parser.add_argument("--reference-runs", type=int, default=5,
                        help="runs of the comparison with the C reference (0: skip it)")
    parser.add_argument("--reference-seconds", type=float, default=0.5,
                        help="seconds of each side's run per player count")
    parser.add_argument("--stats", type=int, metavar="N",
                        help="only compare the statistics of N random games with the reference")
    args = parser.parse_args(argv)
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} {platform.python_implementation()}"
          f" {platform.python_version()} {platform.machine()}, load average"
          f" {os.getloadavg()[0]:.1f}, medians of {args.runs} runs", flush=True)
    binary = anchor.build()
    if binary is None:
        print(f"The C reference is absent ({anchor.SOURCE} not found): no comparison with it.")
        if args.stats:
            return 1
    elif args.stats:
        return 0 if anchor.compare_stats(binary, args.stats, seed=7) else 1
    elif args.reference_runs:
        anchor.compare_speed(binary, args.reference_runs, args.reference_seconds)
    for game in args.games:
        for players in args.players:
            try:
                core.new_game(game, players)
            except ValueError:
                continue
            for options in VARIANTS.get(game, [None]):
                bench_game(game, players, args.runs, args.scale, options)
    bench_rl(args.runs, args.scale)
    return 0


if __name__ == "__main__":
    sys.exit(main())
