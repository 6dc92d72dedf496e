"""The crosstable's statistics: scores, differences, and what pairing by deal buys."""

import math
import random

from service.arena.crosstable import Played, crosstable, deals_for, estimate, pair, t95


def test_a_score_counts_a_win_one_a_draw_half_and_the_difference_is_twice_less_one():
    games = [Played(0, {0: 1, 1: 2}, "a"), Played(0, {0: 2, 1: 1}, "b"),
             Played(1, {0: 1, 1: 1}, "c"), Played(1, {0: 1, 1: 2}, "d")]
    cell = pair(games, 0, 1, rotations=2)
    assert (cell["a_wins"], cell["draws"], cell["b_wins"]) == (2, 1, 1)
    assert cell["score"] == 0.625 and cell["difference"]["mean"] == 0.25
    assert cell["games"] == 4 and cell["deals"] == 2


def test_the_interval_is_the_mean_plus_or_minus_students_t_standard_errors():
    found = estimate([1.0, -1.0, 1.0, 1.0])
    standard_error = math.sqrt(1.0 / 4)  # sample variance 1, four samples
    assert math.isclose(found.half_width, 3.1786 * standard_error, rel_tol=1e-4)  # t, 3 df
    assert estimate([1.0]).half_width is None


def test_students_t_meets_its_table_and_tends_to_the_normal():
    table = {1: 12.706, 2: 4.303, 4: 2.776, 7: 2.365, 9: 2.262, 20: 2.086, 39: 2.023}
    for df, quantile in table.items():
        assert abs(t95(df) - quantile) < 0.002, df
    assert 1.96 < t95(10_000) < 1.961


def test_each_fitted_coefficient_costs_a_degree_of_freedom():
    samples = [0.3, -0.2, 0.9, 0.1, -0.4]
    assert estimate(samples, fitted=2).half_width > estimate(samples).half_width
    assert estimate(samples, fitted=4).half_width is None


def test_paired_deals_cancel_the_luck_of_the_deal_and_say_how_much():
    """A deal favours one seat strongly; a contestant a little better than the other wins
    more often from either seat. Unpaired, the deal's luck is noise; paired by deal it
    cancels, so the paired interval is the narrower and the ratio says by how much."""
    rng = random.Random(7)
    games = []
    for deal in range(400):
        luck = rng.choice([-0.8, 0.8])  # which seat this deal favours
        for rotation in range(2):
            a_seat = rotation           # a plays seat 0, then seat 1
            edge = 0.1 + (luck if a_seat == 0 else -luck)
            a_wins = rng.random() < 0.5 + edge / 2
            games.append(Played(deal, {0: 1 if a_wins else 2, 1: 2 if a_wins else 1},
                                f"{deal}-{rotation}"))
    cell = pair(games, 0, 1, rotations=2)
    paired, unpaired = cell["paired_difference"], cell["difference"]
    assert paired["high"] - paired["low"] < unpaired["high"] - unpaired["low"]
    assert cell["variance_ratio"] > 2
    assert cell["deals_for_5_percent"]["paired"] < cell["deals_for_5_percent"]["unpaired"]


def test_a_deal_missing_a_rotation_is_left_out_of_the_paired_estimate():
    games = [Played(0, {0: 1, 1: 2}, "a"), Played(0, {0: 2, 1: 1}, "b"),
             Played(1, {0: 1, 1: 2}, "c")]
    cell = pair(games, 0, 1, rotations=2)
    assert cell["games"] == 3 and cell["deals"] == 1
    assert cell["paired_difference"]["samples"] == 1


def test_every_pair_of_a_table_of_three_has_a_cell():
    games = [Played(0, {0: 1, 1: 2, 2: 3}, "a")]
    assert [(cell["a"], cell["b"]) for cell in crosstable(games, 3, 3)] == [(0, 1), (0, 2), (1, 2)]


def test_deals_needed_grow_with_the_square_of_the_precision_asked():
    assert deals_for(1.0, 0.1) == math.ceil(1.96 ** 2 / 0.01)
    assert deals_for(1.0, 0.05) == math.ceil(1.96 ** 2 / 0.0025)
    assert deals_for(1.0, 0.1, per_deal=2) == math.ceil(1.96 ** 2 / 0.01 / 2)
    assert deals_for(None, 0.1) is None


def test_points_are_compared_like_ranks_where_every_game_scores_them():
    games = [Played(0, {0: 1, 1: 2}, "a", {0: 60, 1: 40}), Played(0, {0: 2, 1: 1}, "b", {0: 45, 1: 50}),
             Played(1, {0: 1, 1: 2}, "c", {0: 55, 1: 35}), Played(1, {0: 1, 1: 2}, "d", {0: 52, 1: 51})]
    cell = pair(games, 0, 1, rotations=2)
    assert cell["points_difference"]["mean"] == (20 - 5 + 20 + 1) / 4
    assert cell["paired_points_difference"]["samples"] == 2
    without = pair([Played(g.deal, g.ranks, g.game_id) for g in games], 0, 1, rotations=2)
    assert without["points_difference"] is None and without["points_variance_ratio"] is None


def judged_games(deals: int, sight: float, seed: int) -> list[Played]:
    """Games of a a little better than b, whose result follows a luck of expectation
    zero; the judge found that luck where sight is 1, noise of its own where it is 0."""
    rng, games = random.Random(seed), []
    for deal in range(deals):
        for rotation in range(2):
            luck = rng.gauss(0, 1)
            a_wins = luck + 0.2 > 0
            found = sight * luck + (1 - sight) * rng.gauss(0, 0.5)
            games.append(Played(deal, {0: 1 if a_wins else 2, 1: 2 if a_wins else 1},
                                f"{deal}-{rotation}", luck={0: {1: found}, 1: {0: -found}}))
    return games


def test_the_fitted_estimate_weighs_the_luck_the_judge_sees_and_needs_fewer_deals():
    cell = pair(judged_games(300, sight=1.0, seed=8), 0, 1, rotations=2)
    assert cell["fitted_variance_ratio"] > 2
    assert cell["fitted_difference"]["samples"] == 300
    assert cell["deals_for_5_percent"]["fitted"] < cell["deals_for_5_percent"]["paired"] / 2


def test_a_judge_that_sees_nothing_costs_the_fitted_estimate_almost_nothing():
    # Subtracting the judge's noise whole (corrected) widens the interval; weighed by
    # its fitted coefficient, near zero, it leaves the paired estimate as it was.
    cell = pair(judged_games(300, sight=0.0, seed=9), 0, 1, rotations=2)
    assert cell["corrected_variance_ratio"] < 0.9
    assert 0.95 < cell["fitted_variance_ratio"] <= 1.0


def test_the_fitted_estimate_counts_only_complete_deals_every_game_of_which_was_judged():
    games = judged_games(6, sight=1.0, seed=10)
    games[0] = Played(0, games[0].ranks, games[0].game_id)   # deal 0: a game not judged
    cell = pair(games[:-1], 0, 1, rotations=2)                # deal 5: a rotation missing
    assert cell["fitted_difference"]["samples"] == 4
    whole = pair(judged_games(6, sight=1.0, seed=10), 0, 1, rotations=2)
    assert whole["fitted_difference"] == whole["paired_difference"]   # too few to weigh
    assert pair(games[:2], 0, 1, rotations=2)["fitted_difference"] is None
