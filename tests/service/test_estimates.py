"""The series' corrected estimate (service/arena/estimates.py): the luck AIVAT finds in a
game has expectation zero, so the corrected margin keeps the plain margin's expectation;
a step that gave nothing to chance and no choice to a known strategy has no luck."""

import random
import statistics

import msgspec

import core
import core.ai
from service.arena.estimates import JUDGE, Seat, luck

# Small samples: the maths is the same, each game judged in milliseconds.
QUICK = msgspec.structs.replace(JUDGE, iterations=32, searches=4, deals=4, chance=4)
LEVEL_1 = Seat({"level": 1})   # flat Monte Carlo, 10 playouts: a very random known strategy
UNKNOWN = Seat(None)


def played(seed: int, game: str = "crabe-vs-poulpe") -> tuple[core.GameState, list[dict], core.GameState]:
    """A game of level 1 (seat 0, the known strategy) against uniformly random moves."""
    rng = random.Random(seed)
    state = core.new_game(game, 2, seed=seed)
    initial, log = state.clone(), []
    while not state.is_over:
        seat = state.to_move[0]
        move = core.ai.suggest(state, seat, level=1, seed=rng.getrandbits(62))["move"] \
            if seat == 0 else rng.choice(state.legal_moves(seat))
        log.append({"seat": seat, "kind": "move", "move": move})
        state.apply(seat, move)
    return initial, log, state


def test_the_luck_of_games_averages_zero_so_the_corrected_margin_is_unbiased():
    """Over many games the luck found (deals, draws, the known seat's choices) averages
    zero within its standard error, and it is not zero game by game: the corrected
    margins' mean agrees with the plain margins' while each game's is moved."""
    lucks, margins = [], []
    for seed in range(120):
        initial, log, final = played(seed)
        found = luck(QUICK, initial, log, [LEVEL_1, UNKNOWN], f"unbiased-{seed}")
        assert found[1][0] == -found[0][1]
        lucks.append(found[0][1])
        margins.append(core.ai.margins(final)[0][1])
    error = statistics.stdev(lucks) / len(lucks) ** 0.5
    assert abs(statistics.mean(lucks)) < 3 * error
    assert statistics.stdev(lucks) > 0.1
    corrected = [m - x for m, x in zip(margins, lucks)]
    both = statistics.stdev([c - m for c, m in zip(corrected, margins)]) / len(margins) ** 0.5
    assert abs(statistics.mean(corrected) - statistics.mean(margins)) < 3 * both


def test_the_same_game_is_judged_the_same_from_its_archive_or_its_replay():
    """Seeds come from the game's id and the step, and what is still to be drawn is drawn
    again before anything is judged: the archive's state and a replay's first position
    (whose PRNG is not the game's) give the same figures."""
    initial, log, _ = played(3)
    again = core.from_snapshot(initial.snapshot(), seed=12345)
    assert luck(QUICK, initial, log, [LEVEL_1, UNKNOWN], "same") == \
        luck(QUICK, again, log, [LEVEL_1, UNKNOWN], "same")


def test_moves_of_unknown_players_that_draw_nothing_carry_no_luck():
    """Cup the Crab deals every cup at the start: between two unknown players the only
    luck is the deal's, whatever they play."""
    initial, log, _ = played(5, "cup-the-crab")
    with_moves = luck(QUICK, initial, log, [UNKNOWN, UNKNOWN], "deal-only")
    deal_only = luck(QUICK, initial, [], [UNKNOWN, UNKNOWN], "deal-only")
    assert with_moves == deal_only and with_moves[0][1] != 0
