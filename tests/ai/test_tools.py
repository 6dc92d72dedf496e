"""The AI's measuring tools (core/tools): fair seating, and the judge's fitted shrink."""

import argparse

import pytest

from core.tools import calibrate, versus


@pytest.mark.parametrize("players, hero_seats", [(2, 1), (3, 1), (4, 1), (4, 2), (5, 1), (5, 2)])
def test_the_hero_holds_its_seats_and_every_seat_equally_often(players, hero_seats):
    tables = [versus.seating(players, hero_seats, index) for index in range(players)]
    assert all(sum(table) == hero_seats for table in tables)
    assert [sum(table[seat] for table in tables) for seat in range(players)] == \
        [hero_seats] * players


def test_with_half_the_table_the_hero_holds_alternate_seats_swapped_every_game():
    assert versus.seating(4, 2, 0) == [True, False, True, False]
    assert versus.seating(4, 2, 1) == [False, True, False, True]


def test_a_player_is_a_level_or_suggest_s_keywords():
    assert versus.parse_player("level=5") == 5
    assert versus.parse_player("iterations=2000,playout=policy,exploration=0.5") == {
        "iterations": 2000, "playout": "policy", "exploration": 0.5}


def test_a_player_that_is_not_keywords_is_refused():
    with pytest.raises(argparse.ArgumentTypeError, match="expected key=value"):
        versus.parse_player("iterations")


def test_the_fitted_shrink_is_the_one_that_made_the_outcomes():
    # Outcomes equal to chances moved a known share towards 1/4: the fit finds that share.
    chances = [0.02, 0.1, 0.25, 0.4, 0.7, 0.95]
    pairs = [(p, 0.8 * p + 0.2 / 4) for p in chances]
    assert calibrate.fit_shrink(pairs, 4) == pytest.approx(0.2)
    assert calibrate.fit_shrink([(p, p) for p in chances], 4) == pytest.approx(0.0)


def test_the_place_share_counts_the_hero_s_seats_above_the_field_s_ties_as_half():
    # Ranks by seat 0..3 (1 is first); the hero holds seats 0 and 2.
    mine = [True, False, True, False]
    assert versus.place_share({0: 1, 1: 2, 2: 3, 3: 4}, mine) == pytest.approx(3 / 4)
    assert versus.place_share({0: 1, 1: 1, 2: 1, 3: 1}, mine) == pytest.approx(1 / 2)
    assert versus.place_share({0: 4, 1: 1, 2: 3, 3: 2}, mine) == 0


def test_a_small_match_counts_every_game_and_both_sides_cpu():
    out = versus.run("cup-the-crab", 3, 1, {"iterations": 30, "playout": "policy"},
                     {"iterations": 30}, games=3, seed=5, jobs=1)
    assert out["games"] == 3 and 0 <= out["wins"] <= 3
    assert out["fair"] == pytest.approx(1 / 3)
    assert out["place_ci95"][0] <= out["place"] <= out["place_ci95"][1]
    assert 0 <= out["place"] <= 1
    assert out["hero_ms"] > 0 and out["field_ms"] > 0


def test_a_calibration_game_pairs_every_seat_s_chance_with_its_outcome():
    pairs = calibrate._one_game(("cup-the-crab", 3, 1, 10, 100, False, 7))
    assert pairs and len(pairs) % 3 == 0
    for i in range(0, len(pairs), 3):
        assert sum(p for p, _ in pairs[i:i + 3]) == pytest.approx(1)
    assert sum(o for _, o in pairs[:3]) == pytest.approx(1)
