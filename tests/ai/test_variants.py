"""The search's variants (policy playouts, rank and place rewards) and the judge,
core.ai.evaluate:
legal, repeatable, honest (twins get the same answers), strict about their parameters."""

import pytest

import core
import core.ai
from core.games.cvp import search as cvp_search
from tests.ai.cvp_twins import view_twin
from tests.ai.positions import GAME, hidden_twin, random_position
from tests.ai.test_cvp_ai import history, positions

VARIANTS = [{"playout": "policy"}, {"reward": "rank"}, {"playout": "policy", "reward": "rank"},
            {"reward": "place"}, {"playout": "policy", "reward": "place"},
            # a cap on the moves simulated that stops the search before its iterations
            {"playout": "policy", "reward": "place", "max_moves": 4_000},
            # the root's moves by sequential halving (ISMCTS only)
            {"playout": "policy", "reward": "place", "root": "halving"}]
# Each variant with each algorithm that takes it (flat Monte Carlo has no tree root to halve).
SEARCHES = [(variant, algorithm) for variant in VARIANTS for algorithm in ("ismcts", "flat")
            if algorithm == "ismcts" or "root" not in variant]


def _strip(out):
    for key in ("simulations_per_second", "seconds", "cpu_seconds"):
        out.pop(key)
    return out


def _cc_twin(state, seat, seed):
    return next(t for t in (hidden_twin(state, seat, seed + k) for k in range(50))
                if t.snapshot() != state.snapshot())


@pytest.mark.parametrize("variant, algorithm", SEARCHES)
@pytest.mark.parametrize("seed", range(6))
def test_cup_the_crab_twins_get_the_same_suggestion_with_every_variant(seed, variant, algorithm):
    state = random_position(200 + seed)
    seat = state.to_move[0]
    twin = _cc_twin(state, seat, seed)
    a = core.ai.suggest(state, seat, iterations=300, seed=seed, algorithm=algorithm, **variant)
    b = core.ai.suggest(twin, seat, iterations=300, seed=seed, algorithm=algorithm, **variant)
    assert _strip(a) == _strip(b)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", range(3))
def test_cup_the_crab_twins_get_the_same_suggestion_at_a_game_s_first_selection(seed, players):
    # Level 5 (place rewards) at the first selection, where everything but the seat's own
    # cards is unseen, which random_position rarely gives.
    state = core.new_game(GAME, players, seed=600 + seed)
    seat = state.to_move[-1]
    twin = _cc_twin(state, seat, seed)
    a = core.ai.suggest(state, seat, seed=seed, level=5)
    b = core.ai.suggest(twin, seat, seed=seed, level=5)
    assert _strip(a) == _strip(b)


@pytest.mark.parametrize("variant, algorithm", SEARCHES)
@pytest.mark.parametrize("stop", ["turn", "response", "pincer", "mimic", "offer", "heal"])
def test_crabe_vs_poulpe_twins_get_the_same_suggestion_with_every_variant(stop, variant,
                                                                         algorithm):
    # Every kind of decision the rule of thumb makes, the Pincer and the Mimic included
    # (the seat sees the opponent's hand then, so a twin keeps that hand).
    compared = 0
    for k, (state, log) in enumerate(positions(3, stop=stop, seed0=900 + 7 * len(stop))):
        seat = state.to_move[0]
        twin = next((t for t in (view_twin(state, seat, k + j) for j in range(20))
                     if t.snapshot() != state.snapshot()), None)
        if twin is None:        # nothing left unseen (a late Pincer: no draw piles)
            continue
        a = core.ai.suggest(state, seat, iterations=300, seed=k, algorithm=algorithm, **variant)
        b = core.ai.suggest(twin, seat, iterations=300, seed=k, algorithm=algorithm, **variant)
        assert _strip(a) == _strip(b)
        compared += 1
    assert compared


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(4))
def test_crabe_vs_poulpe_twins_the_history_allows_get_the_same_suggestion_with_every_variant(
        seed, variant):
    state, log = positions(1, seed0=1700 + 11 * seed)[0]
    seat = state.to_move[0]
    seen = history(state, log, seat)
    info = cvp_search.info(state, seat, seen)
    twin = next(t for t in (cvp_search.determinize(state, seat, info, seed=100 + k, strict=True)
                            for k in range(30)) if t.snapshot() != state.snapshot())
    a = core.ai.suggest(state, seat, iterations=300, seed=seed, history=seen, **variant)
    b = core.ai.suggest(twin, seat, iterations=300, seed=seed, history=seen, **variant)
    assert _strip(a) == _strip(b)


@pytest.mark.parametrize("game, players", [("cup-the-crab", 2), ("crabe-vs-poulpe", 2)])
def test_the_policy_playouts_are_the_game_s_rules_of_thumb_not_its_random_ones(game, players):
    # Both games have a rule of thumb now: the same search with either playout differs.
    state = core.new_game(game, players, seed=5)
    seat = state.to_move[0]
    a = core.ai.suggest(state, seat, iterations=400, seed=2, playout="policy")
    b = core.ai.suggest(state, seat, iterations=400, seed=2)
    assert _strip(a)["stats"] != _strip(b)["stats"]


def test_crabe_vs_poulpe_has_two_players_so_its_place_reward_is_the_victory():
    state = core.new_game("crabe-vs-poulpe", 2, seed=5)
    seat = state.to_move[0]
    assert _strip(core.ai.suggest(state, seat, iterations=400, seed=2, reward="place")) == (
        _strip(core.ai.suggest(state, seat, iterations=400, seed=2)))


def test_place_rewards_are_the_victory_with_two_players_and_not_with_four():
    for players, same in ((2, True), (4, False)):
        state = core.new_game(GAME, players, seed=5)
        win, rank, place = (_strip(core.ai.suggest(state, 0, iterations=400, seed=2,
                                                   playout="policy", reward=reward))
                            for reward in ("win", "rank", "place"))
        assert (place == win) == same
        assert (place == rank) == same


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 4, 5])
def test_every_variant_reports_only_the_seat_s_own_legal_moves(players, variant):
    state = core.new_game(GAME, players, seed=players)
    out = core.ai.suggest(state, 0, iterations=600, seed=1, **variant)
    assert out["move"] in state.legal_moves(0)
    assert all(row["move"] in state.legal_moves(0) for row in out["stats"])
    assert sum(row["visits"] for row in out["stats"]) == out["iterations"]
    assert out["iterations"] == 600 or out["moves"] >= variant["max_moves"]


@pytest.mark.parametrize("seed", range(12))
def test_cup_the_crab_twins_get_the_same_evaluation(seed):
    state = random_position(300 + seed)
    for seat in range(state.players):       # any seat may be judged for, not only the mover
        twin = _cc_twin(state, seat, seed)
        assert core.ai.evaluate(state, seat, iterations=400, seed=seed) == core.ai.evaluate(
            twin, seat, iterations=400, seed=seed)


@pytest.mark.parametrize("seed", range(6))
def test_crabe_vs_poulpe_twins_get_the_same_evaluation_with_and_without_history(seed):
    state, log = positions(1, seed0=1300 + 13 * seed)[0]
    seat = state.to_move[0]
    twin = next(t for t in (view_twin(state, seat, seed + k) for k in range(20))
                if t.snapshot() != state.snapshot())
    assert core.ai.evaluate(state, seat, iterations=400, seed=seed) == core.ai.evaluate(
        twin, seat, iterations=400, seed=seed)
    seen = history(state, log, seat)
    info = cvp_search.info(state, seat, seen)
    twin = next(t for t in (cvp_search.determinize(state, seat, info, seed=100 + k, strict=True)
                            for k in range(30)) if t.snapshot() != state.snapshot())
    assert core.ai.evaluate(state, seat, iterations=400, seed=seed, history=seen) == (
        core.ai.evaluate(twin, seat, iterations=400, seed=seed, history=seen))


@pytest.mark.parametrize("seed", range(10))
def test_the_chances_are_probabilities_that_sum_to_one(seed):
    state = random_position(400 + seed)
    chances = core.ai.evaluate(state, state.to_move[0], iterations=300, seed=seed)
    assert len(chances) == state.players
    assert all(0 <= c <= 1 for c in chances)
    assert sum(chances) == pytest.approx(1)


def test_a_finished_game_is_judged_by_its_result():
    state = core.new_game(GAME, 3, seed=4)
    while not state.is_over:
        seat = state.to_move[0]
        state.apply_action(seat, state.legal_actions(seat)[0])
    winners = state.result()["winners"]
    assert core.ai.evaluate(state, 1) == [1 / len(winners) if s in winners else 0.0
                                          for s in range(3)]


def test_the_same_seed_repeats_an_evaluation_and_another_seed_samples_again():
    state = core.new_game(GAME, 4, seed=8)
    assert core.ai.evaluate(state, 0, seed=3) == core.ai.evaluate(state, 0, seed=3)
    assert core.ai.evaluate(state, 0, seed=3) != core.ai.evaluate(state, 0, seed=4)


@pytest.mark.parametrize("kwargs, message", [
    ({"playout": "greedy"}, "playout must be one of random, policy"),
    ({"playout": 7}, "playout must be one of random, policy"),
    ({"reward": "score"}, "reward must be one of win, rank, place"),
])
def test_an_unknown_variant_is_refused_by_name(kwargs, message):
    state = core.new_game(GAME, 3, seed=1)
    with pytest.raises(ValueError, match=message):
        core.ai.suggest(state, 0, iterations=10, **kwargs)


@pytest.mark.parametrize("kwargs, message", [
    ({"iterations": 0}, "iterations must be an integer from 1"),
    ({"iterations": 2.5}, "iterations must be an integer from 1"),
    ({"seed": -1}, "seed must be an integer"),
])
def test_evaluate_refuses_a_bad_budget_or_seed(kwargs, message):
    state = core.new_game(GAME, 3, seed=1)
    with pytest.raises(ValueError, match=message):
        core.ai.evaluate(state, 0, **kwargs)


@pytest.mark.parametrize("seat", [-1, 3, "0", None])
def test_evaluate_refuses_a_seat_that_is_not_at_the_table(seat):
    state = core.new_game(GAME, 3, seed=1)
    with pytest.raises(ValueError, match="seat must be an integer from 0 to 2"):
        core.ai.evaluate(state, seat)


def test_the_judge_moves_the_raw_playout_chances_towards_an_even_share_by_its_fitted_shrink():
    state = random_position(77, players=5)
    seat = state.to_move[0]
    raw = core.ai.evaluate(state, seat, iterations=500, seed=2, shrink=False)
    share = core.ai.SHRINK[(GAME, 5)]
    assert share > 0
    assert core.ai.evaluate(state, seat, iterations=500, seed=2) == pytest.approx(
        [(1 - share) * chance + share / 5 for chance in raw])
