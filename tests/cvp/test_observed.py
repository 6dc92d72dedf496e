"""P8: a revealed hand is shown only to the seat that looks, at that moment; observed_by
hands it over so that the mover's log entry (and its AI) can keep it."""

import random

import core


def test_observed_by_is_the_revealed_hand_for_the_chooser_only_and_only_then():
    seen = 0
    for seed in range(60):
        state = core.new_game("crabe-vs-poulpe", 2, seed=seed, options={"mode": "asymmetrical"})
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_move[0]
            revealed = state.view(seat)["revealed"]
            assert state.observed_by(seat) == (None if revealed is None else
                                               {"revealed": revealed})
            assert state.observed_by(1 - seat) is None
            seen += revealed is not None
            state.apply(seat, rng.choice(state.legal_moves(seat)))
        assert state.observed_by(0) is None and state.observed_by(1) is None
    assert seen > 10


def test_cup_the_crab_shows_nothing_beyond_the_views():
    state = core.new_game("cup-the-crab", 3, seed=1)
    assert [state.observed_by(seat) for seat in range(3)] == [None, None, None]
