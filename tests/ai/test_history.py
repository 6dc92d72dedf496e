"""What a seat learns beyond its view in Cup the Crab: a discard proves what a hand lacks."""

import random

import pytest

import core
import core.ai
from core.games.cupcrab import search as cupcrab_search
from tests.ai.positions import GAME, hidden_twin

KINDS = ("cup-1", "cup-2", "cup-3", "cup-4", "cup-5", "cup-6", "cup-8", "cup-10",
         "crab", "octopus", "bottle")


def _kinds(cards):
    mask = 0
    for card in cards:
        mask |= 1 << KINDS.index(card)
    return mask


def random_game(seed, players):
    """Every (state, history) of a random game, selections logged as the service hides them."""
    rng = random.Random(seed)
    state = core.new_game(GAME, players, seed=seed)
    history, out = [], []
    while not state.is_over:
        seat = rng.choice(state.to_move)
        move = rng.choice(state.legal_moves(seat))
        state.apply(seat, move)
        history.append({"seat": seat, "move": state.visible_move(seat, move, None)})
        out.append((state.clone(), list(history)))
    return out


def _respects(hand_allow, snapshot):
    return all(_kinds(seat["hand"]) & ~hand_allow[i] == 0
               for i, seat in enumerate(snapshot["seats"]))


def test_what_a_discard_proves_always_holds_and_sometimes_limits_a_hand():
    limited = 0
    for seed in range(30):
        for state, history in random_game(seed, 2 + seed % 4):
            allow = cupcrab_search.hand_allow_from_history(state, history)
            assert _respects(allow, state.snapshot())
            limited += any(mask != cupcrab_search.ALL_KINDS and len(state.view(i)["hand"])
                           for i, mask in enumerate(allow))
    assert limited > 20


def test_determinizations_with_history_keep_to_what_discards_proved():
    checked = 0
    for seed in range(30):
        for state, history in random_game(seed, 4):
            allow = cupcrab_search.hand_allow_from_history(state, history)
            if all(m == cupcrab_search.ALL_KINDS for m in allow) or state.is_over:
                continue
            for seat in state.to_move:
                for s in range(5):
                    det = state.determinize(seat, seed=s, hand_allow=allow)
                    assert det.view(seat) == state.view(seat)
                    assert _respects(allow, det.snapshot())
                    checked += 1
    assert checked > 50


def test_with_history_the_ai_is_still_honest_and_legal():
    done = 0
    for seed in range(40):
        for state, history in random_game(seed, 3):
            allow = cupcrab_search.hand_allow_from_history(state, history)
            if state.is_over or all(m == cupcrab_search.ALL_KINDS for m in allow):
                continue
            seat = state.to_move[0]
            twins = (hidden_twin(state, seat, k) for k in range(200))
            twin = next((t for t in twins if t.snapshot() != state.snapshot()
                         and _respects(allow, t.snapshot())), None)
            if twin is None:
                continue
            a = core.ai.suggest(state, seat, iterations=200, seed=1, history=history)
            b = core.ai.suggest(twin, seat, iterations=200, seed=1, history=history)
            assert a["move"] in state.legal_moves(seat)
            assert (a["move"], a["stats"]) == (b["move"], b["stats"])
            done += 1
            break
    assert done >= 5


def test_a_history_that_does_not_lead_to_the_position_is_refused():
    (state, history), = random_game(1, 2)[20:21]
    with pytest.raises(ValueError, match="history does not lead to this position"):
        core.ai.suggest(state, state.to_move[0], iterations=10, history=history[:-1])
    with pytest.raises(ValueError, match="not a logged cup-the-crab move"):
        core.ai.suggest(state, state.to_move[0], iterations=10, history=[{"seat": 0}])
    with pytest.raises(ValueError, match="history is a list"):
        core.ai.suggest(state, state.to_move[0], iterations=10, history="moves")
