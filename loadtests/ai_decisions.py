"""What a level-5 decision costs in CPU: a game's first decision, the dearest of a game
(in Cup the Crab the round-1 selection, whose playouts run the whole game), and every
decision of whole games (docs/ai.md "Strength levels" and "A cap on the work";
docs/benchmarks.md).

    python loadtests/ai_decisions.py                   # first decisions, 5 deals a table
    python loadtests/ai_decisions.py --whole-games 2   # and 2 whole games a table, level 5 everywhere
    python loadtests/ai_decisions.py --whole-games 2 --budget iterations=12500,playout=policy,reward=place,max_moves=500000
    python loadtests/ai_decisions.py --whole-games 3 --repeats 3   # each cost the median of 3 passes

Each figure is the search's own thread CPU time (`cpu_seconds`), one search at a time on
one thread, so the machine's load distorts it less than wall time (a noisy VM still
moves it by a fifth: compare two builds in one run, alternately). A search with a seed is
repeatable, so `--repeats N` measures every decision N times, in N passes over them all,
and counts each one's median: the dearest decision is then that decision's cost, not the
VM's worst spell. To compare two builds of the core, run this file from each checkout
with PYTHONPATH set to it, in turns.
"""

import argparse
import statistics
import sys

import core
import core.ai
from core.tools.versus import parse_player

TABLES = (("cup-the-crab", 2), ("cup-the-crab", 3), ("cup-the-crab", 4), ("cup-the-crab", 5),
          ("crabe-vs-poulpe", 2))
BUDGETS = {"level 5": {"level": 5}, "reference level 5": core.ai.REFERENCE_LEVELS[5]}


def warm_up(seconds: float = 0.5) -> None:
    """Searches for `seconds` of CPU before anything is measured: this VM's vCPU runs the
    first tenth of a second or so after idling a third slower (the same search: 41, 41,
    36, then 30 ms), which would make the first table's figures the dearest."""
    state = core.new_game("cup-the-crab", 3, seed=0)
    spent = 0.0
    while spent < seconds:
        spent += core.ai.suggest(state, state.to_move[0], seed=0, level=5)["cpu_seconds"]


def cost_ms(state, seed: int, budget: dict) -> float:
    """The CPU milliseconds of the search for the seat to move."""
    return core.ai.suggest(state, state.to_move[0], seed=seed, **budget)["cpu_seconds"] * 1000


def medians(decisions: list, budget: dict, repeats: int) -> list[float]:
    """Each decision's median cost over `repeats` passes over all of them: the same search
    again seconds apart, so that one slow spell of the VM cannot count in every pass."""
    passes = [[cost_ms(state, seed, budget) for state, seed in decisions]
              for _ in range(repeats)]
    return [statistics.median(costs) for costs in zip(*passes)]


def first_decisions(game: str, players: int, deals: int) -> list:
    """The first decision of `deals` seeded games, as (state, search seed)."""
    return [(core.new_game(game, players, seed=seed), seed) for seed in range(deals)]


def game_decisions(game: str, players: int, budget: dict, games: int) -> list:
    """Every searched decision of `games` games with `budget` at every seat, as (state,
    search seed)."""
    decisions = []
    for seed in range(games):
        state, k = core.new_game(game, players, seed=100 + seed), 0
        while not state.is_over:
            out = core.ai.suggest(state, state.to_move[0], seed=k, **budget)
            if out["iterations"]:           # a forced move is not searched
                decisions.append((state.clone(), k))
            state.apply(state.to_move[0], out["move"])
            k += 1
    return decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=5, help="first decisions a table (5)")
    parser.add_argument("--whole-games", type=int, default=0,
                        help="whole games a table, level 5 at every seat (0: none)")
    parser.add_argument("--repeats", type=int, default=1,
                        help="passes over the decisions, each one's median counted (1)")
    parser.add_argument("--budget", type=parse_player, default=None,
                        help="measure this budget instead of level 5 (suggest's keywords, "
                             "e.g. iterations=12500,playout=policy,reward=place,max_moves=500000)")
    args = parser.parse_args(argv)
    budgets = dict(BUDGETS)
    if args.budget is not None:         # the first budget is the one whole games measure
        given = {"level": args.budget} if isinstance(args.budget, int) else args.budget
        budgets = {",".join(f"{k}={v}" for k, v in given.items()): given,
                   "reference level 5": BUDGETS["reference level 5"]}
    measured_whole = next(iter(budgets))
    sys.stderr.write("warming up...")
    warm_up()
    print("| table | budget | first decision: median | most | whole games: mean | dearest |")
    print("|---|---|---|---|---|---|")
    for game, players in TABLES:
        for name, budget in budgets.items():
            sys.stderr.write(f"\r{game} {players}p, {name}...".ljust(60))
            first = medians(first_decisions(game, players, args.deals), budget, args.repeats)
            whole = (medians(game_decisions(game, players, budget, args.whole_games), budget,
                             args.repeats)
                     if args.whole_games and name == measured_whole else [])
            later = (f"{statistics.mean(whole):.1f} ms | {max(whole):.1f} ms" if whole
                     else "- | -")
            sys.stderr.write("\r" + " " * 60 + "\r")   # the progress line gives way to the row
            print(f"| {game} {players}p | {name} | {statistics.median(first):.1f} ms "
                  f"| {max(first):.1f} ms | {later} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
