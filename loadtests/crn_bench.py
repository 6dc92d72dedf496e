"""Baseline control variates on common random numbers: how many fewer deals than counting wins?

    python loadtests/crn_bench.py --game crabe-vs-poulpe --players 2 --a ai-3 --b ai-4
                                  [--deals 40] [--runs 1] [--seed 1] [--judge] [--out F]

Plays `--runs` series of `--deals` duplicate deals in process as the service's series seat
them (seat s of rotation r is contestant (s + r) % players; `--a` is contestant 0, `--b`
every other), every AI seat's search seeded from (run, deal, rotation, seat, its decision's
number): the common random numbers. Beside each game it plays the *baseline games* of the
same deal with the same seeds, the measured seat taken by `--b` (every seat `--b`), and, when
`--a` is an AI level, the other seats taken by `--a` (every seat `--a`): games whose mean
is zero by symmetry over the rotations, so subtracting any multiple of them fixed beforehand
keeps the estimate unbiased (Davidson, Archibald and Bowling 2013), and their coefficients
are fitted on the other deals only (cross-fitting: service/arena/regression.py). With
`--judge`, each game's AIVAT luck (service/arena/estimates.py) is a further regressor.

A bot (`bot-N`: examples/bot.py's `ai` policy) draws its own seeds, as a real one does:
the server cannot share its randomness, only the deal's and its AI seats'.

Prints one JSON line per run and, over runs, the coverage of 0 by each estimator's 95%
interval (for A/A series), and the mean of each estimator.
"""

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import core
import core.ai
from loadtests.aivat_bench import apply_logged, cpu, example_policy
from service.arena.crosstable import deals_for, estimate
from service.arena.estimates import JUDGE, Seat, luck_terms, seed_of
from service.arena.regression import MIN_SAMPLES, cross_fitted
from service.games.sessions import Sessions


def decision_seed(key: tuple, seat: int, decision: int) -> int:
    """The search's seed of seat's decision number `decision` in the game keyed by key
    (run, deal, rotation): the same in the game and in its baseline games, so that their
    AI seats search alike while their positions are alike."""
    return seed_of("crn", *key, seat, decision)


def ai_move(state: Any, seat: int, level: int, log: list[dict[str, Any]],
            seed: int) -> dict[str, Any]:
    """The move an AI level makes for seat, given the log as the server's AI seats are
    given it (each entry as seat may see it)."""
    history = [Sessions.visible_entry(state, dict(entry), seat) for entry in log]
    return core.ai.suggest(state.clone(), seat, level=level, history=history,
                           seed=seed)["move"]


def seat_margin(margins: list[list[float]], seat: int) -> float:
    """A seat's mean margin over the other seats. In a baseline game every seat is the
    same player, so summed over the rotations of a deal its expectation is zero exactly,
    whatever the seats' advantages: a control variate of known mean."""
    others = [margins[seat][t] for t in range(len(margins)) if t != seat]
    return sum(others) / len(others)


class Player:
    def __init__(self, name: str, rng: random.Random, policy_class: Any) -> None:
        kind, level = name.split("-")
        self.name, self.level = name, int(level)
        self.policy = policy_class("ai", self.level, rng.getrandbits(63)) if kind == "bot" \
            else None

    def seat(self) -> Seat:
        return Seat(None if self.policy else {"level": self.level})

    def choose(self, state: Any, seat: int, log: list[dict[str, Any]], seed: int) -> dict:
        if self.policy is not None:   # a bot: its own randomness
            return self.policy.choose({"view": state.view(seat), "you": seat,
                                       "legal_moves": state.legal_moves(seat)})
        return ai_move(state, seat, self.level, log, seed)


def play(initial: Any, table: list[Player], key: tuple) -> tuple[list[dict], Any]:
    state, log, decisions = initial.clone(), [], [0] * len(table)
    while not state.is_over:
        seat = state.to_move[0]
        seed = decision_seed(key, seat, decisions[seat])
        decisions[seat] += 1
        apply_logged(state, seat, table[seat].choose(state, seat, log, seed), log)
    return log, state


def series(args, run: int, policy_class: Any) -> dict[str, Any]:
    rng = random.Random(f"{args.seed} {run}")
    contestants = [Player(args.a, rng, policy_class)] + \
        [Player(args.b, rng, policy_class) for _ in range(args.players - 1)]
    only_b = Player(args.b, rng, policy_class)
    only_a = None if contestants[0].policy else Player(args.a, rng, policy_class)
    players, deals, games = args.players, [], []
    cost = {"play": 0.0, "baseline": 0.0, "judge": 0.0}
    for deal in range(args.deals):
        initial = core.new_game(args.game, players, seed=rng.getrandbits(62))
        rows = []
        for rotation in range(players):
            who = [(seat + rotation) % players for seat in range(players)]
            s0, s1 = who.index(0), who.index(1)
            key = (args.seed, run, deal, rotation)
            started = cpu()
            log, state = play(initial, [contestants[c] for c in who], key)
            played = cpu()
            row = {"d": core.ai.margins(state)[s0][s1]}
            if args.baselines:
                _, b_state = play(initial, [only_b] * players, key)
                row["x_b"] = seat_margin(core.ai.margins(b_state), s0)
            if args.baselines and only_a is not None:
                _, a_state = play(initial, [only_a] * players, key)
                row["x_a"] = seat_margin(core.ai.margins(a_state), s0)
            based = cpu()
            if args.judge:
                terms = luck_terms(JUDGE, initial, log, [contestants[c].seat() for c in who],
                                   "bench-" + "-".join(map(str, key)))
                row["terms"] = [(kind, step, term[s0][s1]) for kind, step, term in terms]
                for kind in ("deal", "decisions", "draws"):
                    row["x_" + kind] = sum(v for k, _, v in row["terms"] if k == kind)
                row["x_luck"] = sum(v for _, _, v in row["terms"])
            cost["play"] += played - started
            cost["baseline"] += based - played
            cost["judge"] += cpu() - based
            rows.append(row)
        games.append(rows)
        deals.append({k: sum(r[k] for r in rows) / players for k in rows[0] if k != "terms"})
    return summarize(deals, args.min_samples) | {
        "cpu_s": {k: round(v, 1) for k, v in cost.items()}, "deal_rows": deals, "games": games}


ESTIMATORS = {"plain": [], "baseline_b": ["x_b"], "baseline_a": ["x_a"],
              "baselines": ["x_a", "x_b"], "aivat": ["x_luck"],
              "aivat_parts": ["x_deal", "x_decisions", "x_draws"],
              "all": ["x_a", "x_b", "x_deal", "x_decisions", "x_draws"]}


def summarize(deals: list[dict[str, float]], min_samples: int) -> dict[str, Any]:
    y = [row["d"] for row in deals]
    out: dict[str, Any] = {"deals": len(deals)}
    if "x_luck" in deals[0]:   # today's AIVAT: the luck subtracted whole, coefficient 1
        fixed = [row["d"] - row["x_luck"] for row in deals]
        found = estimate(fixed)
        out["aivat_fixed"] = found.body() | {
            "variance": round(found.variance or 0, 4),
            "deals_for_5_percent": deals_for(found.variance, 0.10)}
    for name, regressors in ESTIMATORS.items():
        if any(r not in deals[0] for r in regressors):
            continue
        xs = [[row[r] for r in regressors] for row in deals]
        adjusted = cross_fitted(y, xs, min_samples) if regressors else y
        weighed = regressors and len(deals) - 1 >= min_samples   # else weights 0: plain
        found = estimate(adjusted, len(regressors) if weighed else 0)
        out[name] = found.body() | {"variance": round(found.variance or 0, 4),
                                    "deals_for_5_percent": deals_for(found.variance, 0.10)}
    return out


def over_runs(runs: list[dict[str, Any]]) -> dict[str, Any]:
    out = {}
    for name in ["aivat_fixed", *ESTIMATORS]:
        if name not in runs[0]:
            continue
        means = estimate([run[name]["mean"] for run in runs])
        out[name] = {"covers_0": sum(run[name]["low"] <= 0 <= run[name]["high"] for run in runs),
                     "mean_of_means": means.body(),
                     "pooled_variance": round(sum(run[name]["variance"] for run in runs)
                                              / len(runs), 4)}
    out["runs"] = len(runs)
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="crabe-vs-poulpe")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--a", default="ai-3")
    parser.add_argument("--b", default="ai-4")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--judge", action="store_true")
    parser.add_argument("--no-baselines", dest="baselines", action="store_false")
    parser.add_argument("--min-samples", type=int, default=MIN_SAMPLES,
                        help="deals a weight is fitted on at least (else 0: the plain estimate)")
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    policy_class = example_policy()
    runs = []
    for run in range(args.runs):
        runs.append(series(args, run, policy_class))
        print(json.dumps({"run": run} | {k: v for k, v in runs[-1].items()
                                         if k not in ("deal_rows", "games")}), flush=True)
    report: dict[str, Any] = {"args": vars(args), "runs": runs}
    if args.runs > 1:
        report["over_runs"] = over_runs(runs)
        print(json.dumps(report["over_runs"]), flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
