"""Observations and masks hold nothing a seat may not know (rulings C8 and P8).

Thousands of random games of both games and every player count: at every step, for the
seat deciding and one other seat, a twin that differs only in what that seat cannot see
(every hidden card dealt again) must give that seat the same observation and mask.  The
memory is checked the same way: a second memory, recording each move on the twin and
with every move the seat cannot see replaced by another of its kind, must give the seat
the same observation as the real one.
"""

import random

import pytest

import core
import core.rl
from core.games.cvp import search as cvp_search
from tests.ai.cvp_twins import view_twin
from tests.ai.positions import hidden_twin

GAMES = [("cup-the-crab", players, None, 250) for players in (2, 3, 4, 5)] + [
    ("crabe-vs-poulpe", 2, {"mode": mode}, 500) for mode in ("symmetrical", "asymmetrical")]
# Action ids another seat cannot see: Cup the Crab's selections; Crabe vs Poulpe's
# face-down discards and Search picks.
HIDDEN_IDS = {"cup-the-crab": [(66, 352)], "crabe-vs-poulpe": [(75, 111), (111, 147)]}
INDEPENDENT_EVERY = 20      # steps between twins built by the tests' own builders


def twin_of(state, seat, rng, step):
    """A twin by the game's determinizer, or, every INDEPENDENT_EVERY steps where it
    applies, by the tests' own builder (independent of the determinizer)."""
    independent = step % INDEPENDENT_EVERY == 0
    if state.game == "cup-the-crab":
        if independent:
            return hidden_twin(state, seat, rng.getrandbits(32))
        return state.determinize(seat, rng.getrandbits(64))
    if independent:
        view = state.view(seat)
        if view["revealed"] is None and view["draw_pile"] is None:
            return view_twin(state, seat, rng.getrandbits(32))
    return cvp_search.determinize(state, seat, None, rng.getrandbits(64))


def as_seen_by(state, actor, action, seat, rng):
    """The action as `seat` can tell it: a move it cannot see becomes another of its kind."""
    if actor == seat:
        return action
    for low, high in HIDDEN_IDS[state.game]:
        if low <= action < high:
            return rng.randrange(low, high)
    return action


def play_and_compare(game, players, options, games, seed):
    rng = random.Random(seed)
    checks = 0
    for g in range(games):
        state = core.new_game(game, players, seed=seed * 100_000 + g, options=options)
        memory = core.rl.memory(state)
        shadows = [core.rl.memory(state) for _ in range(players)]   # one per observer
        step = 0
        while not state.is_over:
            actor = min(state.to_move)
            watched = {actor, rng.randrange(players)}
            twins = {}
            for seat in watched:
                twin = twins[seat] = twin_of(state, seat, rng, step)
                real = memory.observation(state, seat)
                seen = shadows[seat].observation(twin, seat)
                assert real.tobytes() == seen.tobytes(), (g, step, seat)
                assert (state.action_mask(seat).tobytes()
                        == twin.action_mask(seat).tobytes()), (g, step, seat)
                checks += 1
            action = rng.choice(state.legal_actions(actor))
            for seat in range(players):
                twin = twins.get(seat) or twin_of(state, seat, rng, step=1)
                shadows[seat].record(twin, actor, as_seen_by(state, actor, action, seat, rng))
            memory.record(state, actor, action)
            state.apply_action(actor, action)
            step += 1
    return checks


@pytest.mark.parametrize("game, players, options, games", GAMES)
def test_twins_a_seat_cannot_tell_apart_give_it_the_same_observation_and_mask(
        game, players, options, games):
    assert play_and_compare(game, players, options, games, seed=players) > games * 20
