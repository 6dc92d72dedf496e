"""Our AI against OpenSpiel's IS-MCTS at equal CPU time: ``python -m core.tools.openspiel_match``.

Needs the `openspiel` extra.  Two players: ours (``level=5``, ``reference=5`` for
core.ai.REFERENCE_LEVELS[5], or core.ai.suggest's keywords as for core.tools.versus) and
OpenSpiel's IS-MCTS (open_spiel.python.algorithms.ismcts, on the games of
core/tools/openspiel_game.py: information-state resampling by core.ai.determinize,
uniform random rollouts, most visited move).  Seats alternate game by game, every game is
seeded as in the ladder (Crabe vs Poulpe alternates its deck mode every two games), and
ours reads the history as its seat saw it, as in core.tools.versus.

Equal time: both sides' CPU time a decision (time.process_time around the whole call,
decisions with one legal move not counted) is measured and printed.  With
``--simulations auto`` a few calibration games (not counted) first measure ours' CPU a
decision and OpenSpiel's CPU a simulation, and OpenSpiel's simulations a decision are set
so that both spend the same; ``--time-factor`` gives OpenSpiel that many times ours.
Printed: our share of the victories (a shared victory counts half), its 95% Wilson
interval, both sides' CPU a decision; progress on stderr.

    python -m core.tools.openspiel_match --game cup-the-crab --ours level=5 --games 400
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import core.ai
from core.tools import ladder, openspiel_game, versus

CALIBRATION_SEED = 10 ** 9     # calibration games' seeds: never those of a match


def parse_ours(text: str) -> dict[str, Any]:
    """``level=5``, ``reference=5`` or suggest()'s keywords -> suggest()'s keywords."""
    key, _, value = text.partition("=")
    if key == "reference" and value.isdigit() and int(value) in core.ai.REFERENCE_LEVELS:
        return dict(core.ai.REFERENCE_LEVELS[int(value)])
    player = versus.parse_player(text)
    return {"level": player} if isinstance(player, int) else player


def _one_game(args: tuple[str, dict[str, Any], int, float, str, int, int]
              ) -> tuple[float, list[float]]:
    """One seeded game, ours at seat index % 2: our victory share and the CPU tally
    [our seconds, our decisions, OpenSpiel's seconds, its decisions, its simulations]."""
    game, ours, simulations, uct_c, evaluator, index, seed = args
    state = ladder.new_state(game, 2, seed)
    params = {"mode": state.view(0)["mode"]} if game == "crabe-vs-poulpe" else {}
    spiel = openspiel_game.load(game, **params)
    bot = openspiel_game.ismcts_bot(spiel, simulations, seed, uct_c=uct_c, evaluator=evaluator)
    st = spiel.state_of(state)
    mine = index % 2
    tally = [0.0, 0.0, 0.0, 0.0, 0.0]
    decision = 0
    while not st.is_terminal():
        seat = st.current_player()
        searched = len(st.legal_actions()) > 1
        decision += 1
        started = time.process_time()
        if seat == mine:
            action = core.ai.suggest(state, seat, **ours, history=st.history_of(seat),
                                     seed=seed * 1000 + decision)["action"]
        else:
            action = int(bot.step(st))
        if searched:
            side = 0 if seat == mine else 2
            tally[side] += time.process_time() - started
            tally[side + 1] += 1
            tally[4] += simulations if seat != mine else 0
        st.apply_action(action)
    winners = state.result()["winners"]
    return (1.0 / len(winners) if mine in winners else 0.0), tally


def _play(game: str, ours: dict[str, Any], simulations: int, uct_c: float, evaluator: str,
          games: int, seed: int, jobs: int, label: str) -> tuple[float, list[float]]:
    work = [(game, ours, simulations, uct_c, evaluator, i, seed + i) for i in range(games)]
    progress = ladder.Progress(games)
    wins, tally = 0.0, [0.0] * 5
    pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
    try:
        for share, cpu in (pool.map(_one_game, work) if pool else map(_one_game, work)):
            wins += share
            tally = [a + b for a, b in zip(tally, cpu)]
            progress.step(label)
    finally:
        if pool:
            pool.shutdown()
    sys.stderr.write("\n")
    return wins, tally


def calibrate(game: str, ours: dict[str, Any], uct_c: float, evaluator: str, games: int,
              jobs: int, factor: float) -> int:
    """OpenSpiel's simulations a decision that cost `factor` times ours' CPU a decision:
    two rounds of calibration games (the second at the first round's estimate)."""
    simulations = 100
    for round_ in range(2):
        _, tally = _play(game, ours, simulations, uct_c, evaluator, games,
                         CALIBRATION_SEED + 1000 * round_, jobs, f"calibration {round_ + 1}")
        ours_s = tally[0] / max(tally[1], 1)
        per_simulation = tally[2] / max(tally[4], 1)
        simulations = max(1, round(factor * ours_s / per_simulation))
        sys.stderr.write(f"  ours {1000 * ours_s:.1f} ms a decision, OpenSpiel"
                         f" {1e6 * per_simulation:.0f} us a simulation -> {simulations}"
                         " simulations\n")
    return simulations


def run(game: str, ours: dict[str, Any], games: int, seed: int, jobs: int,
        simulations: int | None, uct_c: float, evaluator: str, factor: float,
        calibration_games: int) -> dict[str, Any]:
    started = time.perf_counter()
    if simulations is None:
        simulations = calibrate(game, ours, uct_c, evaluator, calibration_games, jobs, factor)
    wins, tally = _play(game, ours, simulations, uct_c, evaluator, games, seed, jobs,
                        game)
    low, high = ladder.wilson(wins, games)
    return {"game": game, "ours": ours, "openspiel": {
                "algorithm": "open_spiel.python.algorithms.ismcts", "simulations": simulations,
                "uct_c": uct_c, "evaluator": evaluator, "time_factor": factor},
            "games": games, "seed": seed, "wins": wins, "win_rate": wins / games,
            "ci95": [low, high], "ours_ms": 1000 * tally[0] / max(tally[1], 1),
            "openspiel_ms": 1000 * tally[2] / max(tally[3], 1),
            "decisions": [tally[1], tally[3]], "seconds": time.perf_counter() - started}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m core.tools.openspiel_match",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=list(openspiel_game.GAMES), default="cup-the-crab")
    parser.add_argument("--ours", type=parse_ours, default=parse_ours("level=5"),
                        help="level=N, reference=N or suggest()'s keywords")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0, help="first game's seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--simulations", default="auto",
                        help="OpenSpiel's simulations a decision, or auto (equal CPU time)")
    parser.add_argument("--time-factor", type=float, default=1.0,
                        help="with --simulations auto: OpenSpiel's CPU a decision / ours")
    parser.add_argument("--calibration-games", type=int, default=4)
    parser.add_argument("--uct-c", type=float, default=1.4,
                        help="OpenSpiel's UCT constant (returns in [-1, 1]; 1.4 is our"
                             " 0.7 on [0, 1])")
    parser.add_argument("--evaluator", choices=("core", "openspiel"), default="core",
                        help="OpenSpiel's rollouts: the core's random playout in C, or"
                             " OpenSpiel's RandomRolloutEvaluator (slower, same estimate)")
    parser.add_argument("--json", help="append the result as one JSON line to this file")
    args = parser.parse_args(argv)
    if args.simulations != "auto" and not args.simulations.isdigit():
        parser.error("--simulations must be a positive integer or auto")
    simulations = None if args.simulations == "auto" else int(args.simulations)
    r = run(args.game, args.ours, args.games, args.seed, args.jobs, simulations, args.uct_c,
            args.evaluator, args.time_factor, args.calibration_games)
    print(f"{r['game']}: ours {r['ours']} vs OpenSpiel IS-MCTS"
          f" ({r['openspiel']['simulations']} simulations, uct_c {args.uct_c},"
          f" {args.evaluator} rollouts): {r['games']} games, ours {r['win_rate']:.1%},"
          f" 95% CI [{r['ci95'][0]:.1%}, {r['ci95'][1]:.1%}]; CPU a decision: ours"
          f" {r['ours_ms']:.1f} ms, OpenSpiel {r['openspiel_ms']:.1f} ms"
          f" ({r['seconds']:.0f} s)", flush=True)
    if args.json:
        with open(args.json, "a") as out:
            out.write(json.dumps(r) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
