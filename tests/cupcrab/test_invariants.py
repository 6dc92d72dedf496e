"""Invariants over thousands of seeded random games, checked after every move."""

import random
from collections import Counter

import pytest

import core

DECK = Counter({"cup-1": 10, "cup-2": 10, "cup-3": 10, "cup-4": 10, "cup-5": 10, "cup-6": 10,
                "cup-8": 5, "cup-10": 5})
VALUE = {f"cup-{v}": v for v in (1, 2, 3, 4, 5, 6, 8, 10)}
GAMES_PER_COUNT = 600  # 2,400 games in all


def every_card(snapshot):
    places = [snapshot["box"], snapshot["discards"]]
    places += [s["cards"] for s in snapshot["stacks"] if s]
    for seat in snapshot["seats"]:
        places += [seat["reserve"], seat["hand"], seat["score_pile"]]
    return Counter(card for place in places for card in place)


def play_random_game(players, seed):
    """Plays one game on the integer path; checks each step; returns turns and claims."""
    state = core.new_game("cup-the-crab", players, seed=seed)
    rng = random.Random(seed)
    expected = DECK + Counter({"crab": 3 * players, "octopus": 2 * players,
                               "bottle": 2 * players})
    turns, claimed = 0, [0] * players
    while not state.is_over:
        seat = rng.choice(state.to_move)
        move = state.move_of(rng.choice(state.legal_actions(seat)))
        if move["type"] != "select":
            turns += 1
        if move["type"] == "play" and move["card"] in ("crab", "octopus"):
            claimed[seat] += state.view(None)["stacks"][move["stack"]]["value"]
        state.apply(seat, move)
        assert every_card(state.snapshot()) == expected
    return state, turns, claimed


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_card_in_one_place_and_end_as_the_rules_say(players):
    for seed in range(GAMES_PER_COUNT):
        state, turns, claimed = play_random_game(players, seed)
        assert turns == 21 * players
        snapshot = state.snapshot()
        assert all(not s["reserve"] and not s["hand"] for s in snapshot["seats"])
        result = state.result()
        assert result["scores"] == claimed
        assert result["scores"] == [sum(VALUE.get(c, 0) for c in s["score_pile"])
                                    for s in snapshot["seats"]]
        assert result["winners"] == [r["seat"] for r in result["ranking"] if r["rank"] == 1]


def test_c_playouts_obey_the_same_invariants():
    for seed in range(2000):
        players = 2 + seed % 4
        state = core.new_game("cup-the-crab", players, seed=seed)
        assert state.playout(seed=seed) == 21 * players + 6 * players
        snapshot = state.snapshot()
        assert all(not s["reserve"] and not s["hand"] for s in snapshot["seats"])
        assert sum(every_card(snapshot).values()) == 70 + 7 * players
