"""How many fewer deals does the series' corrected estimate (AIVAT) need than counting wins?

    python loadtests/aivat_bench.py --game crabe-vs-poulpe --players 2 --a bot-2 --b ai-3
                                    [--deals 40] [--runs 1] [--seed 1] [--out results.json]

Plays `--runs` series of `--deals` duplicate deals in process, each deal once per rotation
of the seats, as the service's series do (service/arena/series.py: seat s of rotation r is
contestant (s + r) % players), and judges every game with the series' judge
(service/arena/estimates.py, its default parameters). Contestants: `ai-N` is the server's
AI at level N (core.ai.suggest with the seat's history, a fresh random seed a decision:
what service/games/robots.py does), `bot-N` the example bot's `ai` policy at level N
(examples/bot.py's Policy: a search from a position drawn from the seat's view alone).
The table is `--a` then `--b` in every other seat (`--a bot-2 --b ai-3 --players 4`:
one bot against three level-3 AIs); the figures are contestant 0 against contestant 1.

Prints, per run and over the runs: the plain and the corrected mean difference with
their 95% intervals, the variance of one game's difference each way and their ratio, and
the deals each needs for +-5% (crosstable.deals_for, a half-width of 0.10 of difference);
over runs, how many intervals covered 0 (for A/A series: the same contestant twice), and
whether the plain and corrected means agree. CPU seconds of play and of judging, too.
"""

import argparse
import importlib.util
import json
import random
import resource
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import core
import core.ai
from service.arena.crosstable import deals_for, estimate
from service.arena.estimates import JUDGE, Seat, luck
from service.games.sessions import Sessions


def example_policy() -> Any:
    spec = importlib.util.spec_from_file_location("example_bot", ROOT / "examples" / "bot.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.Policy


class Player:
    def __init__(self, name: str, rng: random.Random, policy_class: Any) -> None:
        kind, level = name.split("-")
        self.level = int(level)
        self.rng = rng
        self.policy = policy_class("ai", self.level, rng.getrandbits(63)) if kind == "bot" \
            else None

    def seat(self) -> Seat:
        return Seat(None if self.policy else {"level": self.level})

    def choose(self, state: Any, seat: int, log: list[dict[str, Any]]) -> dict[str, Any]:
        if self.policy is not None:
            return self.policy.choose({"view": state.view(seat), "you": seat,
                                       "legal_moves": state.legal_moves(seat)})
        history = [Sessions.visible_entry(state, dict(entry), seat) for entry in log]
        return core.ai.suggest(state.clone(), seat, level=self.level, history=history,
                               seed=self.rng.getrandbits(63))["move"]


def play(game: str, seed: int, table: list[Player]) -> tuple[bytes, list[dict[str, Any]], Any]:
    state = core.new_game(game, len(table), seed=seed)
    initial, log = state.to_bytes(), []
    while not state.is_over:
        seat = state.to_move[0]
        apply_logged(state, seat, table[seat].choose(state, seat, log), log)
    return initial, log, state


def apply_logged(state: Any, seat: int, move: dict, log: list[dict]) -> None:
    """Applies seat's move, logged as the server logs it (with what the seat was shown)."""
    entry = {"seat": seat, "kind": "move", "move": move}
    observed = state.observed_by(seat)
    if observed is not None:
        entry["observed"] = observed
    state.apply(seat, move)
    log.append(entry)


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def series(args, run: int, policy_class: Any) -> dict[str, Any]:
    rng = random.Random(f"{args.seed} {run}")
    contestants = [Player(args.a, rng, policy_class)] + \
        [Player(args.b, rng, policy_class) for _ in range(args.players - 1)]
    judge, players = JUDGE, args.players
    plain, corrected, played_s, judged_s = [], [], 0.0, 0.0
    for deal in range(args.deals):
        seed = rng.getrandbits(62)
        for rotation in range(players):
            who = [(seat + rotation) % players for seat in range(players)]  # seat -> contestant
            seat_of = {c: s for s, c in enumerate(who)}
            started = cpu()
            initial, log, state = play(args.game, seed, [contestants[c] for c in who])
            played = cpu()
            game_id = f"bench-{args.seed}-{run}-{deal}-{rotation}"
            part = luck(judge, core.from_bytes(initial), log, [contestants[c].seat() for c in who], game_id)
            judged_s += cpu() - played
            played_s += played - started
            margin = core.ai.margins(state)[seat_of[0]][seat_of[1]]
            plain.append(margin)
            corrected.append(margin - part[seat_of[0]][seat_of[1]])
    return summary(plain, corrected, players) | {"play_cpu_s": round(played_s, 1),
                                                 "judge_cpu_s": round(judged_s, 1)}


def summary(plain: list[float], corrected: list[float], rotations: int) -> dict[str, Any]:
    p, c = estimate(plain), estimate(corrected)
    return {"games": len(plain), "plain": p.body(), "corrected": c.body(),
            "plain_variance": round(p.variance or 0, 4),
            "corrected_variance": round(c.variance or 0, 4),
            "variance_ratio": round(p.variance / c.variance, 2) if p.variance and c.variance
            else None,
            "deals_for_5_percent": {"plain": deals_for(p.variance, 0.10, rotations),
                                    "corrected": deals_for(c.variance, 0.10, rotations)}}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="crabe-vs-poulpe")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--a", default="ai-3")
    parser.add_argument("--b", default="ai-3")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    policy_class = example_policy()
    runs = []
    for run in range(args.runs):
        runs.append(series(args, run, policy_class))
        print(json.dumps({"run": run, **runs[-1]}), flush=True)
    report = {"game": args.game, "players": args.players, "a": args.a, "b": args.b,
              "deals": args.deals, "runs": runs}
    if args.runs > 1:
        report["over_runs"] = over_runs(runs)
        print(json.dumps(report["over_runs"]), flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1))
    return 0


def over_runs(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Coverage of 0 by each run's interval, and the plain and corrected means compared."""
    def covers(body: dict) -> bool:
        return body["low"] <= 0 <= body["high"]
    plain = estimate([run["plain"]["mean"] for run in runs])
    corrected = estimate([run["corrected"]["mean"] for run in runs])
    gaps = estimate([run["corrected"]["mean"] - run["plain"]["mean"] for run in runs])
    return {"runs": len(runs),
            "plain_covers_0": sum(covers(run["plain"]) for run in runs),
            "corrected_covers_0": sum(covers(run["corrected"]) for run in runs),
            "plain_mean": plain.body(), "corrected_mean": corrected.body(),
            "corrected_minus_plain": gaps.body(),
            "variance_ratio_mean": round(sum(run["variance_ratio"] or 0 for run in runs)
                                         / len(runs), 2),
            "pooled_ratio": round(sum(run["plain_variance"] for run in runs)
                                  / sum(run["corrected_variance"] for run in runs), 2)
            if all(run["corrected_variance"] for run in runs) else None,
            "z_of_gap": None if not gaps.half_width else
            round(gaps.mean / (gaps.half_width / 1.96), 2)}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
