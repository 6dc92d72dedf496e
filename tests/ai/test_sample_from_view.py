"""core.sample_from_view: a full position drawn from a seat's view alone, for programs
that see only the API (the example bot searches from it with core.ai)."""

import random

import pytest

import core
import core.ai

TABLES = [("cup-the-crab", 2), ("cup-the-crab", 3), ("cup-the-crab", 5), ("crabe-vs-poulpe", 2)]


def positions(game: str, players: int, games: int):
    """(state, seat to move) along random games."""
    for number in range(games):
        rng = random.Random(number)
        state = core.new_game(game, players, seed=number)
        while not state.is_over:
            for seat in state.to_move:
                yield state, seat
            seat = state.to_move[0]
            state.apply(seat, rng.choice(state.legal_moves(seat)))


@pytest.mark.parametrize("game,players", TABLES)
def test_a_position_drawn_from_a_view_shows_the_seat_that_very_view_and_moves(game, players):
    checked = 0
    for state, seat in positions(game, players, 15):
        view = state.view(seat)
        drawn = core.sample_from_view(view, seed=checked)
        assert drawn.view(seat) == view
        assert drawn.legal_moves(seat) == state.legal_moves(seat)
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("game,players", TABLES)
def test_what_the_view_hides_is_dealt_again_by_each_seed(game, players):
    state, seat = next(p for i, p in enumerate(positions(game, players, 1)) if i == 6)
    drawn = {str(core.sample_from_view(state.view(seat), seed=seed).snapshot())
             for seed in range(8)}
    assert len(drawn) > 1
    again = core.sample_from_view(state.view(seat), seed=3).snapshot()
    assert again == core.sample_from_view(state.view(seat), seed=3).snapshot()


def test_the_ai_searches_from_a_drawn_position_and_suggests_a_legal_move():
    for state, seat in positions("crabe-vs-poulpe", 2, 2):
        drawn = core.sample_from_view(state.view(seat), seed=1)
        move = core.ai.suggest(drawn, seat, level=2, seed=1)["move"]
        assert move in state.legal_moves(seat)


def test_a_spectators_view_or_no_view_is_refused():
    state = core.new_game("cup-the-crab", 2, seed=1)
    for view in (state.view(None), {"game": "chess", "seat": 0}, None):
        with pytest.raises(core.InvalidState):
            core.sample_from_view(view)
