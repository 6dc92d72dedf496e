"""Today's search stays reachable as the yardstick (issue 31): the level 5 of before issue
31, that is suggest(algorithm="ismcts", iterations=12500) (core.ai.REFERENCE_LEVELS[5]),
plays exactly as it did before the search gained its variants.  The moves and visit
counts below were recorded with the core at 1ac4f8f (before the variants), on the same
positions and seeds."""

import random

import pytest

import core
import core.ai
from tests.ai.positions import random_position

# (game, position seed, players, search seed, action played, visits of the top moves)
RECORDED = [
    ('cc', 500, 2, 0, 4, (12098, 402)),
    ('cc', 500, 3, 0, 25, (7313, 5187)),
    ('cc', 500, 4, 0, 17, (3362, 3308, 3087)),
    ('cc', 500, 5, 0, 246, (1687, 1630, 1288)),
    ('cc', 501, 2, 1, 103, (1008, 1008, 1008)),
    ('cc', 501, 3, 1, 266, (833, 812, 773)),
    ('cc', 501, 4, 1, 233, (1250, 1250, 1250)),
    ('cc', 501, 5, 1, 105, (562, 562, 562)),
    ('cc', 502, 2, 2, 268, (1361, 1356, 1346)),
    ('cc', 502, 3, 2, 41, (12301, 142, 57)),
    ('cc', 502, 4, 2, 68, (1039, 918, 878)),
    ('cc', 502, 5, 2, 297, (538, 493, 489)),
    ('cc', 503, 2, 3, 24, (7603, 3472, 1172)),
    ('cc', 503, 4, 3, 9, (4803, 3429, 1603)),
    ('cc', 503, 5, 3, 336, (195, 172, 167)),
    ('cc', 504, 2, 4, 2, (10087, 1382, 672)),
    ('cc', 505, 2, 5, 287, (192, 182, 177)),
    ('cc', 505, 3, 5, 40, (11426, 526, 330)),
    ('cc', 505, 4, 5, 71, (252, 231, 204)),
    ('cvp', 700, 2, 0, 24, (9451, 1294, 1109)),
    ('cvp', 703, 2, 3, 75, (11141, 547, 474)),
    ('cvp', 704, 2, 4, 31, (8145, 3439, 916)),
    ('cvp', 705, 2, 5, 30, (4559, 4386, 2800)),
]


def cvp_position(seed):
    rng = random.Random(seed)
    state = core.new_game("crabe-vs-poulpe", 2, seed=seed,
                          options={"mode": ("symmetrical", "asymmetrical")[seed % 2]})
    for _ in range(rng.randrange(0, 40)):
        seat = rng.choice(state.to_move)
        state.apply_action(seat, rng.choice(state.legal_actions(seat)))
    return state


@pytest.mark.parametrize("game, position, players, seed, action, visits", RECORDED)
def test_level_5_plays_exactly_as_before_the_search_gained_variants(game, position, players,
                                                                     seed, action, visits):
    state = (random_position(position, players) if game == "cc" else cvp_position(position))
    seat = state.to_move[0]
    for out in (core.ai.suggest(state, seat, seed=seed, **core.ai.REFERENCE_LEVELS[5]),
                core.ai.suggest(state, seat, algorithm="ismcts", iterations=12_500, seed=seed,
                                playout="random", reward="win")):
        assert out["action"] == action
        assert tuple(row["visits"] for row in out["stats"][:3]) == visits


# (players, deal seed, search seed, action played, visits of the top moves) at a game's
# first selection, where the search draws every other seat's secret selection, recorded
# at 2885ef6 (before those draws counted the allowed triples instead of listing them).
FIRST_SELECTIONS = [
    (2, 800, 0, 176, (268, 247, 229)),
    (2, 801, 1, 67, (173, 173, 171)),
    (3, 800, 0, 118, (320, 256, 240)),
    (3, 801, 1, 111, (240, 176, 173)),
    (4, 800, 0, 257, (148, 115, 115)),
    (4, 801, 1, 203, (161, 159, 159)),
    (5, 800, 0, 267, (252, 222, 203)),
    (5, 801, 1, 212, (188, 151, 149)),
]


@pytest.mark.parametrize("players, deal, seed, action, visits", FIRST_SELECTIONS)
def test_level_5_plays_exactly_as_before_where_it_draws_the_others_secret_selections(
        players, deal, seed, action, visits):
    state = core.new_game("cup-the-crab", players, seed=deal)
    out = core.ai.suggest(state, state.to_move[-1], seed=seed, **core.ai.REFERENCE_LEVELS[5])
    assert out["action"] == action
    assert tuple(row["visits"] for row in out["stats"][:3]) == visits


# Level 5's search (policy playouts, place rewards, UCB at the root: core.ai.LEVELS[5],
# which 2-player Cup the Crab changes by TABLE_VARIANTS) is what the speed work must not
# change either: (kind, deal or position seed, players, search seed, action, visits of
# the top moves), recorded at 551949a, before the root's moves were listed once (ccbb4f3)
# and before the Cup the Crab rule of thumb was rewritten for speed.
LEVEL_5 = [
    ('cc-first', 900, 2, 0, 190, (228, 220, 209)),
    ('cc-first', 901, 2, 1, 160, (266, 213, 212)),
    ('cc', 602, 2, 2, 345, (1842, 1201, 1077)),
    ('cc-first', 900, 3, 0, 78, (187, 163, 163)),
    ('cc-first', 901, 3, 1, 123, (126, 120, 117)),
    ('cc', 603, 3, 3, 14, (9172, 3328)),
    ('cc-first', 900, 4, 0, 216, (172, 150, 149)),
    ('cc-first', 901, 4, 1, 95, (180, 159, 152)),
    ('cc', 604, 4, 4, 29, (9185, 2775, 540)),
    ('cc-first', 900, 5, 0, 295, (145, 132, 129)),
    ('cc-first', 901, 5, 1, 69, (223, 212, 209)),
    ('cc', 605, 5, 5, 350, (705, 601, 592)),
    ('cvp', 710, 2, 710, 19, (12235, 265)),
    ('cvp', 711, 2, 711, 27, (7713, 2424, 1371)),
]


@pytest.mark.parametrize("kind, position, players, seed, action, visits", LEVEL_5)
def test_level_5_s_search_plays_as_recorded_while_the_search_is_made_faster(
        kind, position, players, seed, action, visits):
    if kind == "cc-first":
        state = core.new_game("cup-the-crab", players, seed=position)
        seat = state.to_move[-1]
    else:
        state = (random_position(position, players) if kind == "cc" else cvp_position(position))
        seat = state.to_move[0]
    out = core.ai.suggest(state, seat, seed=seed, **core.ai.LEVELS[5])
    assert out["action"] == action
    assert tuple(row["visits"] for row in out["stats"][:3]) == visits
