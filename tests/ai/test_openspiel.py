"""Our games as OpenSpiel games (core/tools/openspiel_game.py): OpenSpiel's own checks
pass, its IS-MCTS plays whole legal games against our AI, and its resampling shows a seat
nothing it could not know."""

import random

import pytest

pytest.importorskip("pyspiel", reason="open_spiel is not installed: pip install -e .[openspiel]")

import pyspiel  # noqa: E402

import core.ai  # noqa: E402
from core.tools import openspiel_game, openspiel_match  # noqa: E402

TABLES = [("cup-the-crab", {}), ("crabe-vs-poulpe", {"mode": "symmetrical"}),
          ("crabe-vs-poulpe", {"mode": "asymmetrical"})]


def random_position(spiel, seed):
    """An OpenSpiel state after a random number of random moves (never over)."""
    rng = random.Random(seed)
    state = spiel.new_initial_state()
    for _ in range(rng.randrange(0, 60)):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state if not state.is_terminal() else random_position(spiel, seed + 10_000)


@pytest.mark.parametrize("game, params", TABLES)
def test_openspiel_s_random_simulation_test_accepts_the_game(game, params):
    spiel = openspiel_game.load(game, seed=3, **params)
    pyspiel.random_sim_test(spiel, num_sims=5, serialize=False, verbose=False)


@pytest.mark.parametrize("game, params", TABLES)
def test_openspiel_s_ismcts_and_our_ai_play_whole_games_with_legal_moves(game, params):
    spiel = openspiel_game.load(game, seed=5, **params)
    for mine in (0, 1):
        bot = openspiel_game.ismcts_bot(spiel, 20, seed=mine, uct_c=1.4)
        state = spiel.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            if seat == mine:
                action = core.ai.suggest(state.core, seat, iterations=50,
                                         history=state.history_of(seat))["action"]
            else:
                action = int(bot.step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
        assert state.core.result()["winners"]
        assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_cup_the_crab_s_secret_selection_is_hidden_from_the_seat_that_selects_after():
    spiel = openspiel_game.load("cup-the-crab", seed=1)
    first, other = spiel.new_initial_state(), spiel.new_initial_state()
    other.core = first.core.clone()
    assert first.current_player() == 0
    one, two = first.legal_actions()[:2]
    first.apply_action(one)
    other.apply_action(two)
    assert first.current_player() == other.current_player() == 1
    assert first.information_state_string(1) == other.information_state_string(1)
    assert first.information_state_string(0) != other.information_state_string(0)


@pytest.mark.parametrize("game, params", TABLES)
@pytest.mark.parametrize("seed", range(6))
def test_a_resampled_state_is_one_the_seat_cannot_tell_from_the_real_one(game, params, seed):
    spiel = openspiel_game.load(game, seed=seed, **params)
    state = random_position(spiel, seed)
    seat = state.current_player()
    sample = state.resample_from_infostate(seat, random.Random(seed).random)
    assert sample.core.view(seat) == state.core.view(seat)
    assert sample.information_state_string(seat) == state.information_state_string(seat)
    assert sample.legal_actions() == state.legal_actions()
    # The sample's log holds the other seat's moves only as this seat saw them.
    for actor, move, observed in sample.log:
        if actor != seat:
            assert move == state.core.visible_move(actor, move, seat) and observed is None


@pytest.mark.parametrize("game, params", TABLES)
@pytest.mark.parametrize("seed", range(6))
def test_positions_the_seat_cannot_tell_apart_resample_alike(game, params, seed):
    # The twin: the real position with every card the seat cannot see dealt again and the
    # other seat's hidden moves forgotten, what a determinization of it is.
    spiel = openspiel_game.load(game, seed=seed, **params)
    state = random_position(spiel, seed)
    seat = state.current_player()
    twin = state.resample_from_infostate(seat, lambda: 0.5)
    draws = [random.Random(seed + k).random() for k in range(4)]
    for draw in draws:
        a = state.resample_from_infostate(seat, lambda: draw)
        b = twin.resample_from_infostate(seat, lambda: draw)
        assert a.core.snapshot() == b.core.snapshot()
        assert a.log == b.log and a.recall == b.recall


def test_the_resamples_differ_from_one_another_where_the_seat_cannot_see():
    spiel = openspiel_game.load("crabe-vs-poulpe", seed=2)
    state = random_position(spiel, 2)
    seat = state.current_player()
    samples = {repr(state.resample_from_infostate(seat, random.Random(k).random).core
                    .snapshot()) for k in range(5)}
    assert len(samples) == 5


def test_the_match_counts_both_sides_decisions_and_alternates_seats():
    first = openspiel_match._one_game(("cup-the-crab", {"iterations": 30}, 5, 1.4, "core",
                                       0, 11))
    second = openspiel_match._one_game(("cup-the-crab", {"iterations": 30}, 5, 1.4, "core",
                                        1, 12))
    for share, tally in (first, second):
        assert share in (0.0, 0.5, 1.0)
        assert tally[1] > 0 and tally[3] > 0 and tally[4] == 5 * tally[3]


def test_our_reference_level_is_named_by_its_budget():
    assert openspiel_match.parse_ours("reference=5") == core.ai.REFERENCE_LEVELS[5]
    assert openspiel_match.parse_ours("level=5") == {"level": 5}
