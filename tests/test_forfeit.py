"""A game ended by a turn clock's forfeit: the absent seats rank last (docs/rules.md)."""

import random

import pytest

import core


def played(game: str, players: int, moves: int, seed: int) -> core.GameState:
    state, rng = core.new_game(game, players, seed=seed), random.Random(seed)
    for _ in range(moves):
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_cup_the_crab_ranks_the_absent_seat_last_and_the_others_by_points_then_cups(players):
    for seed in range(20):
        state = played("cup-the-crab", players, 8 * players, seed)
        absent = seed % players
        result = state.forfeit_result([absent])
        ranks = {row["seat"]: row["rank"] for row in result["ranking"]}
        assert ranks[absent] == players
        present = [s for s in range(players) if s != absent]
        for a in present:
            better = sum((result["scores"][b], result["cups"][b]) >
                         (result["scores"][a], result["cups"][a]) for b in present)
            assert ranks[a] == 1 + better
        assert result["winners"] == [s for s in present if ranks[s] == 1]
        assert state.result() is None  # nothing about the state changes


def test_cup_the_crab_seats_absent_together_share_the_last_rank():
    state = played("cup-the-crab", 4, 20, 3)
    ranks = {row["seat"]: row["rank"] for row in state.forfeit_result([1, 3])["ranking"]}
    assert ranks[1] == ranks[3] == 3 and {ranks[0], ranks[2]} <= {1, 2}


def test_crabe_vs_poulpe_gives_the_win_to_the_seat_still_there():
    for seed in range(10):
        state = played("crabe-vs-poulpe", 2, 6, seed)
        for absent in (0, 1):
            result = state.forfeit_result([absent])
            assert result["winner"] == result["winners"][0] == absent ^ 1
            assert [row["seat"] for row in result["ranking"]] == [absent ^ 1, absent]


@pytest.mark.parametrize("game, players", [("cup-the-crab", 2), ("cup-the-crab", 3),
                                           ("cup-the-crab", 5), ("crabe-vs-poulpe", 2)])
def test_a_game_every_seat_abandons_has_no_winner_and_every_seat_ranks_last(game, players):
    for seed in range(5):
        state = played(game, players, 3 * players, seed)
        result = state.forfeit_result(list(range(players)))
        assert result["winners"] == [] and result.get("winner", None) is None
        assert [row["rank"] for row in result["ranking"]] == [players] * players
        assert sorted(row["seat"] for row in result["ranking"]) == list(range(players))


@pytest.mark.parametrize("game, players", [("cup-the-crab", 3), ("crabe-vs-poulpe", 2)])
def test_a_forfeit_of_a_seat_that_is_not_there_is_refused(game, players):
    with pytest.raises(ValueError):
        core.new_game(game, players, seed=1).forfeit_result([players])
