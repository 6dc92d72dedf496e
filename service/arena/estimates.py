"""How much of a finished game was luck: AIVAT (Burch, Schmid, Moravcik, Morrill and
Bowling, AAAI 2018) on the game's replay, for the series' variance-reduced estimate.

A game's margin between two seats (+1 where a ranks above b, 0 level, -1 below) is the
sum of what every step of the game changed in it. Some steps are luck: the deal, a draw,
and the choice of a player whose strategy is known (an AI level, whose search is random
through its seed). At each of them this module subtracts what the step gave beyond what
it gives on average, judged by a value function `v` fixed before the series
(core.ai.margins: each pair of seats' expected margin from the complete position, by
playouts, with what chance has not yet revealed drawn again):

- the deal: v(the deal) - the mean of v over `deals` other deals;
- a step of a seat whose strategy is known: v(after the step) - sum over actions a of
  p(a) Q(a), where p is the strategy's distribution, estimated by searching again
  `searches` times with fresh seeds from the same position and the same history, and
  Q(a) is v after a, averaged over `chance` redraws of what is still to be drawn where a
  draws;
- any other step: v(after it) - Q(the action made): what its draw gave, zero where
  nothing was drawn.

Each term has expectation zero given what came before (the estimates of the
expectations are made from samples independent of what happened), so the margin less
the game's luck has the margin's expectation whatever `v` is: the estimate stays
unbiased, and it is narrower as far as `v` foresees the outcome. The decisions of
contestants the server does not know (bots, people) are not corrected: what they chose
is their skill, as far as anyone can tell. Everything here is the game's shared
interface (apply, redraw, core.ai.margins, core.ai.suggest) and the log; every seed is
derived from the game's id and the step, so anyone recomputes the same figures from the
archive.
"""

import hashlib
from collections import Counter
from dataclasses import dataclass
from typing import Any

import msgspec

import core
import core.ai
from service.games.sessions import Sessions

Margins = list[list[float]]


class Judge(msgspec.Struct, kw_only=True, frozen=True):
    """The value function and the samples of the corrections, fixed when a series is
    made and kept in it (a `v` chosen after seeing results could manufacture a verdict).
    No field has a default, so that the document says a series always sends each: JUDGE
    is the one the server uses."""
    name: str
    version: int
    value: str
    iterations: int  # playouts of v per position
    playout: str     # v's playouts (core.ai.margins)
    searches: int    # an AI level's search run again per decision
    deals: int       # other deals for the expectation over the deal
    chance: int      # redraws for the expectation over a draw


JUDGE = Judge(name="aivat", version=1, value="core.ai.margins",
              iterations=core.ai.MARGIN_ITERATIONS, playout="random", searches=8, deals=16,
              chance=8)


@dataclass(frozen=True)
class Seat:
    """What the judge knows of a seat's player: its search's budget (core.ai.suggest's
    keyword arguments) when it is an AI the server plays, else None."""
    strategy: dict[str, Any] | None


def seed_of(*parts: object) -> int:
    digest = hashlib.sha256(" ".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def luck(judge: Judge, initial: Any, entries: list[dict[str, Any]], seats: list[Seat],
         game_id: str, options: dict[str, Any] | None = None) -> Margins:
    """The part of each pair of seats' margin that was luck in this finished game
    (out[a][b] == -out[b][a]): the game's margin less it is the corrected margin.
    initial is the state the game began in (core.from_bytes of the archive's, or
    core.from_snapshot of its replay's first position: what is still to be drawn is
    drawn again before anything is judged, so either gives the same figures), entries
    its log (its replay's entries do as well), options its creation options."""
    total = [[0.0] * initial.players for _ in range(initial.players)]
    for _, _, term in luck_terms(judge, initial, entries, seats, game_id, options):
        total = _plus(total, term)
    return total


def luck_terms(judge: Judge, initial: Any, entries: list[dict[str, Any]], seats: list[Seat],
               game_id: str, options: dict[str, Any] | None = None
               ) -> list[tuple[str, int, Margins]]:
    """Every term of the game's luck: ("deal", -1, ...), then ("decisions" or "draws",
    the move's number, ...) for each move that had one (each of expectation zero given
    what came before, so any part of them may be weighed on its own: loadtests/crn_bench.py
    measures how)."""
    state = initial.clone()
    terms = [("deal", -1, _deal_luck(judge, state, game_id, options))]
    moves = [entry for entry in entries if "move" in entry]
    for step, entry in enumerate(moves):
        seat = entry["seat"]
        strategy = seats[seat].strategy if entry.get("kind", "move") == "move" else None
        history = [Sessions.visible_entry(state, dict(past), seat) for past in moves[:step]]
        decision, draw = _step_luck(judge, state, seat, entry["move"], strategy, history,
                                    (game_id, step))
        if decision is not None:
            terms.append(("decisions", step, decision))
        if draw is not None:
            terms.append(("draws", step, draw))
        state.apply(seat, entry["move"])
    return terms


def _value(judge: Judge, state: Any, key: tuple) -> Margins:
    return core.ai.margins(state, iterations=judge.iterations, seed=seed_of("v", *key),
                           playout=judge.playout)


def _plus(x: Margins, y: Margins) -> Margins:
    return [[a + b for a, b in zip(row_x, row_y)] for row_x, row_y in zip(x, y)]


def _minus(x: Margins, y: Margins) -> Margins:
    return [[a - b for a, b in zip(row_x, row_y)] for row_x, row_y in zip(x, y)]


def _mean(values: list[Margins]) -> Margins:
    n = len(values)
    return [[sum(v[a][b] for v in values) / n for b in range(len(values[0]))]
            for a in range(len(values[0]))]


def _deal_luck(judge: Judge, state: Any, game_id: str,
               options: dict[str, Any] | None) -> Margins:
    others = [core.new_game(state.game, state.players, seed=seed_of("deal", game_id, k),
                            options=options) for k in range(judge.deals)]
    key = (game_id, "deal")
    return _minus(_value(judge, state, key), _mean([_value(judge, deal, key) for deal in others]))


def _settled(state: Any) -> Any:
    """The position less what chance has still to draw: equal for two states that differ
    only there."""
    return core.redraw(state, 0).snapshot()


def _after(state: Any, seat: int, action: int) -> Any:
    after = state.clone()
    after.apply_action(seat, action)
    return after


def _q(judge: Judge, state: Any, seat: int, action: int, key: tuple) -> Margins:
    """v after action, in expectation over what it draws (redraws of what is unseen)."""
    outcomes = [_after(core.redraw(state, seed_of("chance", *key, k)), seat, action)
                for k in range(judge.chance)]
    first = _settled(outcomes[0])
    if all(_settled(outcome) == first for outcome in outcomes[1:]):
        return _value(judge, outcomes[0], key)   # nothing drawn: one position
    return _mean([_value(judge, outcome, key) for outcome in outcomes])


def _step_luck(judge: Judge, state: Any, seat: int, move: dict[str, Any],
               strategy: dict[str, Any] | None, history: list[dict[str, Any]],
               key: tuple) -> tuple[Margins | None, Margins | None]:
    """This step's luck of the decision and luck of the draw: None where there was none
    (one legal move, a move of an unknown player, a move that drew nothing)."""
    made = state.action_of(move)
    if len(state.legal_actions(seat)) == 1:
        return None, None
    after = _after(state, seat, made)
    draws = [_after(core.redraw(state, seed_of("chance", *key, k)), seat, made)
             for k in range(judge.chance)]
    settled = _settled(after)
    drew = any(_settled(outcome) != settled for outcome in draws)
    if strategy is None and not drew:
        return None, None
    made_q = _q(judge, state, seat, made, key)
    chance = _minus(_value(judge, after, key), made_q) if drew else None
    if strategy is None:
        return None, chance
    policy = _policy(judge, state, seat, strategy, history, key)
    expected = _mean_weighted([(p, made_q if action == made else
                                _q(judge, state, seat, action, key))
                               for action, p in policy.items()])
    return _minus(made_q, expected), chance


def _policy(judge: Judge, state: Any, seat: int, strategy: dict[str, Any],
            history: list[dict[str, Any]], key: tuple) -> dict[int, float]:
    """The AI's distribution over its moves here, estimated by searching again with
    fresh seeds (its own search's seed was random: the strategy is that distribution)."""
    chosen = Counter(core.ai.suggest(state.clone(), seat, seed=seed_of("search", *key, k),
                                     history=history, **strategy)["action"]
                     for k in range(judge.searches))
    return {action: count / judge.searches for action, count in chosen.items()}


def _mean_weighted(terms: list[tuple[float, Margins]]) -> Margins:
    size = len(terms[0][1])
    return [[sum(p * m[a][b] for p, m in terms) for b in range(size)] for a in range(size)]
