"""state.observation / state.action_mask: named layouts, bounded values, and a memory that
agrees with what core.ai reads from the move log."""

import random
from collections import Counter

import numpy as np
import pytest

import core
import core.rl
from core.games.cupcrab import search as cupcrab_search
from core.games.cvp import search as cvp_search

SHAPES = [("cup-the-crab", p, None) for p in (2, 3, 4, 5)] + [
    ("crabe-vs-poulpe", 2, {"mode": m}) for m in ("symmetrical", "asymmetrical")]


def random_game(game, players, options, seed):
    """Yields (state, memory, log) before every move of a random game, then at its end."""
    rng = random.Random(seed)
    state = core.new_game(game, players, seed=seed, options=options)
    memory, log = core.rl.memory(state), []
    while not state.is_over:
        yield state, memory, log
        seat = min(state.to_move)
        action = rng.choice(state.legal_actions(seat))
        log.append((seat, state.move_of(action), state.observed_by(seat)))
        memory.record(state, seat, action)
        state.apply_action(seat, action)
    yield state, memory, log


def history(state, log, seat):
    """The log as seat saw it, with what it was shown (as the service keeps it)."""
    out = []
    for actor, move, observed in log:
        entry = {"seat": actor, "move": state.visible_move(actor, move, seat)}
        if actor == seat and observed:
            entry.update(observed)
        out.append(entry)
    return out


@pytest.mark.parametrize("game, players, options", SHAPES)
def test_every_index_of_the_observation_belongs_to_exactly_one_named_slice(game, players, options):
    layout = core.rl.observation_layout(game, players)
    covered = [i for _, start, stop in layout for i in range(start, stop)]
    assert covered == list(range(core.rl.observation_shape(game, players)[0]))
    assert len({name for name, _, _ in layout}) == len(layout)


@pytest.mark.parametrize("game, players, options", SHAPES)
def test_observations_are_float32_in_0_1_and_masks_are_the_legal_actions(game, players, options):
    for seed in range(4):
        for state, memory, _ in random_game(game, players, options, seed):
            for seat in range(players):
                obs = memory.observation(state, seat)
                assert obs.dtype == np.float32
                assert obs.shape == core.rl.observation_shape(game, players)
                assert 0.0 <= obs.min() and obs.max() <= 1.0
                mask = state.action_mask(seat)
                assert mask.shape == (core.rl.n_actions(game),)
                assert list(np.flatnonzero(mask)) == state.legal_actions(seat)


@pytest.mark.parametrize("game, players, options", SHAPES)
def test_the_memory_kept_move_by_move_is_what_the_log_teaches_the_seat(game, players, options):
    for seed in range(6):
        for step, (state, memory, log) in enumerate(random_game(game, players, options, seed)):
            if step % 3:
                continue
            for seat in range(players):
                seen = history(state, log, seat)
                from_log = state.observation(seat, seen)
                assert from_log.tobytes() == memory.observation(state, seat).tobytes()
                if game == "cup-the-crab":
                    assert memory.hand_allow(state) == cupcrab_search.hand_allow_from_history(state, seen)
                else:
                    know = cvp_search.knowledge(state, seat, seen)
                    kept = memory.knowledge(state, seat)
                    maybe = Counter(kind for kind, _ in know["maybe"])
                    assert kept["known_x"] == [know["known_x"][k] for k in range(36)]
                    assert kept["pinned"] == [know["pinned"][k] for k in range(36)]
                    assert kept["maybe"] == [maybe[k] for k in range(36)]
                    assert kept["hidden"] == know["hidden"]


def _slice(game, players, name, obs):
    start, stop = next((a, b) for n, a, b in core.rl.observation_layout(game, players) if n == name)
    return obs[start:stop]


CUP_THE_CRAB_CARDS = ["cup-1", "cup-2", "cup-3", "cup-4", "cup-5", "cup-6", "cup-8", "cup-10",
                      "crab", "octopus", "bottle"]


def test_a_cup_the_crab_seat_sees_its_own_hand_and_only_that_others_selected():
    state = core.new_game("cup-the-crab", 3, seed=4)
    state.apply(0, state.legal_moves(0)[5])
    seat1 = state.observation(1)
    assert _slice("cup-the-crab", 3, "own_hand", seat1).sum() == 0      # seat 1 has not selected
    assert _slice("cup-the-crab", 3, "seat+2.selected", seat1)[0] == 1.0  # seat 0, two seats on
    assert _slice("cup-the-crab", 3, "seat+0.selected", seat1)[0] == 0.0
    hand = (_slice("cup-the-crab", 3, "own_hand", state.observation(0)) * 3).round()
    assert Counter({CUP_THE_CRAB_CARDS[k]: int(n) for k, n in enumerate(hand) if n}) == Counter(
        state.view(0)["hand"])


def test_a_crabe_vs_poulpe_hand_is_shown_only_to_the_seat_choosing_a_pincer():
    for seed in range(400):
        for state, memory, _ in random_game("crabe-vs-poulpe", 2, {"mode": "asymmetrical"}, seed):
            if state.view()["phase"] == "pincer":
                chooser = state.to_move[0]
                shown = _slice("crabe-vs-poulpe", 2, "revealed_hand",
                               memory.observation(state, chooser))
                hidden = _slice("crabe-vs-poulpe", 2, "revealed_hand",
                                memory.observation(state, chooser ^ 1))
                assert shown.sum() > 0 and hidden.sum() == 0
                return
    pytest.fail("no pincer in 400 random games")


@pytest.mark.parametrize("bad", [-1, 3, "0", None, 1.0])
def test_a_seat_that_is_not_one_is_refused(bad):
    state = core.new_game("cup-the-crab", 3, seed=1)
    with pytest.raises(ValueError, match="seat"):
        state.observation(bad)
    with pytest.raises(ValueError, match="seat"):
        state.action_mask(bad)


def test_an_unknown_game_is_refused_with_the_games_named():
    with pytest.raises(ValueError, match="cup-the-crab"):
        core.rl.observation_shape("chess", 2)
    with pytest.raises(ValueError, match="2 to 5"):
        core.rl.observation_shape("cup-the-crab", 6)
