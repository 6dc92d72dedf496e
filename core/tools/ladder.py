"""The strength ladder of core.ai.LEVELS: `python -m core.tools.tournament --ladder`.

For each game and player count (Cup the Crab with 2 and 4 players, Crabe vs Poulpe with
2), every level plays the level below it, and level 5 plays level 1.  With 2 players the
two levels swap seats game by game; with 4 players each level holds two seats (alternate
seats, swapped game by game), so that in every match a level's fair share of the wins
is one half.  A level's win rate is its share of the victories (a shared victory counts
1/winners), given with its 95% Wilson interval.  A Bradley-Terry fit of all the matches
of one game and player count gives each level a rating on the Elo scale (level 1 at 0).
Every game is seeded, so a run repeats exactly on any machine.
"""

from __future__ import annotations

import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

import core
import core.ai

# (game, players, games per match) of the ladder; sizes set on the command line.
TABLES = (("cup-the-crab", 2), ("cup-the-crab", 4), ("crabe-vs-poulpe", 2))
CVP_MODES = ("symmetrical", "asymmetrical")


@dataclass
class Match:
    game: str
    players: int
    level: int          # the level whose win rate is reported
    opponent: int
    games: int
    wins: float         # level's share of the victories, summed over the games
    seconds: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate (a shared win counts as a fraction)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def new_state(game: str, players: int, seed: int) -> Any:
    """The seeded deal of one ladder game (Crabe vs Poulpe alternates its deck mode)."""
    options = {"mode": CVP_MODES[seed // 2 % 2]} if game == "crabe-vs-poulpe" else None
    return core.new_game(game, players, seed=seed, options=options)


# A seat's player: a strength level, or core.ai.suggest's budget and variant as keywords.
Player = int | dict[str, Any]


def play(game: str, levels: list[Player], seed: int) -> list[float]:
    """One seeded game with levels[seat] at each seat; each seat's share of the victory."""
    winners = played(game, levels, seed).result()["winners"]
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(len(levels))]


def played(game: str, levels: list[Player], seed: int,
           cpu: list[list[float]] | None = None) -> Any:
    """One seeded game with levels[seat] at each seat, played to its end: the last state.

    Every seat's AI reads the history as its seat saw it (what it was shown included),
    exactly as the service hands it over.  cpu, if given, gets each seat's search CPU
    seconds and searched decisions added: cpu[seat] = [seconds, decisions].
    """
    state = new_state(game, len(levels), seed)
    log: list[tuple[int, dict[str, Any], dict[str, Any] | None]] = []
    decision = 0
    while not state.is_over:
        for seat in state.to_move:      # a simultaneous selection: each seat on its own
            if seat not in state.to_move:
                continue
            decision += 1
            history = seen_history(state, log, seat)
            player = levels[seat]
            budget = {"level": player} if isinstance(player, int) else player
            out = core.ai.suggest(state, seat, **budget, history=history,
                                  seed=seed * 1000 + decision)
            move = out["move"]
            if cpu is not None and out["iterations"]:
                cpu[seat][0] += out["cpu_seconds"]
                cpu[seat][1] += 1
            log.append((seat, move, state.observed_by(seat)))
            state.apply(seat, move)
    return state


def seen_history(state: Any, log: list[tuple[int, dict[str, Any], dict[str, Any] | None]],
                 seat: int) -> list[dict[str, Any]]:
    """The moves of `log` ([(actor, move, what the actor was shown)]) as `seat` saw them,
    the history core.ai reads, as the service hands it over."""
    return [{"seat": actor, "move": state.visible_move(actor, move, seat),
             **(observed if actor == seat and observed else {})}
            for actor, move, observed in log]


def seating(players: int, level: int, opponent: int, index: int) -> list[int]:
    """Levels by seat for game `index` of a match: alternate seats, swapped every game."""
    first, second = (level, opponent) if index % 2 == 0 else (opponent, level)
    return [first if seat % 2 == 0 else second for seat in range(players)]


def _one_game(args: tuple[str, int, int, int, int, int]) -> float:
    game, players, level, opponent, index, seed = args
    levels = seating(players, level, opponent, index)
    shares = play(game, levels, seed)
    return sum(share for seat, share in enumerate(shares) if levels[seat] == level)


class Progress:
    """One line on stderr, rewritten as games finish: done/total, rate, time left."""

    def __init__(self, total: int) -> None:
        self.total, self.done, self.started = total, 0, time.perf_counter()

    def step(self, label: str) -> None:
        self.done += 1
        elapsed = time.perf_counter() - self.started
        left = elapsed / self.done * (self.total - self.done)
        sys.stderr.write(f"\r  {self.done}/{self.total} games ({label}), {elapsed:.0f} s"
                         f" elapsed, about {left:.0f} s left   ")
        sys.stderr.flush()


def run_match(game: str, players: int, level: int, opponent: int, games: int, seed: int,
              pool: ProcessPoolExecutor | None, progress: Progress) -> Match:
    started = time.perf_counter()
    work = [(game, players, level, opponent, index, seed + index) for index in range(games)]
    label = f"{game} {players}p, level {level} vs {opponent}"
    results = pool.map(_one_game, work) if pool else map(_one_game, work)
    wins = 0.0
    for share in results:
        wins += share
        progress.step(label)
    return Match(game, players, level, opponent, games, wins, time.perf_counter() - started)


def bradley_terry(matches: list[Match], iterations: int = 2000) -> dict[int, float]:
    """Ratings on the Elo scale (level 1 at 0) that best explain the matches' results
    (Bradley-Terry, fitted by Hunter's MM updates; shared victories count as fractions)."""
    levels = sorted({m.level for m in matches} | {m.opponent for m in matches})
    strength = {level: 1.0 for level in levels}
    for _ in range(iterations):
        for level in levels:
            wins = sum(m.wins for m in matches if m.level == level) + sum(
                m.games - m.wins for m in matches if m.opponent == level)
            rate = sum(m.games / (strength[m.level] + strength[m.opponent])
                       for m in matches if level in (m.level, m.opponent))
            strength[level] = max(wins, 0.5) / rate   # 0.5: a level that never wins stays finite
        base = strength[levels[0]]
        strength = {level: value / base for level, value in strength.items()}
    return {level: 400 * math.log10(value) for level, value in strength.items()}


def print_table(game: str, players: int, matches: list[Match], ratings: dict[int, float]) -> None:
    print(f"\n{game}, {players} players")
    print("| level | budget | opponent | games | win rate | 95% interval | rating (Elo) |")
    print("|---|---|---|---|---|---|---|")
    for m in matches:
        low, high = m.ci95
        budget = core.ai.LEVELS[m.level]
        print(f"| {m.level} | {budget['algorithm']} {budget['iterations']:,}"
              f"{', ' + budget['playout'] + ' playouts' if 'playout' in budget else ''} | level"
              f" {m.opponent} | {m.games} | {m.win_rate:.1%} | {low:.1%} to {high:.1%} |"
              f" {ratings[m.level]:+.0f} |")
    print(f"| 1 | {core.ai.LEVELS[1]['algorithm']} {core.ai.LEVELS[1]['iterations']:,} |"
          f" | | | | {ratings[1]:+.0f} |", flush=True)


def merged(paths: list[str]) -> dict[str, Any]:
    """The tables of several ladder runs' JSON files, a later file's table of the same game
    and player count replacing an earlier one's (e.g. a longer rerun of one table)."""
    tables: dict[tuple[str, int], dict[str, Any]] = {}
    for path in paths:
        with open(path) as results:
            for table in json.load(results)["tables"]:
                tables[(table["game"], table["players"])] = table
    return {"tables": [tables[key] for key in TABLES if key in tables]}


def plot(results: dict[str, Any], path: str) -> None:
    """Win rate over the level below, with its interval, per level and table (a PNG)."""
    try:
        import matplotlib
    except ImportError:
        raise SystemExit("plotting needs matplotlib: pip install -e '.[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=120)
    for offset, table in zip((-0.15, 0.0, 0.15), results["tables"]):
        rows = [m for m in table["matches"] if m["opponent"] == m["level"] - 1]
        x = [m["level"] + offset for m in rows]
        y = [m["wins"] / m["games"] for m in rows]
        low = [rate - wilson(m["wins"], m["games"])[0] for rate, m in zip(y, rows)]
        high = [wilson(m["wins"], m["games"])[1] - rate for rate, m in zip(y, rows)]
        ax.errorbar(x, y, yerr=[low, high], fmt="o", capsize=3,
                    label=f"{table['game']}, {table['players']} players")
    ax.axhline(0.5, color="grey", linewidth=0.8)
    ax.axhline(0.55, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xticks([2, 3, 4, 5])
    ax.set_xlabel("level (against the level below)")
    ax.set_ylabel("share of the victories (95% interval)")
    ax.set_title("core.ai levels: each level against the one below")
    ax.set_ylim(0.4, 1.0)
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    fig.savefig(path)
    print(f"plot written to {path}")


def ladder(games: dict[tuple[str, int], int], top_games: int, seed: int, jobs: int,
           json_path: str | None, plot_path: str | None) -> dict[str, Any]:
    """Runs the ladder; games[(game, players)] games per adjacent match."""
    budgets = ", ".join(f"{level}: {b['algorithm']} {b['iterations']:,}"
                        for level, b in core.ai.LEVELS.items())
    print(f"core.tools.tournament --ladder, seed {seed}; levels (iterations a decision): {budgets}",
          flush=True)
    top = max(core.ai.LEVELS)
    plan = [(game, players, level, level - 1, games[(game, players)])
            for game, players in TABLES if games.get((game, players))
            for level in range(2, top + 1)]
    plan += [(game, 2, top, 1, top_games) for game, players in TABLES  # also alone, to
             if players == 2 and top_games]                          # narrow its interval
    progress = Progress(sum(row[-1] for row in plan))
    results: dict[str, Any] = {"seed": seed, "levels": core.ai.LEVELS, "tables": []}
    pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
    try:
        for game, players in TABLES:
            rows = [row for row in plan if row[:2] == (game, players)]
            if not rows:
                continue
            matches = [run_match(*row, seed, pool, progress) for row in rows]
            sys.stderr.write("\n")
            ratings = bradley_terry(matches)
            print_table(game, players, matches, ratings)
            results["tables"].append({"game": game, "players": players,
                                      "matches": [asdict(m) for m in matches],
                                      "ratings": ratings})
    finally:
        if pool:
            pool.shutdown()
    if json_path:
        with open(json_path, "w") as out:
            json.dump(results, out, indent=1)
    if plot_path:
        plot(results, plot_path)
    return results
