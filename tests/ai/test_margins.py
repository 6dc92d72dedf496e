"""core.ai.margins and core.redraw: the value function of the arena's corrected estimate
judges complete positions without knowing what chance has still to draw."""

import random

import pytest

import core
import core.ai


def played_to(game: str, steps: int, seed: int = 1) -> core.GameState:
    rng = random.Random(seed)
    state = core.new_game(game, 2, seed=seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    return state


@pytest.mark.parametrize("game", core.GAMES)
def test_margins_are_antisymmetric_and_exact_once_the_game_is_over(game):
    middle = played_to(game, 10)
    margins = core.ai.margins(middle, iterations=200, seed=3)
    assert all(margins[a][b] == -margins[b][a] for a in range(2) for b in range(2))
    assert all(-1 <= margins[a][b] <= 1 for a in range(2) for b in range(2))
    over = played_to(game, 10_000)
    ranks = {place["seat"]: place["rank"] for place in over.result()["ranking"]}
    expected = (ranks[0] < ranks[1]) - (ranks[0] > ranks[1])
    assert core.ai.margins(over)[0][1] == expected


def test_redraw_changes_only_the_order_of_crabe_vs_poulpes_draw_piles():
    state = played_to("crabe-vs-poulpe", 6)
    before = state.snapshot()
    after = core.redraw(state, 11).snapshot()
    assert after["seats"][0]["draw_pile"] != before["seats"][0]["draw_pile"]
    for seat in (0, 1):
        assert sorted(after["seats"][seat]["draw_pile"]) == sorted(before["seats"][seat]["draw_pile"])
        assert after["seats"][seat]["hand"] == before["seats"][seat]["hand"]
    assert {k: v for k, v in after.items() if k != "seats"} == \
        {k: v for k, v in before.items() if k != "seats"}
    # what is still to be drawn does not matter: a redrawn state redraws the same
    assert core.redraw(core.redraw(state, 5), 11).snapshot() == after


def test_redraw_in_cup_the_crab_keeps_the_position_whole():
    state = played_to("cup-the-crab", 6)
    assert core.redraw(state, 11).snapshot() == state.snapshot()


def test_margins_refuse_a_bad_playout():
    with pytest.raises(ValueError, match="playout"):
        core.ai.margins(core.new_game("cup-the-crab", 2, seed=1), playout="smart")
