"""Determinization of Cup the Crab: consistent with the seat's view, uniform, honest."""

import math
from collections import Counter

import pytest

import core
from tests.ai.positions import GAME, CUP_NAMES, hidden_twin, random_position

CUPS = {"cup-1": 10, "cup-2": 10, "cup-3": 10, "cup-4": 10, "cup-5": 10, "cup-6": 10,
        "cup-8": 5, "cup-10": 5}
CRAB, OCTOPUS = 1 << 8, 1 << 9


@pytest.mark.parametrize("seed", range(60))
def test_a_determinization_shows_the_seat_exactly_its_view_and_keeps_every_card(seed):
    state = random_position(seed)
    for seat in range(state.players):
        det = state.determinize(seat, seed=seed)
        assert det.view(seat) == state.view(seat)
        # A complete, possible position: from_snapshot checks every card is accounted for.
        rebuilt = core.from_snapshot(det.snapshot())
        assert rebuilt.snapshot() == det.snapshot()
        assert det.legal_actions(seat) == state.legal_actions(seat)
        assert det.to_move == state.to_move


def test_the_seat_s_own_cards_and_all_public_cards_stay_put():
    state = random_position(3, players=4)
    snap = state.snapshot()
    for seed in range(20):
        det = state.determinize(1, seed=seed).snapshot()
        assert det["seats"][1] == snap["seats"][1]
        assert det["stacks"] == snap["stacks"] and det["discards"] == snap["discards"]
        for i in (0, 2, 3):
            assert det["seats"][i]["score_pile"] == snap["seats"][i]["score_pile"]
            assert len(det["seats"][i]["hand"]) == len(snap["seats"][i]["hand"])


def test_determinizations_do_redeal_what_the_seat_cannot_see():
    state = random_position(5, players=3)
    seen = {str(state.determinize(0, seed=s).snapshot()["box"]) for s in range(30)}
    assert len(seen) > 20


def test_the_same_seed_gives_the_same_determinization():
    state = random_position(8)
    assert state.determinize(0, seed=4).snapshot() == state.determinize(0, seed=4).snapshot()


@pytest.mark.parametrize("seed", range(25))
def test_states_a_seat_cannot_tell_apart_give_the_same_determinizations(seed):
    state = random_position(seed)
    seat = seed % state.players
    twin = hidden_twin(state, seat, seed)
    for s in range(3):
        assert state.determinize(seat, s).snapshot() == twin.determinize(seat, s).snapshot()


def _hypergeometric(total: int, good: int, drawn: int) -> list[float]:
    return [math.comb(good, k) * math.comb(total - good, drawn - k) / math.comb(total, drawn)
            for k in range(min(good, drawn) + 1)]


def _chi_square(observed: Counter, probabilities: list[float], n: int) -> tuple[float, int]:
    """Chi-square statistic, pooling the outcomes expected fewer than 5 times."""
    stat, cells, pooled_obs, pooled_exp = 0.0, 0, 0, 0.0
    for k, p in enumerate(probabilities):
        if p * n < 5:
            pooled_obs += observed[k]
            pooled_exp += p * n
            continue
        stat += (observed[k] - p * n) ** 2 / (p * n)
        cells += 1
    if pooled_exp > 0:
        stat += (pooled_obs - pooled_exp) ** 2 / pooled_exp
        cells += 1
    return stat, cells - 1


def _chi_square_bound(df: int) -> float:
    """Far in the tail (about p = 0.0005 for these small df): a sanity check, not a proof."""
    return df + 5 * math.sqrt(2 * df) + 6


def test_unseen_cups_are_dealt_uniformly_between_the_opponent_and_the_box():
    # 2 players in round 1, before anyone selected: seat 1 holds 14 of the 56 Cups seat 0
    # cannot see, so its count of each value is hypergeometric.
    state = core.new_game(GAME, 2, seed=11)
    view = state.view(0)
    n = 3000
    dets = [state.determinize(0, seed=s).snapshot() for s in range(n)]
    for name in ("cup-10", "cup-3"):
        unseen = CUPS[name] - view["reserve"].count(name)
        observed = Counter(d["seats"][1]["reserve"].count(name) for d in dets)
        stat, df = _chi_square(observed, _hypergeometric(56, unseen, 14), n)
        assert stat < _chi_square_bound(df), (name, stat, df, observed)


def test_a_selected_hand_is_a_uniform_draw_of_the_seat_s_remaining_cards():
    # After seat 1 selected, its 3-card hand is hidden from seat 0: the number of Crabs
    # in it is hypergeometric among its 21 cards (3 Crabs).
    state = core.new_game(GAME, 2, seed=12)
    state.apply_action(1, state.legal_actions(1)[-1])
    n = 3000
    observed = Counter(state.determinize(0, seed=s).snapshot()["seats"][1]["hand"].count("crab")
                       for s in range(n))
    stat, df = _chi_square(observed, _hypergeometric(21, 3, 3), n)
    assert stat < _chi_square_bound(df), (stat, df, observed)


def test_hand_allow_keeps_a_redealt_hand_to_the_kinds_a_discard_proved():
    state = core.new_game(GAME, 2, seed=12)
    state.apply_action(1, state.legal_actions(1)[0])
    for s in range(50):
        hand = state.determinize(0, seed=s, hand_allow=[0x7FF, CRAB | OCTOPUS]).view(1)["hand"]
        assert len(hand) == 3 and set(hand) <= {"crab", "octopus"}


@pytest.mark.parametrize("bad", [[1], "x", [0x7FF, -1], [0x7FF, 1 << 11]])
def test_hand_allow_must_be_one_kind_mask_per_seat(bad):
    with pytest.raises(ValueError, match="hand_allow"):
        core.new_game(GAME, 2, seed=1).determinize(0, seed=1, hand_allow=bad)


def test_determinize_checks_the_seat():
    with pytest.raises(ValueError, match="seat"):
        core.new_game(GAME, 2, seed=1).determinize(2, seed=1)
