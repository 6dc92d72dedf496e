"""One test per card effect (ruling P7), each effect cancelled by Resist, Mimic copying
every other effect, and every trigger of the instant win (ruling P6)."""

import pytest

import core
from core.games.cvp.rules import DECKS
from tests.cvp.positions import DECLINE, PASS, card, play, position

OTHER = ["octopus-1", "octopus-6", "crab-9"]   # seat 1: a Resist and two plain cards


def opened(name, hand=("crab-3", "crab-6"), other=OTHER, resolve=True, **kwargs):
    """Seat 0 plays `name` (on the given pile, else opening); seat 1 declines to resist."""
    kwargs.setdefault("last_player", 1 if kwargs.get("pile") else None)
    state = position([[name, *hand], list(other)], **kwargs)
    play(state, card(name))
    if resolve and state.view(1)["phase"] == "response":
        play(state, DECLINE)
    return state


def seats(state):
    return [(s["hand_size"], s["draw_size"]) for s in state.view(None)["seats"]]


# -- each effect -------------------------------------------------------------------------

def test_pincer_reveals_the_hand_to_its_player_only_and_the_card_goes_to_its_colour_pile():
    state = opened("crab-pincer")
    assert state.to_move == (0,) and state.view(0)["phase"] == "pincer"
    assert state.view(0)["revealed"] == ["crab-9", "octopus-1", "octopus-6"]
    assert state.view(1)["revealed"] is None and state.view(None)["revealed"] is None
    assert state.legal_moves(0) == [{"type": "pincer", "card": c} for c in
                                    ("crab-9", "octopus-1", "octopus-6")]
    (h0, d0), (h1, d1) = seats(state)
    crab = state.clone()
    play(crab, {"type": "pincer", "card": "crab-9"})      # a crab card: the crab pile
    assert seats(crab) == [(h0, d0 + 1), (h1 - 1, d1)]
    assert "crab-9" in crab.snapshot()["seats"][0]["draw_pile"]
    assert crab.view(0)["revealed"] is None and crab.to_move == (1,)
    play(state, {"type": "pincer", "card": "octopus-6"})
    assert seats(state) == [(h0, d0), (h1 - 1, d1 + 1)]
    assert "octopus-6" in state.snapshot()["seats"][1]["draw_pile"]


def test_pincer_on_an_empty_hand_reveals_nothing_and_asks_nothing():
    state = position([["crab-pincer", "crab-3"], ["octopus-1"]], draws=(None, ["octopus-3"]),
                     opener=1)
    play(state, card("octopus-1"))                        # seat 1's hand is empty now
    play(state, card("crab-pincer"))
    assert state.legal_moves(1) == [DECLINE]
    play(state, DECLINE)
    assert state.view(1)["phase"] == "turn" and state.to_move == (1,)


def test_heal_discards_face_down_then_refills_to_five():
    state = opened("crab-heal", hand=("crab-3", "crab-6"))
    assert state.view(0)["phase"] == "heal"
    assert state.legal_moves(0) == [{"type": "discard", "card": "crab-3"},
                                    {"type": "discard", "card": "crab-6"}]
    play(state, {"type": "discard", "card": "crab-3"})
    view = state.view(1)
    assert view["discard_size"] == 1 and view["seats"][0]["hand_size"] == 5
    assert state.snapshot()["discard"] == ["crab-3"]      # face down: in no view
    assert state.to_move == (1,) and view["phase"] == "turn"


def test_heal_with_an_empty_hand_only_refills():
    state = position([["crab-heal"], OTHER])
    play(state, card("crab-heal"))
    play(state, DECLINE)
    assert state.to_move == (1,) and state.view(0)["seats"][0]["hand_size"] == 5


def test_search_shows_the_own_draw_pile_to_the_searcher_only_then_shuffles_it():
    state = opened("crab-search", draws=(["crab-7", "crab-9", "crab-2", "crab-7"], None))
    assert state.view(0)["phase"] == "search"
    assert state.view(0)["draw_pile"] == ["crab-2", "crab-7", "crab-7", "crab-9"]
    assert state.view(1)["draw_pile"] is None and state.view(None)["draw_pile"] is None
    assert [m["card"] for m in state.legal_moves(0)] == ["crab-2", "crab-7", "crab-9"]
    play(state, {"type": "search", "card": "crab-9"})
    assert "crab-9" in state.view(0)["hand"] and state.view(0)["draw_pile"] is None
    assert sorted(state.snapshot()["seats"][0]["draw_pile"]) == ["crab-2", "crab-7", "crab-7"]
    orders = set()
    for seed in range(30):
        again = opened("crab-search", draws=(["crab-7", "crab-9", "crab-2", "crab-5"], None),
                       seed=seed)
        play(again, {"type": "search", "card": "crab-9"})
        orders.add(tuple(again.snapshot()["seats"][0]["draw_pile"]))
    assert len(orders) == 6                               # every order of 3 cards occurs


def test_search_with_an_empty_draw_pile_asks_nothing():
    state = opened("crab-search", draws=([], None))
    assert state.to_move == (1,) and state.view(1)["phase"] == "turn"


def test_blind_draws_a_card_and_cannot_be_cancelled():
    state = position([["crab-5"], ["octopus-blind", "octopus-1"]], pile=["crab-10"],
                     last_player=0)
    before = seats(state)
    play(state, card("octopus-blind"))
    assert state.to_move == (0,) and state.view(0)["phase"] == "turn"   # no window
    assert seats(state)[1] == (before[1][0], before[1][1] - 1)          # played 1, drew 1


def test_capture_takes_the_covered_card_or_declines():
    state = opened("octopus-capture", pile=["octopus-3"])
    assert state.view(0)["phase"] == "capture"
    assert state.legal_moves(0) == [DECLINE, {"type": "capture"}]
    declined = play(state.clone(), DECLINE)
    assert declined.view(0)["pile"] == ["octopus-3", "octopus-capture"]
    play(state, {"type": "capture"})
    view = state.view(0)
    assert view["pile"] == ["octopus-capture"] and "octopus-3" in view["hand"]
    assert state.to_move == (1,) and view["last_player"] == 0


def test_capture_opening_a_round_covers_nothing_and_asks_nothing():
    state = opened("octopus-capture")
    assert state.to_move == (1,) and state.view(1)["phase"] == "turn"


def test_mimic_reveals_the_hand_and_offers_its_copyable_effects_or_nothing():
    other = ["octopus-1", "octopus-alpha", "octopus-4", "octopus-8", "crab-heal", "crab-4"]
    state = opened("octopus-mimic", other=other)
    assert state.view(0)["phase"] == "mimic"
    assert state.view(0)["revealed"] == ["crab-4", "crab-heal", "octopus-alpha",
                                         "octopus-1", "octopus-4", "octopus-8"]
    assert state.view(1)["revealed"] is None
    assert state.legal_moves(0) == [DECLINE, {"type": "copy", "effect": "offer"},
                                    {"type": "copy", "effect": "heal"},
                                    {"type": "copy", "effect": "reverse"}]
    play(state, DECLINE)
    assert state.to_move == (1,) and state.view(0)["revealed"] is None


def test_mimic_cannot_copy_resist_start_a_plain_card_or_another_mimic():
    state = opened("octopus-mimic",
                   other=["octopus-1", "octopus-alpha", "octopus-6", "octopus-mimic"],
                   deck=dict(DECKS["asymmetrical"], **{"octopus-mimic": 2}))
    assert state.legal_moves(0) == [DECLINE]
    with pytest.raises(core.IllegalMove, match="no card with the effect offer"):
        play(state, {"type": "copy", "effect": "offer"})
    with pytest.raises(core.IllegalMove, match="unknown effect 'mimic'; Mimic copies one of"):
        play(state, {"type": "copy", "effect": "mimic"})


def test_draw_and_discard_draws_then_must_discard():
    state = opened("crab-7", hand=("crab-3",), draws=(["crab-2", "crab-9"], None))
    assert state.view(0)["hand"] == ["crab-2", "crab-3"]           # drew the top card
    assert state.legal_moves(0) == [{"type": "discard", "card": "crab-2"},
                                    {"type": "discard", "card": "crab-3"}]
    discarded = state.view(1)["discard_size"]
    play(state, {"type": "discard", "card": "crab-2"})
    assert state.view(0)["hand"] == ["crab-3"]
    assert state.view(1)["discard_size"] == discarded + 1


def test_offer_gives_a_card_the_receiver_sees_it():
    state = opened("crab-4", hand=("crab-alpha", "octopus-9"))
    assert state.view(0)["phase"] == "offer"
    assert state.legal_moves(0) == [{"type": "give", "card": "crab-alpha"},
                                    {"type": "give", "card": "octopus-9"}]
    play(state, {"type": "give", "card": "crab-alpha"})
    assert "crab-alpha" in state.view(1)["hand"] and state.view(0)["hand"] == ["octopus-9"]


def test_reverse_makes_the_next_card_lower():
    state = opened("crab-8", other=["octopus-9", "octopus-7", "octopus-blind"])
    assert state.view(1)["lower"] is True
    assert [m["card"] for m in state.legal_moves(1) if "card" in m] == [
        "octopus-blind", "octopus-7"]


def test_start_has_no_effect_and_opens_the_round():
    state = position([["crab-alpha"], ["octopus-2"]])
    play(state, card("crab-alpha"))
    assert state.view(1)["phase"] == "turn" and state.legal_moves(1) == [card("octopus-2"), PASS]


# -- each cancellable effect, cancelled by Resist --------------------------------------

@pytest.mark.parametrize("name", ["crab-pincer", "crab-heal", "crab-search",
                                  "octopus-capture", "octopus-mimic", "crab-7", "crab-4",
                                  "crab-8"])
def test_resist_cancels_the_effect(name):
    state = opened(name, pile=["octopus-alpha"], resolve=False)
    before = state.snapshot()
    assert state.legal_moves(1) == [card("octopus-1"), DECLINE]
    play(state, card("octopus-1"))
    after = state.snapshot()
    assert state.to_move == (0,) and after["phase"] == "turn" and after["lower"] is False
    assert after["pile"] == ["octopus-alpha", name, "octopus-1"]
    assert after["seats"][0] == before["seats"][0] and after["discard"] == before["discard"]
    assert after["seats"][1]["draw_pile"] == before["seats"][1]["draw_pile"]
    assert after["seats"][1]["hand"] == ["crab-9", "octopus-6"]


# -- Mimic copying every other effect ----------------------------------------------------

def mimicked(effect_card, other=("octopus-6",), **kwargs):
    state = opened("octopus-mimic", other=[effect_card, *other], pile=["crab-alpha"],
                   **kwargs)
    effect = {"crab-pincer": "pincer", "octopus-blind": "blind", "octopus-4": "offer",
              "crab-heal": "heal", "octopus-capture": "capture", "octopus-7":
              "draw-and-discard", "octopus-8": "reverse", "crab-search": "search"}[effect_card]
    assert {"type": "copy", "effect": effect} in state.legal_moves(0)
    play(state, {"type": "copy", "effect": effect})
    return state


def test_mimic_copies_pincer():
    state = mimicked("crab-pincer")
    assert state.view(0)["phase"] == "pincer"
    assert state.view(0)["pending"] == {"card": "octopus-mimic", "effect": "pincer", "seat": 0}
    assert state.view(0)["revealed"] == ["crab-pincer", "octopus-6"]
    play(state, {"type": "pincer", "card": "crab-pincer"})
    assert state.view(1)["hand"] == ["octopus-6"] and state.to_move == (1,)


def test_mimic_copies_blind():
    state = opened("octopus-mimic", other=["octopus-blind"], pile=["crab-alpha"])
    hand = state.view(0)["seats"][0]["hand_size"]
    play(state, {"type": "copy", "effect": "blind"})
    assert state.view(0)["seats"][0]["hand_size"] == hand + 1 and state.to_move == (1,)


def test_mimic_copies_offer():
    state = mimicked("octopus-4")
    assert state.view(0)["phase"] == "offer"
    play(state, {"type": "give", "card": "crab-3"})
    assert "crab-3" in state.view(1)["hand"]


def test_mimic_copies_heal():
    state = mimicked("crab-heal")
    play(state, {"type": "discard", "card": "crab-6"})
    assert state.view(0)["seats"][0]["hand_size"] == 5 and state.view(0)["discard_size"] == 1


def test_mimic_copies_capture_taking_the_card_beneath_the_mimic():
    state = mimicked("octopus-capture")
    assert state.view(0)["phase"] == "capture"
    play(state, {"type": "capture"})
    assert state.view(0)["pile"] == ["octopus-mimic"] and "crab-alpha" in state.view(0)["hand"]


def test_mimic_copies_draw_and_discard():
    state = mimicked("octopus-7", draws=(["crab-2"], None))
    assert state.view(0)["hand"] == ["crab-2", "crab-3", "crab-6"]
    play(state, {"type": "discard", "card": "crab-2"})
    assert state.view(0)["hand"] == ["crab-3", "crab-6"] and state.to_move == (1,)


def test_mimic_copies_reverse_so_the_next_card_is_lower_than_the_mimic():
    state = mimicked("octopus-8", other=("octopus-omega", "octopus-9"))
    assert state.view(1)["lower"] is True
    assert [m["card"] for m in state.legal_moves(1) if m["type"] == "play"] == [
        "octopus-8", "octopus-9"]


def test_mimic_copies_search():
    state = mimicked("crab-search", draws=(["crab-5", "crab-10"], None))
    assert state.view(0)["phase"] == "search" and state.view(0)["draw_pile"] == [
        "crab-5", "crab-10"]
    play(state, {"type": "search", "card": "crab-10"})
    assert "crab-10" in state.view(0)["hand"]


# -- P6: every way a hand empties with an empty draw pile -------------------------------

def test_p6_by_playing_the_last_card_even_a_card_whose_effect_would_follow():
    state = position([["crab-4"], OTHER], draws=([], None))
    play(state, card("crab-4"))
    assert state.is_over and state.result()["winner"] == 0
    assert state.view(0)["pending"] is None               # the Offer is never resolved


def test_p6_by_resisting_with_the_last_card():
    state = position([["crab-7", "crab-3"], ["octopus-1"]], draws=(None, []))
    play(state, card("crab-7"))
    play(state, card("octopus-1"))
    assert state.is_over and state.result()["winner"] == 1


@pytest.mark.parametrize("effect_card", ["crab-heal", "crab-7"])
def test_p6_by_discarding_the_last_card(effect_card):
    state = opened(effect_card, hand=("crab-3",), draws=([], None))
    play(state, {"type": "discard", "card": "crab-3"})
    assert state.is_over and state.result()["winner"] == 0


def test_p6_by_giving_the_last_card_away():
    state = opened("crab-4", hand=("crab-3",), draws=([], None))
    play(state, {"type": "give", "card": "crab-3"})
    assert state.is_over and state.result()["winner"] == 0


def test_p6_by_having_the_last_card_taken_by_a_pincer():
    state = opened("crab-pincer", other=["crab-9"], draws=(None, []))
    play(state, {"type": "pincer", "card": "crab-9"})     # back to the crab pile
    assert state.is_over and state.result()["winner"] == 1


def test_p6_not_when_the_taken_card_returns_to_the_victims_own_pile():
    state = opened("crab-pincer", other=["octopus-9"], draws=(None, []))
    play(state, {"type": "pincer", "card": "octopus-9"})
    assert not state.is_over and state.view(1)["seats"][1]["draw_size"] == 1


def test_p6_mid_effect_through_a_mimic_giving_the_last_card():
    state = opened("octopus-mimic", hand=("crab-3",), other=["octopus-4"],
                   pile=["crab-alpha"], draws=([], None))
    play(state, {"type": "copy", "effect": "offer"})
    play(state, {"type": "give", "card": "crab-3"})
    assert state.is_over and state.result()["winner"] == 0
