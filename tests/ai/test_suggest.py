"""core.ai.suggest: legal, repeatable, honest, and strict about its parameters."""

import math

import pytest

import core
import core.ai
from tests.ai.positions import GAME, hidden_twin, random_position


@pytest.mark.parametrize("seed", range(40))
def test_the_suggestion_is_always_a_legal_move(seed):
    state = random_position(seed)
    seat = state.to_move[seed % len(state.to_move)]
    algorithm = "flat" if seed % 3 == 0 else "ismcts"
    out = core.ai.suggest(state, seat, iterations=150, seed=seed, algorithm=algorithm)
    assert out["move"] in state.legal_moves(seat)
    assert state.action_of(out["move"]) == out["action"]
    if out["iterations"]:
        assert out["iterations"] == 150
        assert sum(row["visits"] for row in out["stats"]) == 150
        assert all(0 <= row["win_rate"] <= 1 for row in out["stats"])
        assert all(row["move"] in state.legal_moves(seat) for row in out["stats"])


def test_an_ai_plays_whole_games_to_the_end_with_legal_moves():
    for players in (2, 4):
        state = core.new_game(GAME, players, seed=players)
        while not state.is_over:
            seat = state.to_move[0]
            state.apply(seat, core.ai.suggest(state, seat, iterations=40, seed=1)["move"])
        assert state.result()["winners"]


@pytest.mark.parametrize("algorithm", ["ismcts", "flat"])
@pytest.mark.parametrize("seed", range(12))
def test_positions_the_seat_cannot_tell_apart_get_the_same_suggestion_and_stats(seed, algorithm):
    state = random_position(100 + seed)
    seat = state.to_move[0]
    twin = next(t for t in (hidden_twin(state, seat, seed + k) for k in range(50))
                if t.snapshot() != state.snapshot())
    a = core.ai.suggest(state, seat, iterations=300, seed=seed, algorithm=algorithm)
    b = core.ai.suggest(twin, seat, iterations=300, seed=seed, algorithm=algorithm)
    for out in (a, b):
        out.pop("simulations_per_second"), out.pop("seconds"), out.pop("cpu_seconds")
    assert a == b


def test_honesty_holds_with_two_threads_too():
    state = random_position(7, players=3)
    seat = state.to_move[0]
    twin = hidden_twin(state, seat, 1)
    a = core.ai.suggest(state, seat, iterations=400, seed=3, threads=2)
    b = core.ai.suggest(twin, seat, iterations=400, seed=3, threads=2)
    assert (a["move"], a["stats"]) == (b["move"], b["stats"])


def test_a_fixed_seed_repeats_the_search_and_another_seed_explores_differently():
    state = core.new_game(GAME, 3, seed=5)
    runs = [core.ai.suggest(state, 0, iterations=500, seed=s) for s in (9, 9, 10)]
    assert runs[0]["stats"] == runs[1]["stats"] and runs[0]["move"] == runs[1]["move"]
    assert runs[0]["stats"] != runs[2]["stats"]


def test_two_threads_share_the_iterations_and_suggest_a_legal_move():
    state = random_position(21, players=2)
    seat = state.to_move[0]
    out = core.ai.suggest(state, seat, iterations=2001, seed=2, threads=2)
    assert out["move"] in state.legal_moves(seat)
    assert out["iterations"] == 2001 and out["threads"] == 2


def test_a_time_budget_runs_until_the_time_is_up():
    state = core.new_game(GAME, 2, seed=1)
    out = core.ai.suggest(state, 0, time_ms=30, seed=1)
    assert out["iterations"] > 10 and 0.02 < out["seconds"] < 1.0
    assert out["move"] in state.legal_moves(0)
    out = core.ai.suggest(state, 0, time_ms=30, threads=2, algorithm="flat")
    assert out["move"] in state.legal_moves(0)


def test_a_single_legal_move_is_returned_without_searching():
    for seed in range(200):
        state = random_position(seed, players=2)
        seat = state.to_move[0]
        if len(state.legal_actions(seat)) == 1:
            out = core.ai.suggest(state, seat, iterations=1000)
            assert out["move"] == state.legal_moves(seat)[0] and out["iterations"] == 0
            return
    pytest.fail("no position with a single legal move found")


def test_each_seat_of_a_simultaneous_selection_can_ask():
    state = core.new_game(GAME, 3, seed=2)
    for seat in (2, 0, 1):
        out = core.ai.suggest(state, seat, iterations=100, seed=seat)
        assert out["move"]["type"] == "select"
        state.apply(seat, out["move"])
    assert state.view()["phase"] == "play"


@pytest.mark.parametrize("level", sorted(core.ai.LEVELS))
def test_a_level_is_the_algorithm_and_iterations_core_ai_levels_gives_it(level):
    state = core.new_game(GAME, 2, seed=4)
    out = core.ai.suggest(state, 0, level=level, seed=1)
    budget = core.ai.level_budget(level, GAME, 2)
    assert out["algorithm"] == budget["algorithm"] == core.ai.LEVELS[level]["algorithm"]
    assert out["iterations"] == budget["iterations"] == core.ai.LEVELS[level]["iterations"]
    assert out == core.ai.suggest(state, 0, seed=1, **budget) | {
        "simulations_per_second": out["simulations_per_second"], "seconds": out["seconds"],
        "cpu_seconds": out["cpu_seconds"]}


def test_levels_grow_in_budget_from_flat_monte_carlo_to_ismcts():
    budgets = [core.ai.LEVELS[level] for level in sorted(core.ai.LEVELS)]
    assert sorted(core.ai.LEVELS) == [1, 2, 3, 4, 5]
    assert all(low["iterations"] < high["iterations"] for low, high in zip(budgets, budgets[1:]))
    assert budgets[0]["algorithm"] == "flat" and budgets[-1]["algorithm"] == "ismcts"


BAD = [
    ({}, "exactly one of level, iterations and time_ms"),
    ({"iterations": 10, "time_ms": 10}, "exactly one of level, iterations and time_ms"),
    ({"iterations": 0}, "iterations must be an integer from 1 to 1,000,000"),
    ({"iterations": 1_000_001}, "iterations must be"),
    ({"iterations": 10**9}, "iterations must be"),
    ({"iterations": 5.0}, "iterations must be"),
    ({"iterations": True}, "iterations must be"),
    ({"time_ms": 0}, "time_ms must be a number from 1 to 60,000"),
    ({"time_ms": 60_001}, "time_ms must be"),
    ({"time_ms": float("nan")}, "time_ms must be"),
    ({"time_ms": "5"}, "time_ms must be"),
    ({"iterations": 10, "threads": 0}, "threads must be an integer from 1 to 64"),
    ({"iterations": 10, "threads": 65}, "threads must be"),
    ({"iterations": 10, "algorithm": "minimax"}, "algorithm must be one of ismcts, flat"),
    ({"iterations": 10, "exploration": -1}, "exploration must be"),
    ({"iterations": 10, "exploration": float("inf")}, "exploration must be"),
    ({"iterations": 10, "seed": -1}, "seed must be"),
    ({"iterations": 10, "seed": "1"}, "seed must be"),
    ({"level": 0}, "level must be an integer from 1 to 5"),
    ({"level": 3.0}, "level must be an integer from 1 to 5"),
    ({"level": 3, "iterations": 10}, "exactly one of level, iterations and time_ms"),
    ({"level": 3, "algorithm": "flat"}, "a level sets the algorithm and the variant too"),
    ({"level": 3, "playout": "random"}, "a level sets the algorithm and the variant too"),
    ({"level": 5, "max_moves": 10}, "a level sets the algorithm and the variant too"),
    ({"iterations": 10, "max_moves": 0}, "max_moves must be an integer from 1 to 1,000,000,000"),
    ({"iterations": 10, "max_moves": -5}, "max_moves must be"),
    ({"iterations": 10, "max_moves": 10**10}, "max_moves must be"),
    ({"iterations": 10, "max_moves": 1e5}, "max_moves must be"),
    ({"iterations": 10, "max_moves": True}, "max_moves must be"),
    ({"iterations": 10, "root": "random"}, "root must be one of ucb, halving"),
    ({"time_ms": 10, "root": "halving"}, "root 'halving' is for ismcts with an iteration budget"),
    ({"iterations": 10, "algorithm": "flat", "root": "halving"}, "root 'halving' is for ismcts"),
    ({"level": 5, "root": "ucb"}, "a level sets the algorithm and the variant too"),
]


@pytest.mark.parametrize("kwargs, message", BAD)
def test_bad_parameters_are_refused_with_what_is_allowed(kwargs, message):
    with pytest.raises(ValueError, match=message):
        core.ai.suggest(core.new_game(GAME, 2, seed=1), 0, **kwargs)


def test_a_seat_that_may_not_act_is_refused():
    state = core.new_game(GAME, 2, seed=1, options={"first_player": 0})
    with pytest.raises(ValueError, match="seat must be"):
        core.ai.suggest(state, 2, iterations=10)
    state.apply_action(0, state.legal_actions(0)[0])
    with pytest.raises(ValueError, match="seat 0 has no move to make now"):
        core.ai.suggest(state, 0, iterations=10)
    state.playout(seed=1)
    with pytest.raises(ValueError, match="the game is over"):
        core.ai.suggest(state, 0, iterations=10)


def test_a_game_without_an_ai_says_so(monkeypatch):
    # Whether or not Crabe vs Poulpe has its adapter yet, a game without one is refused.
    monkeypatch.delitem(core.ai.ADAPTERS, "crabe-vs-poulpe", raising=False)
    state = core.new_game("crabe-vs-poulpe", 2, seed=1)
    assert not core.ai.supports("crabe-vs-poulpe") and core.ai.supports(GAME)
    with pytest.raises(NotImplementedError, match="no AI for 'crabe-vs-poulpe' yet"):
        core.ai.suggest(state, state.to_move[0], iterations=10)


@pytest.mark.parametrize("iterations, threads", [(5, 4), (3, 8), (7, 2)])
def test_iterations_are_shared_out_whatever_the_number_of_threads(iterations, threads):
    out = core.ai.suggest(core.new_game(GAME, 2, seed=1), 0, iterations=iterations,
                          threads=threads, seed=1)
    assert out["iterations"] == iterations and out["threads"] == min(iterations, threads)
    assert sum(row["visits"] for row in out["stats"]) == iterations


@pytest.mark.parametrize("algorithm", ["ismcts", "flat"])
@pytest.mark.parametrize("players", [2, 5])
def test_max_moves_stops_the_search_once_it_has_simulated_that_many_moves(players, algorithm):
    state = core.new_game(GAME, players, seed=3)
    out = core.ai.suggest(state, 0, iterations=100_000, max_moves=20_000, seed=2,
                          algorithm=algorithm)
    # A whole game is at most 21 cards and 7 selections a seat: one iteration more than
    # the cap needs is all it may run over.
    assert 20_000 <= out["moves"] < 20_000 + 28 * players
    assert out["iterations"] < 100_000
    assert sum(row["visits"] for row in out["stats"]) == out["iterations"]
    again = core.ai.suggest(state, 0, iterations=100_000, max_moves=20_000, seed=2,
                            algorithm=algorithm)
    assert (again["move"], again["stats"], again["moves"]) == (out["move"], out["stats"],
                                                              out["moves"])


def test_max_moves_is_shared_out_among_the_threads():
    state = core.new_game(GAME, 3, seed=3)
    one = core.ai.suggest(state, 0, iterations=100_000, max_moves=30_000, seed=2)
    two = core.ai.suggest(state, 0, iterations=100_000, max_moves=30_000, seed=2, threads=2)
    assert 30_000 <= two["moves"] < 30_000 + 2 * 28 * 3 and two["threads"] == 2
    assert abs(two["iterations"] - one["iterations"]) < 0.1 * one["iterations"]


def test_the_iterations_stop_a_search_before_max_moves_does_when_they_come_first():
    state = core.new_game(GAME, 2, seed=3)
    out = core.ai.suggest(state, 0, iterations=50, max_moves=1_000_000, seed=2)
    assert out["iterations"] == 50 and 0 < out["moves"] < 1_000_000


def test_a_process_forked_after_a_threaded_search_can_search_with_threads():
    import multiprocessing
    state = core.new_game(GAME, 2, seed=1)
    core.ai.suggest(state, 0, iterations=500, threads=2)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        result = pool.apply_async(_threaded_search, (state.to_bytes(),))
        assert result.get(timeout=30) in [m["type"] for m in state.legal_moves(0)]


def _threaded_search(blob):
    state = core.from_bytes(blob)
    return core.ai.suggest(state, 0, iterations=500, threads=2)["move"]["type"]


@pytest.mark.parametrize("players", [2, 4])
def test_sequential_halving_tries_every_root_move_then_the_better_half_round_after_round(players):
    state = core.new_game(GAME, players, seed=5)
    seat = state.to_move[0]
    legal = state.legal_actions(seat)
    out = core.ai.suggest(state, seat, iterations=12_500, seed=3, playout="policy",
                          reward="place", root="halving")
    visits = sorted((row["visits"] for row in out["stats"]), reverse=True)
    assert len(visits) == len(legal) and sum(visits) == 12_500 == out["iterations"]
    # The first round tries every move alike (one try more for some: the round robin);
    # the moves tried more than that are the half kept for the next round, at most.
    first_round = visits[-1]
    assert 2 <= sum(v > first_round + 1 for v in visits) <= (len(legal) + 1) // 2
    # The last round's two moves were tried alike in every round (one try apart at most a
    # round), and the better mean of the two is played.
    finalists = out["stats"][:2]
    rounds = math.ceil(math.log2(len(legal)))
    assert abs(finalists[0]["visits"] - finalists[1]["visits"]) <= rounds
    # and the last round's tries (a share of the budget) went to them alone
    assert finalists[1]["visits"] - out["stats"][2]["visits"] >= 12_500 // rounds // 4
    assert out["move"] == max(finalists, key=lambda row: row["win_rate"])["move"]
    again = core.ai.suggest(state, seat, iterations=12_500, seed=3, playout="policy",
                            reward="place", root="halving")
    assert again["stats"] == out["stats"]



def test_level_5_halves_its_root_with_two_players_in_cup_the_crab_only():
    """core.ai.TABLE_VARIANTS: where sequential halving was measured to win."""
    assert core.ai.level_budget(5, GAME, 2) == {**core.ai.LEVELS[5], "root": "halving"}
    assert core.ai.level_budget(5, GAME, 4) == core.ai.LEVELS[5]
    assert "root" not in core.ai.level_budget(5, GAME, 5)
    assert core.ai.level_budget(5, "crabe-vs-poulpe", 2) == core.ai.LEVELS[5]
    assert core.ai.level_budget(4, GAME, 2) == core.ai.LEVELS[4]
    for players, root in ((2, "halving"), (4, "ucb")):
        state = core.new_game(GAME, players, seed=6)
        seat = state.to_move[0]
        by_level = core.ai.suggest(state, seat, level=5, seed=2)
        by_budget = core.ai.suggest(state, seat, seed=2, **core.ai.LEVELS[5], root=root)
        assert by_level["stats"] == by_budget["stats"]


def test_level_5_caps_its_work_at_five_players_in_cup_the_crab_only():
    """core.ai.TABLE_VARIANTS: a 5-player game's first decisions, whose playouts run up to
    135 moves, stop at 1.3 million simulated moves; later ones keep 12,500 iterations."""
    cap = 1_300_000
    assert core.ai.level_budget(5, GAME, 5) == {**core.ai.LEVELS[5], "max_moves": cap}
    for players in (3, 4):
        assert core.ai.level_budget(5, GAME, players) == core.ai.LEVELS[5]
    assert core.ai.level_budget(4, GAME, 5) == core.ai.LEVELS[4]
    first = core.new_game(GAME, 5, seed=6)
    out = core.ai.suggest(first, first.to_move[0], level=5, seed=2)
    assert out["iterations"] < core.ai.LEVELS[5]["iterations"]
    assert cap <= out["moves"] < cap + 135         # stopped within one iteration of the cap
    explicit = core.ai.suggest(first, first.to_move[0], seed=2, **core.ai.LEVELS[5],
                               max_moves=cap)
    assert explicit["stats"] == out["stats"]
    later = random_position(602, 5)     # round 3: 84 moves an iteration
    out = core.ai.suggest(later, later.to_move[0], level=5, seed=5)
    assert out["iterations"] == core.ai.LEVELS[5]["iterations"]
