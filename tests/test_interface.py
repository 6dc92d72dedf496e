"""The shared game interface: arguments, errors, the integer path and its translations."""

import random

import pytest

import core

GAME = "cup-the-crab"


def test_unknown_game_names_are_refused_with_the_list_of_games():
    with pytest.raises(ValueError, match="unknown game 'chess'; games are: cup-the-crab"):
        core.new_game("chess", 2)


@pytest.mark.parametrize("players", ["2", 2.0, None, True])
def test_player_counts_must_be_integers(players):
    with pytest.raises(ValueError, match="players must be an integer"):
        core.new_game(GAME, players)


@pytest.mark.parametrize("seed", [-1, 2 ** 64, "7", 1.5])
def test_seeds_must_be_unsigned_64_bit_integers(seed):
    with pytest.raises(ValueError, match="seed must be an integer"):
        core.new_game(GAME, 2, seed=seed)


def test_options_must_be_a_dict_of_known_keys():
    with pytest.raises(ValueError, match="options are a dict"):
        core.new_game(GAME, 2, options=[("first_player", 0)])


def test_the_same_seed_gives_the_same_deal_and_first_player():
    a, b = core.new_game(GAME, 4, seed=99), core.new_game(GAME, 4, seed=99)
    assert a.snapshot() == b.snapshot() and a.to_bytes() == b.to_bytes()
    assert core.new_game(GAME, 4, seed=100).snapshot() != a.snapshot()


def test_the_deal_of_a_seed_is_pinned_so_every_machine_gets_the_same_game():
    # SplitMix64 + Lemire + partial Fisher-Yates: any change here breaks stored seeds.
    state = core.new_game(GAME, 2, seed=42)
    assert state.view(None)["first_player"] == 1
    assert state.view(0)["reserve"][:14] == [
        "cup-1", "cup-2", "cup-2", "cup-3", "cup-3", "cup-3", "cup-3", "cup-5", "cup-5",
        "cup-5", "cup-5", "cup-6", "cup-6", "cup-8"]


def test_unseeded_games_differ():
    assert len({core.new_game(GAME, 2).to_bytes() for _ in range(5)}) == 5


def test_legal_actions_are_legal_moves_in_the_same_order():
    state = core.new_game(GAME, 3, seed=4)
    rng = random.Random(4)
    while not state.is_over:
        for seat in range(3):
            actions = state.legal_actions(seat)
            assert [state.move_of(a) for a in actions] == state.legal_moves(seat)
            assert [state.action_of(m) for m in state.legal_moves(seat)] == actions
            assert actions == sorted(set(actions))
        seat = rng.choice(state.to_move)
        state.apply_action(seat, rng.choice(state.legal_actions(seat)))


def test_action_ids_and_moves_translate_both_ways_for_every_id():
    state = core.new_game(GAME, 5, seed=1)
    for action in range(352):
        assert state.action_of(state.move_of(action)) == action
    with pytest.raises(ValueError, match="action ids of cup-the-crab are 0 to 351"):
        state.move_of(352)


@pytest.mark.parametrize("move, message", [
    ("garbage", "a move is a JSON object"),
    ({}, "unknown move type None"),
    ({"type": "pass"}, "unknown move type 'pass'; cup-the-crab moves are: select, play"),
    ({"type": "play", "card": "crab"}, "exactly the fields type, card, stack"),
    ({"type": "play", "card": "crab", "stack": 0, "x": 1}, "exactly the fields"),
    ({"type": "play", "card": "lobster", "stack": 0}, "unknown card 'lobster'; cards are"),
    ({"type": "play", "card": "crab", "stack": 3}, "slot number from 0 to 2, got 3"),
    ({"type": "play", "card": "crab", "stack": True}, "slot number from 0 to 2, got True"),
    ({"type": "select", "cards": ["crab", "crab"]}, "list of exactly 3 card names"),
    ({"type": "select", "cards": "crab"}, "list of exactly 3 card names"),
])
def test_malformed_moves_are_refused_with_a_precise_message_and_change_nothing(move, message):
    state = core.new_game(GAME, 3, seed=2)
    before = state.to_bytes()
    with pytest.raises(core.IllegalMove, match=message):
        state.apply(0, move)
    assert state.to_bytes() == before
    assert not state.can_apply(0, move)


@pytest.mark.parametrize("seat", [-1, 3, "0", None, 1.0])
def test_bad_seats_are_refused(seat):
    state = core.new_game(GAME, 3, seed=2)
    with pytest.raises(core.IllegalMove, match="seat must be an integer from 0 to 2"):
        state.apply(seat, state.legal_moves(0)[0])
    with pytest.raises(ValueError, match="seat must be"):
        state.view(seat if seat is not None else 7)


def test_moving_out_of_turn_is_refused_naming_whose_turn_it_is():
    state = core.new_game(GAME, 2, seed=2, options={"first_player": 1})
    for seat in (0, 1):
        state.apply(seat, state.legal_moves(seat)[0])
    before = state.to_bytes()
    with pytest.raises(core.IllegalMove, match="it is seat 1's turn to play, not seat 0's"):
        state.apply(0, state.legal_moves(1)[0])
    with pytest.raises(core.IllegalMove, match="turn"):
        state.apply_action(0, state.legal_actions(1)[0])
    assert state.to_bytes() == before


def test_integer_path_refuses_unknown_and_illegal_ids():
    state = core.new_game(GAME, 2, seed=2)
    with pytest.raises(core.IllegalMove, match="action ids are 0 to 351"):
        state.apply_action(0, 999)
    with pytest.raises(core.IllegalMove, match="secret selection"):
        state.apply_action(0, 0)
    assert state.legal_actions(0) and state.legal_actions(0)[0] >= 66


def test_result_is_none_until_the_game_is_over():
    state = core.new_game(GAME, 2, seed=2)
    assert state.result() is None and not state.is_over
    state.playout(seed=1)
    assert state.is_over and state.result()["winners"]


def test_clones_are_independent():
    state = core.new_game(GAME, 2, seed=2)
    copy = state.clone()
    copy.apply(0, copy.legal_moves(0)[0])
    assert state.to_move == (0, 1) and copy.to_move == (1,)


def test_playouts_are_reproducible_with_a_seed_and_use_the_state_prng_without_one():
    state = core.new_game(GAME, 3, seed=8)
    a, b, c, d = (state.clone() for _ in range(4))
    assert a.playout(seed=5) == b.playout(seed=5) == 63 + 18
    assert a.snapshot() == b.snapshot()
    c.playout()
    d.playout()
    assert c.snapshot() == d.snapshot()


def test_random_playouts_report_aggregate_statistics():
    stats = core.random_playouts(GAME, 3, 3000, seed=1)
    assert stats["games"] == 3000 and stats["mean_moves"] == 81
    assert sum(stats["win_share"]) == pytest.approx(1.0)
    assert all(0.2 < share < 0.47 for share in stats["win_share"])
    assert 0 < sum(stats["mean_score"]) <= 70 * 3.6 and stats["mean_discards"] > 0
    assert core.random_playouts(GAME, 3, 500, seed=1) == core.random_playouts(GAME, 3, 500, seed=1)
    with pytest.raises(ValueError, match="2 to 5 players"):
        core.random_playouts(GAME, 6, 10)


def test_random_playouts_take_the_creation_options():
    fixed = core.random_playouts(GAME, 2, 2000, seed=3, options={"first_player": 1})
    assert fixed["games"] == 2000 and fixed != core.random_playouts(GAME, 2, 2000, seed=3)
    with pytest.raises(ValueError, match="first_player must be a seat from 0 to 1"):
        core.random_playouts(GAME, 2, 10, options={"first_player": 2})
