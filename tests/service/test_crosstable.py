"""The crosstable's statistics: scores, differences, and what pairing by deal buys."""

import math
import random

from service.arena.crosstable import Played, crosstable, deals_for, estimate, pair


def test_a_score_counts_a_win_one_a_draw_half_and_the_difference_is_twice_less_one():
    games = [Played(0, {0: 1, 1: 2}, "a"), Played(0, {0: 2, 1: 1}, "b"),
             Played(1, {0: 1, 1: 1}, "c"), Played(1, {0: 1, 1: 2}, "d")]
    cell = pair(games, 0, 1, rotations=2)
    assert (cell["a_wins"], cell["draws"], cell["b_wins"]) == (2, 1, 1)
    assert cell["score"] == 0.625 and cell["difference"]["mean"] == 0.25
    assert cell["games"] == 4 and cell["deals"] == 2


def test_the_interval_is_the_mean_plus_or_minus_1_96_standard_errors():
    found = estimate([1.0, -1.0, 1.0, 1.0])
    standard_error = math.sqrt(1.0 / 4)  # sample variance 1, four samples
    assert math.isclose(found.half_width, 1.96 * standard_error)
    assert estimate([1.0]).half_width is None


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
