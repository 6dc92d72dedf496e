"""core.ai.determinize: one entry for every game, consistent with what the seat observed."""

import random

import pytest

import core
import core.ai

GAMES = [("cup-the-crab", 3, None), ("crabe-vs-poulpe", 2, {"mode": "asymmetrical"})]


@pytest.mark.parametrize("game, players, options", GAMES)
def test_every_game_determinizes_through_one_call_keeping_the_seats_view(game, players, options):
    for seed in range(15):
        state = core.new_game(game, players, seed=seed, options=options)
        rng, history = random.Random(seed), []
        for _ in range(rng.randrange(5, 60)):
            if state.is_over:
                break
            seat = rng.choice(state.to_move)
            observed = state.observed_by(seat)
            move = rng.choice(state.legal_moves(seat))
            history.append((seat, move, observed))
            state.apply(seat, move)
        for seat in range(players):
            log = [{"seat": s, "move": state.visible_move(s, m, seat)} for s, m, _ in history]
            for entry, (s, _, observed) in zip(log, history):
                if s == seat and observed:
                    entry.update(observed)  # what the seat was shown, as the service logs it
            for kwargs in ({}, {"history": log}):
                sample = core.ai.determinize(state, seat, seed=seed, **kwargs)
                assert sample.view(seat) == state.view(seat)
                assert sample.legal_moves(seat) == state.legal_moves(seat)
                # in the same order: the search lists the root's moves once on this promise
                assert sample.legal_actions(seat) == state.legal_actions(seat)
                core.from_snapshot(sample.snapshot())  # every card accounted for
                again = core.ai.determinize(state, seat, seed=seed, **kwargs)
                assert again.snapshot() == sample.snapshot()
