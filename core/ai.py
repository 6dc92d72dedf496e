"""A computer player that uses only what its seat can know: ISMCTS, or flat Monte Carlo.

    import core, core.ai
    state = core.new_game("cup-the-crab", 2, seed=1)
    core.ai.suggest(state, state.to_move[0], iterations=1000)
    # {"move": {...}, "action": 71, "algorithm": "ismcts", "iterations": 1000,
    #  "stats": [{"move", "visits", "win_rate"}, ...], "simulations_per_second": ...}

The search itself is game-agnostic C (core/ismcts.pyx).  A game plugs in with its search
module (core/games/<game>/search.pyx, named by core/registry.py) that provides `vtable()`
(its C function table, which core.registry.vtable hands out), `raw_state(state)` (its C state as bytes) and `info(state, seat, history)` (what the
seat learnt from the game's history beyond its view, as bytes for the determinizer, or
None).  The search reads the real state through the game's determinizer
only, which re-deals every card the seat cannot see: see docs/ai.md.
"""

from __future__ import annotations

import importlib
import math
from typing import Any

from core import ismcts, registry

# Game name -> its search module (core/registry.py).
ADAPTERS: dict[str, str] = {entry.name: entry.search for entry in registry.GAMES}
ALGORITHMS = ismcts.ALGORITHMS
PLAYOUTS = ismcts.PLAYOUTS
ROOTS = ismcts.ROOTS
REWARDS = ismcts.REWARDS
DEFAULT_ALGORITHM = "ismcts"
DEFAULT_EXPLORATION = 0.7
LIMITS = {"iterations": (1, 1_000_000), "time_ms": (1, 60_000), "threads": (1, 64),
          "max_moves": (1, 1_000_000_000)}
# Strength levels, the one place that defines them: a level is an algorithm, a number of
# simulations a decision (flat Monte Carlo below level 3) and the playouts, chosen so that
# each level beats the one below in every rating pool (Cup the Crab with 2 and with 3 to 5
# players, Crabe vs Poulpe), as measured on the rating scale of service.ratings (figures
# in docs/ai.md, "Strength levels").  Iteration budgets make a level's play the same on
# any machine; a decision of level 5 takes 15 to 30 ms of CPU on average over a game on
# one core and 50 at most (2026-12-07, with its cap at 5 players below: docs/ai.md, "The
# dearest decisions").  Levels 3
# to 5 play the rules-of-thumb playouts since issue 31 (at equal CPU time they beat the
# random ones at every table size) and back up rank rewards (with 3 to 5 players the
# rating counts every place of the table, not only the winner's: docs/ai.md).  Level 5
# backs up the place alone: with rank rewards its 12,500 iterations placed little above
# level 4's 2,000 with 3 to 5 players, with place rewards they do; with two players the
# place is the victory, so level 5 plays there as with rank rewards (docs/ai.md, "Level 5
# for 3 to 5 players").
LEVELS: dict[int, dict[str, Any]] = {
    1: {"algorithm": "flat", "iterations": 10},
    2: {"algorithm": "flat", "iterations": 100},
    3: {"algorithm": "ismcts", "iterations": 200, "playout": "policy", "reward": "rank"},
    4: {"algorithm": "ismcts", "iterations": 2_000, "playout": "policy", "reward": "rank"},
    5: {"algorithm": "ismcts", "iterations": 12_500, "playout": "policy", "reward": "place"},
}
# What a level plays differently at one game's table size, where that was measured to
# win.  Cup the Crab with two players: level 5 shares its root's iterations out by
# sequential halving (ROOTS) rather than UCB; a selection there has up to 286 moves,
# which 12,500 iterations spread thinly under UCB: 60.2% of 400 games against reference
# level 5 at its CPU time, 53.9% with UCB on the same deals.  With 4 players it placed
# higher but won less (33.5% of 240 games against three reference level 5, 36.0% with
# UCB), and in Crabe vs Poulpe, whose roots have a handful of moves, it won less
# (docs/ai.md, "Sequential halving at the root").  Cup the Crab with five players: level
# 5 also stops at 1.3 million simulated moves (max_moves), which binds in the first two
# rounds only, where a playout runs 100 to 135 moves and a decision cost up to 56 ms; one
# capped seat against four uncapped level 5 won 20.8% of 240 games and placed above them
# in 50.6% of the pairs (fair: 20% and 50%; docs/ai.md, "The dearest decisions").
TABLE_VARIANTS: dict[tuple[str, int], dict[int, dict[str, Any]]] = {
    ("cup-the-crab", 2): {5: {"root": "halving"}},
    ("cup-the-crab", 5): {5: {"max_moves": 1_300_000}},
}
# The levels as they were before issue 31, with the same play: fixed reference players
# of the rating scale (service.ratings), so that the levels above and the ratings earned
# against these sit on one scale.  Level 1 and 2 are the same players in both.  The
# yardstick of tests/ai/test_yardstick.py is the reference level 5.
REFERENCE_LEVELS: dict[int, dict[str, Any]] = {
    1: {"algorithm": "flat", "iterations": 10},
    2: {"algorithm": "flat", "iterations": 100},
    3: {"algorithm": "ismcts", "iterations": 500},
    4: {"algorithm": "ismcts", "iterations": 2_500},
    5: {"algorithm": "ismcts", "iterations": 12_500},
}


def supports(game: str) -> bool:
    """Whether suggest() can play `game`."""
    return game in ADAPTERS


def _adapter(game: str) -> Any:
    name = ADAPTERS.get(game)
    if name is None:
        raise NotImplementedError(
            f"no AI for {game!r} yet: it needs a determinizer and a search vtable"
            f" (see core/games/cupcrab/search.pyx); games with an AI: {', '.join(ADAPTERS)}")
    return importlib.import_module(name)


def determinize(state: Any, seat: int, *, seed: int = 0,
                history: list[dict[str, Any]] | None = None) -> Any:
    """A complete state consistent with everything `seat` has observed: its view and, with
    `history` (the move log as that seat saw it, as for suggest), what the log taught it;
    every card it cannot place is dealt uniformly among the places it could be.  The same
    for every game; NotImplementedError for a game without an AI."""
    return _adapter(getattr(state, "game", None)).determinize_for(state, seat, history, seed)


def _int_in(name: str, value: object) -> int:
    low, high = LIMITS[name]
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{name} must be an integer from {low:,} to {high:,}, got {value!r}")
    return value


def level_budget(level: object, game: str | None = None,
                 players: int | None = None) -> dict[str, Any]:
    """The algorithm, iterations and variant of a strength level (at `game`'s table of
    `players` where TABLE_VARIANTS changes it); ValueError if it is not a level."""
    if type(level) is not int or level not in LEVELS:
        raise ValueError(f"level must be an integer from {min(LEVELS)} to {max(LEVELS)},"
                         f" got {level!r}")
    return {**LEVELS[level], **TABLE_VARIANTS.get((game, players), {}).get(level, {})}


def _check(state: Any, seat: object, iterations: object, time_ms: object, algorithm: object,
           exploration: object, seed: object, threads: object, playout: object = "random",
           reward: object = "win", max_moves: object = None, root: object = "ucb") -> None:
    if (iterations is None) == (time_ms is None):
        raise ValueError("give exactly one of level, iterations and time_ms")
    if iterations is not None:
        _int_in("iterations", iterations)
    if max_moves is not None:
        _int_in("max_moves", max_moves)
    if time_ms is not None:
        low, high = LIMITS["time_ms"]
        if (type(time_ms) not in (int, float) or not math.isfinite(time_ms)
                or not low <= time_ms <= high):
            raise ValueError(f"time_ms must be a number from {low} to {high:,}, got {time_ms!r}")
    _int_in("threads", threads)
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}, got {algorithm!r}")
    if playout not in PLAYOUTS:
        raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}, got {playout!r}")
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
    if root not in ROOTS:
        raise ValueError(f"root must be one of {', '.join(ROOTS)}, got {root!r}")
    if root == "halving" and (algorithm != "ismcts" or iterations is None):
        raise ValueError("root 'halving' is for ismcts with an iteration budget (it plans"
                         " its rounds from the iterations)")
    if (type(exploration) not in (int, float) or not math.isfinite(exploration)
            or not 0 <= exploration <= 100):
        raise ValueError(f"exploration must be a number from 0 to 100, got {exploration!r}")
    if type(seed) is not int or not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed must be an integer from 0 to 2**64 - 1, got {seed!r}")
    if type(seat) is not int or not 0 <= seat < state.players:
        raise ValueError(f"seat must be an integer from 0 to {state.players - 1}, got {seat!r}")
    if seat not in state.to_move:
        raise ValueError(f"seat {seat} has no move to make now"
                         + (": the game is over" if state.is_over else
                            f"; seats to move: {list(state.to_move)}"))


def suggest(state: Any, seat: int, *, level: int | None = None, iterations: int | None = None,
            time_ms: float | None = None, algorithm: str | None = None,
            exploration: float = DEFAULT_EXPLORATION, seed: int = 0, threads: int = 1,
            history: list[dict[str, Any]] | None = None, playout: str | None = None,
            reward: str | None = None, max_moves: int | None = None,
            root: str | None = None) -> dict[str, Any]:
    """The move the AI suggests for `seat`, with its root statistics.

    Exactly one budget: a strength level (1 to 5, see LEVELS: it sets the algorithm, the
    iterations and the playouts), iterations (1 to 1,000,000 simulations in all, shared among the
    threads) or time_ms (1 to 60,000, wall clock for every thread).  threads > 1 searches
    one tree per thread and sums their root statistics.  seed makes an iteration-budget
    search repeatable.  history, the game's moves from the start as logged
    ([{"seat": s, "move": m}, ...], hidden selections allowed), lets the determinizer use
    what the seat learnt beyond its current view (in Cup the Crab, what a discard of
    this round proved about the discarder's hand; see docs/ai.md).  playout ("random" or
    "policy": the game's rules of thumb) and reward ("win"; "rank": the table's order
    counts too; "place": the order alone) choose the search's variant (docs/ai.md); a
    level sets them, and without one the defaults, "random" and "win", are the search as
    it was before issue 31 (REFERENCE_LEVELS).  max_moves (1 to 1,000,000,000) also stops
    the search once it has simulated that many moves in all, a repeatable cap on its
    work where playouts are long (a game's first decisions); a level may set it.  root
    ("ucb", or "halving": the root's moves by sequential halving over an iteration
    budget; docs/ai.md) chooses how the root's moves share the iterations; a level sets it.
    ValueError for a bad parameter or a seat that may not act, NotImplementedError for
    a game without an AI.
    """
    adapter = _adapter(getattr(state, "game", None))
    if level is not None:
        if (iterations is not None or time_ms is not None or algorithm is not None
                or playout is not None or reward is not None or max_moves is not None
                or root is not None):
            raise ValueError("give exactly one of level, iterations and time_ms"
                             " (a level sets the algorithm and the variant too)")
        budget = level_budget(level, state.game, state.players)
        iterations, algorithm = budget["iterations"], budget["algorithm"]
        playout, reward = budget.get("playout"), budget.get("reward")
        max_moves, root = budget.get("max_moves"), budget.get("root")
    algorithm = DEFAULT_ALGORITHM if algorithm is None else algorithm
    playout = "random" if playout is None else playout
    reward = "win" if reward is None else reward
    root = "ucb" if root is None else root
    _check(state, seat, iterations, time_ms, algorithm, exploration, seed, threads,
           playout, reward, max_moves, root)
    info = adapter.info(state, seat, history)
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return {"move": state.move_of(legal[0]), "action": legal[0], "algorithm": algorithm,
                "iterations": 0, "moves": 0, "stats": [{"move": state.move_of(legal[0]), "visits": 0,
                                            "win_rate": None}],
                "simulations_per_second": 0.0, "seconds": 0.0, "cpu_seconds": 0.0,
                "threads": threads}
    out = ismcts.search(registry.vtable(state.game), adapter.raw_state(state), seat,
                        info, iterations=iterations or 0,
                        time_ms=time_ms or 0, algorithm=algorithm,
                        exploration=float(exploration), seed=seed, threads=threads,
                        playout=playout, reward=reward, max_moves=max_moves or 0,
                        root=root)
    order = sorted(range(len(out["actions"])),
                   key=lambda i: (-out["visits"][i], out["actions"][i]))
    seconds = out["seconds"]
    return {
        "move": state.move_of(out["best"]), "action": out["best"], "algorithm": algorithm,
        "iterations": out["simulations"], "moves": out["moves"],
        "stats": [{"move": state.move_of(out["actions"][i]), "visits": out["visits"][i],
                   "win_rate": out["rewards"][i] / out["visits"][i]} for i in order],
        "simulations_per_second": out["simulations"] / seconds if seconds > 0 else 0.0,
        "seconds": seconds, "cpu_seconds": out["cpu_seconds"], "threads": out["threads"],
    }


EVALUATE_ITERATIONS = 2_000     # default playouts of evaluate(): see docs/ai.md, "The judge"
# The playouts' raw chances are too sure of themselves (players play better than the
# rules of thumb, and play differently): evaluate() moves them towards 1/players by this
# share, per game and table size, fitted on games never used to judge the judge:
# `python -m core.tools.calibrate --raw --seed 2000000 --save F; ... --fit F` (docs/ai.md).
SHRINK: dict[tuple[str, int], float] = {
    ("cup-the-crab", 2): 0.032, ("cup-the-crab", 3): 0.087, ("cup-the-crab", 4): 0.115,
    ("cup-the-crab", 5): 0.216, ("crabe-vs-poulpe", 2): 0.170,
}


def evaluate(state: Any, seat: int, *, iterations: int = EVALUATE_ITERATIONS, seed: int = 0,
             history: list[dict[str, Any]] | None = None, shrink: bool = True) -> list[float]:
    """Each seat's chance of winning, as `seat` can judge it: the mean victory share (a
    victory shared by k counts 1/k) of `iterations` playouts by the game's rules of thumb
    from determinizations for `seat` (history as for suggest), moved towards 1/players by
    SHRINK (shrink=False: the playouts' raw figures).  The figures sum to 1; a finished
    game gives its result.  Positions `seat` cannot tell apart get the same figures for
    the same seed.  ValueError for a bad parameter."""
    adapter = _adapter(getattr(state, "game", None))
    _int_in("iterations", iterations)
    if type(seed) is not int or not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed must be an integer from 0 to 2**64 - 1, got {seed!r}")
    if type(seat) is not int or not 0 <= seat < state.players:
        raise ValueError(f"seat must be an integer from 0 to {state.players - 1}, got {seat!r}")
    if state.is_over:
        winners = state.result()["winners"]
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(state.players)]
    chances = ismcts.evaluate(registry.vtable(state.game), adapter.raw_state(state), seat,
                              adapter.info(state, seat, history), iterations=iterations,
                              playout="policy", seed=seed)
    share = SHRINK.get((state.game, state.players), 0.0) if shrink else 0.0
    return [(1 - share) * chance + share / state.players for chance in chances]


MARGIN_ITERATIONS = 256     # default playouts of margins(): see docs/arena.md, "Estimates"


def margins(state: Any, *, iterations: int = MARGIN_ITERATIONS, seed: int = 0,
            playout: str = "random") -> list[list[float]]:
    """Each ordered pair of seats' expected margin from the complete position, every card
    as it lies: out[a][b] is the mean over `iterations` playouts by the game's rules of
    thumb of +1 where a ends above b in the table's order, 0 level, -1 below (so
    out[b][a] == -out[a][b]); what chance has not yet revealed is drawn again first
    (core.redraw with seed), so the figures do not know the future.  A finished game gives
    its ranking's margins exactly.  A value function for judging a game after it ended,
    when nothing is hidden (the arena's estimates): it sees every hand, so it is never for
    a seat's decision.  ValueError for a bad parameter."""
    import core
    adapter = _adapter(getattr(state, "game", None))
    _int_in("iterations", iterations)
    if type(seed) is not int or not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed must be an integer from 0 to 2**64 - 1, got {seed!r}")
    if playout not in PLAYOUTS:
        raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}, got {playout!r}")
    if state.is_over:
        rank = {place["seat"]: place["rank"] for place in state.result()["ranking"]}
        return [[float((rank[a] < rank[b]) - (rank[a] > rank[b])) for b in range(state.players)]
                for a in range(state.players)]
    position = core.redraw(state, seed)
    return ismcts.margins(registry.vtable(state.game), adapter.raw_state(position),
                          iterations=iterations, playout=playout, seed=seed)
