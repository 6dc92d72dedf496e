"""One test per ruling P1 to P9 (../shared/rulings.md), the decks, and the rulebook's example."""

import json

import pytest

import core
from core.games.cvp.rules import CARD_NAMES, DECKS
from tests.cvp.positions import DECLINE, PASS, card, play, position, snapshot

GAME = "crabe-vs-poulpe"


def plays(state):
    return [m["card"] for m in state.legal_moves(state.to_move[0]) if m["type"] == "play"]


# -- the rulebook's "Example of a Round" (Jeanne is seat 0, Benoit seat 1) ----------

def test_example_of_a_round_jeanne_and_benoit_move_by_move():
    jeanne = ["crab-6", "crab-4", "crab-4", "crab-alpha", "crab-omega"]
    benoit = ["octopus-8", "octopus-1", "octopus-6", "octopus-2", "octopus-3"]
    state = position([jeanne, benoit], mode="symmetrical")
    assert state.to_move == (0,) and state.view(0)["phase"] == "turn"
    assert PASS not in state.legal_moves(0)             # the opener must play
    # To start the round, Jeanne plays a 6.
    play(state, card("crab-6"))
    assert state.to_move == (1,) and state.view(1)["phase"] == "turn"
    # Benoit plays an 8 Reverse; Jeanne may resist (she has no Resist) and declines.
    play(state, card("octopus-8"))
    assert state.view(0)["phase"] == "response" and state.legal_moves(0) == [DECLINE]
    play(state, DECLINE)
    # Jeanne must play below 8: of her 4, 4, alpha, omega only the 4 Offer qualifies.
    assert state.view(0)["lower"] is True
    assert state.legal_moves(0) == [card("crab-4"), PASS]
    # She plays a 4 Offer ... but Benoit cancels it with a 1 Resist.
    play(state, card("crab-4"))
    assert state.to_move == (1,) and state.legal_moves(1) == [card("octopus-1"), DECLINE]
    play(state, card("octopus-1"))
    view = state.view(0)
    assert view["phase"] == "turn" and state.to_move == (0,)   # Resist was Benoit's turn
    assert view["pile"] == ["crab-6", "octopus-8", "crab-4", "octopus-1"]
    assert view["seats"][1]["hand_size"] == 3 and view["lower"] is False
    # Jeanne plays another 4 Offer; Benoit has nothing to cancel it with.
    play(state, card("crab-4"))
    assert state.legal_moves(1) == [DECLINE]
    play(state, DECLINE)
    # He must accept the alpha Start card from Jeanne.
    assert state.to_move == (0,) and state.view(0)["phase"] == "offer"
    assert state.legal_moves(0) == [{"type": "give", "card": "crab-alpha"},
                                    {"type": "give", "card": "crab-omega"}]
    play(state, {"type": "give", "card": "crab-alpha"})
    assert "crab-alpha" in state.view(1)["hand"]
    # Benoit plays a 6.
    play(state, card("octopus-6"))
    # Jeanne has her omega but passes, to keep it.
    assert state.legal_moves(0) == [card("crab-omega"), PASS]
    play(state, PASS)
    # Benoit wins the round; the six cards played go face down to the discard.
    view = state.view(1)
    assert view["round"] == 2 and view["pile"] == [] and view["discard_size"] == 6
    # Benoit had 3 cards (the alpha included) and refills to 5; Jeanne had 1 and draws 4.
    assert [s["hand_size"] for s in view["seats"]] == [5, 5]
    assert view["seats"][1]["draw_size"] == 24 - 5 - 2
    assert view["seats"][0]["draw_size"] == 24 - 5 - 4
    assert ["crab-alpha", "octopus-2", "octopus-3"] == [
        c for c in view["hand"] if c in ("crab-alpha", "octopus-2", "octopus-3")]
    assert "crab-omega" in state.view(0)["hand"]
    # A new round begins, and Benoit starts.
    assert state.to_move == (1,) and view["opener"] == 1 and PASS not in state.legal_moves(1)


# -- decks ----------------------------------------------------------------------------

def test_decks_symmetrical_24_each_asymmetrical_adds_three_species_cards_per_side():
    for mode, size in (("symmetrical", 24), ("asymmetrical", 27)):
        state = core.new_game(GAME, 2, seed=1, options={"mode": mode})
        deck = state.view(None)["deck"]
        for colour in ("crab", "octopus"):
            cards = {n: c for n, c in deck.items() if n.startswith(colour + "-")}
            assert sum(cards.values()) == size
            assert all(cards[f"{colour}-{v}"] == 2 for v in [*range(1, 11), "alpha", "omega"])
        assert deck == DECKS[mode]
    species = set(DECKS["asymmetrical"]) - set(DECKS["symmetrical"])
    assert species == {"crab-pincer", "crab-heal", "crab-search",
                       "octopus-blind", "octopus-capture", "octopus-mimic"}
    assert core.new_game(GAME, 2, seed=1).view(None)["mode"] == "symmetrical"  # the default


def test_decks_are_data_another_composition_is_an_option():
    deck = dict(DECKS["symmetrical"], **{"crab-2": 1, "crab-pincer": 1, "octopus-pincer": 1})
    state = core.new_game(GAME, 2, seed=3, options={"deck": deck})
    view = state.view(None)
    assert view["mode"] == "custom" and view["deck"]["octopus-pincer"] == 1
    assert view["seats"][0]["draw_size"] == 24 - 5 and view["seats"][1]["draw_size"] == 25 - 5
    labelled = core.new_game(GAME, 2, seed=3, options={"mode": "asymmetrical", "deck": deck})
    assert labelled.view(None)["mode"] == "asymmetrical"


@pytest.mark.parametrize("options, message", [
    ({"mode": "chaos"}, "mode must be one of symmetrical, asymmetrical, got 'chaos'"),
    ({"deck": []}, "deck must be a dict"),
    ({"deck": {"crab-11": 2}}, "deck: unknown card 'crab-11'; a card is named colour-face"),
    ({"deck": {"crab-1": -1}}, "copies of crab-1 must be an integer from 0 to 40, got -1"),
    ({"deck": {"crab-1": True}}, "copies of crab-1 must be an integer"),
    ({"deck": {"crab-1": 5}}, "the octopus deck has 0 cards; a deck has 5 to 40 cards"),
    ({"deck": {"crab-1": 40, "crab-2": 1, "octopus-1": 5}}, "the crab deck has 41 cards"),
    ({"first_player": 2}, "first_player must be a seat, 0 or 1, got 2"),
    ({"seats": 2}, "options are a dict with keys among"),
])
def test_decks_and_options_are_validated_with_clear_messages(options, message):
    with pytest.raises(ValueError, match=message):
        core.new_game(GAME, 2, seed=1, options=options)


@pytest.mark.parametrize("players", [0, 1, 3, 5])
def test_exactly_two_players(players):
    with pytest.raises(ValueError, match="exactly 2 players"):
        core.new_game(GAME, players)


def test_deal_each_seat_draws_five_from_its_own_colour():
    for seed in range(20):
        snap = core.new_game(GAME, 2, seed=seed, options={"mode": "asymmetrical"}).snapshot()
        for seat, colour in enumerate(("crab", "octopus")):
            cards = snap["seats"][seat]["hand"] + snap["seats"][seat]["draw_pile"]
            assert len(snap["seats"][seat]["hand"]) == 5 and len(cards) == 27
            assert all(c.startswith(colour + "-") for c in cards)


# -- P1 ordering ----------------------------------------------------------------------

def test_p1_a_card_must_be_strictly_higher_than_the_top_card_alpha_lowest_omega_highest():
    hand = ["crab-alpha", "crab-1", "crab-5", "crab-6", "crab-7", "crab-10", "crab-omega"]
    state = position([hand, ["octopus-3"]], pile=["octopus-6"], last_player=1)
    assert plays(state) == ["crab-7", "crab-10", "crab-omega"]
    with pytest.raises(core.IllegalMove, match=r"crab-6 \(value 6\) is not strictly higher"
                       r" than the top card octopus-6 \(value 6\) \(ruling P1\)"):
        play(state, card("crab-6"))
    on_ten = position([hand, ["octopus-3"]], pile=["octopus-10"], last_player=1)
    assert plays(on_ten) == ["crab-omega"]
    on_one = position([hand, ["octopus-3"]], pile=["octopus-1"], last_player=1)
    assert "crab-1" not in plays(on_one) and "crab-5" in plays(on_one)


def test_p1_the_round_opener_may_play_any_card():
    hand = ["crab-alpha", "crab-1", "crab-8", "crab-omega", "octopus-mimic"]
    state = position([hand, ["octopus-3"]])
    assert plays(state) == ["crab-alpha", "crab-1", "crab-8", "crab-omega", "octopus-mimic"]


def test_p1_after_reverse_the_next_card_must_be_lower_for_one_card_only():
    state = position([["crab-8", "crab-9"], ["octopus-3", "octopus-9", "octopus-4"]])
    play(state, card("crab-8"))
    play(state, DECLINE)
    assert state.view(1)["lower"] is True
    assert plays(state) == ["octopus-3", "octopus-4"]
    with pytest.raises(core.IllegalMove, match="after a Reverse the next card must be"
                       " strictly lower than crab-8"):
        play(state, card("octopus-9"))
    play(state, card("octopus-3"))
    assert state.view(0)["lower"] is False
    assert plays(state) == ["crab-9"]                     # higher again after one card


# -- P2 exceptions --------------------------------------------------------------------

def test_p2_alpha_only_opens_a_round_never_on_a_card_nor_after_reverse():
    state = position([["crab-alpha", "crab-2"], ["octopus-8", "octopus-5"]], opener=1)
    play(state, card("octopus-8"))
    play(state, DECLINE)
    assert plays(state) == ["crab-2"]
    with pytest.raises(core.IllegalMove, match="alpha .* only opens a round .ruling P2."):
        play(state, card("crab-alpha"))
    opening = position([["crab-alpha", "crab-2"], ["octopus-5"]])
    assert "crab-alpha" in plays(opening)


def test_p2_blind_may_be_played_on_any_card_except_omega():
    for top in ("crab-10", "crab-8", "crab-1", "crab-alpha", "crab-search"):
        state = position([["crab-3"], ["octopus-blind", "octopus-4"]], pile=[top],
                         last_player=0)
        assert "octopus-blind" in plays(state), top
    state = position([["crab-3"], ["octopus-blind"]], pile=["crab-omega"], last_player=0)
    assert state.legal_moves(1) == [PASS]
    with pytest.raises(core.IllegalMove, match="any card except an omega"):
        play(state, card("octopus-blind"))


@pytest.mark.parametrize("name, cancellable", [
    ("crab-pincer", True), ("crab-heal", True), ("crab-search", True),
    ("octopus-capture", True), ("octopus-mimic", True), ("crab-7", True), ("crab-4", True),
    ("crab-8", True), ("octopus-blind", False), ("crab-1", False), ("crab-alpha", False),
    ("crab-2", False), ("crab-10", False), ("crab-omega", False)])
def test_p2_resist_answers_exactly_the_cancellable_effect_cards(name, cancellable):
    state = position([[name, "crab-3"], ["octopus-1", "octopus-5"]])
    play(state, card(name))
    if cancellable:
        assert state.view(1)["phase"] == "response"
        assert state.legal_moves(1) == [card("octopus-1"), DECLINE]
    else:
        assert state.view(1)["phase"] != "response"


def test_p2_resist_answers_even_a_card_of_lower_value():
    state = position([["crab-search", "crab-3"], ["octopus-1", "octopus-5"]],
                     pile=["octopus-9"], last_player=1)
    play(state, card("crab-search"))
    assert card("octopus-1") in state.legal_moves(1)


def test_p2_outside_a_response_a_resist_is_an_ordinary_one_that_cancels_nothing():
    state = position([["crab-1", "crab-5"], ["octopus-4", "octopus-1"]], opener=1)
    play(state, card("octopus-4"))
    play(state, DECLINE)                                  # the Offer resolves
    play(state, {"type": "give", "card": "octopus-1"})
    assert plays(state) == ["crab-5"]                     # a 1 is not higher than a 4
    opening = position([["crab-1", "crab-5"], ["octopus-4"]])
    play(opening, card("crab-1"))
    assert opening.view(1)["phase"] == "turn"             # no effect: nothing to answer


# -- P3 response window -----------------------------------------------------------------

def test_p3_the_window_is_offered_even_to_a_player_without_resist_and_leaks_nothing():
    with_resist = position([["crab-7", "crab-3"], ["octopus-1", "octopus-5"]])
    without = position([["crab-7", "crab-3"], ["octopus-2", "octopus-5"]])
    for state in (with_resist, without):
        play(state, card("crab-7"))
        assert state.to_move == (1,) and DECLINE in state.legal_moves(1)
    assert without.legal_moves(1) == [DECLINE]
    a, b = with_resist.view(0), without.view(0)
    assert a == b and with_resist.view(None) == without.view(None)


def test_p3_resist_cancels_the_effect_and_counts_as_the_opponents_turn():
    state = position([["crab-7", "crab-3", "crab-9"], ["octopus-1", "octopus-5"]])
    before = state.view(0)["seats"]
    play(state, card("crab-7"))
    play(state, card("octopus-1"))
    view = state.view(0)
    assert state.to_move == (0,) and view["phase"] == "turn"
    assert view["pile"] == ["crab-7", "octopus-1"] and view["last_player"] == 1
    assert view["seats"][0]["draw_size"] == before[0]["draw_size"]   # no draw happened
    assert view["discard_size"] == 0 and plays(state) == ["crab-3", "crab-9"]
    play(state, PASS)                                     # the Resist was the last card
    assert state.view(None)["opener"] == 1


def test_p3_after_a_decline_the_effect_resolves_then_the_opponent_takes_a_normal_turn():
    state = position([["crab-7", "crab-3", "crab-9"], ["octopus-1", "octopus-5"]])
    play(state, card("crab-7"))
    play(state, DECLINE)
    assert state.to_move == (0,) and state.view(0)["phase"] == "discard"
    assert state.view(0)["pending"] == {"card": "crab-7", "effect": "draw-and-discard",
                                        "seat": 0}
    play(state, {"type": "discard", "card": "crab-3"})
    assert state.to_move == (1,) and state.view(1)["phase"] == "turn"
    assert state.legal_moves(1) == [PASS]                 # nothing higher than a 7 left


# -- P4 passing -----------------------------------------------------------------------

def test_p4_passing_ends_the_round_and_whoever_played_the_last_card_wins_it():
    state = position([["crab-7", "crab-3"], ["octopus-9", "octopus-5"]])
    play(state, card("crab-3"))
    play(state, card("octopus-9"))
    play(state, PASS)
    view = state.view(None)
    assert view["round"] == 2 and view["opener"] == 1 and state.to_move == (1,)


def test_p4_the_round_opener_must_play_and_always_can():
    state = position([["crab-7", "crab-3"], ["octopus-9"]])
    assert PASS not in state.legal_moves(0)
    with pytest.raises(core.IllegalMove, match="the round opener must play a card first"):
        play(state, PASS)


def test_p4_with_no_playable_card_or_no_card_at_all_the_only_move_is_to_pass():
    state = position([["crab-omega"], ["octopus-9", "octopus-5"]])
    play(state, card("crab-omega"))
    assert state.legal_moves(1) == [PASS]
    state = position([["crab-4", "crab-3"], ["octopus-9"]], draws=(None, ["octopus-5"]),
                     opener=1)
    play(state, card("octopus-9"))
    play(state, PASS)
    assert state.to_move == (1,) and state.view(1)["hand"] == ["octopus-5"]
    state = position([["crab-3", "crab-2"], ["octopus-4"]], draws=(None, ["octopus-5"]))
    play(state, card("crab-2"))
    play(state, card("octopus-4"))        # the Offer card, played with an empty hand after
    play(state, DECLINE)                  # seat 0 does not resist
    assert state.to_move == (0,)          # seat 1's hand is empty: nothing to give
    play(state, PASS)
    assert state.view(1)["hand"] == ["octopus-5"]


# -- P5 round end -----------------------------------------------------------------------

def test_p5_pile_goes_face_down_both_refill_to_five_from_their_own_pile_winner_opens():
    hand0 = ["crab-2", "octopus-3", "octopus-6", "crab-9", "crab-10", "octopus-7"]
    state = position([hand0, ["octopus-4", "crab-5"]], opener=1)
    crab_pile = state.view(0)["seats"][0]["draw_size"]
    play(state, card("octopus-4"))
    play(state, DECLINE)
    play(state, {"type": "give", "card": "crab-5"})       # seat 1 is left with nothing
    play(state, card("crab-9"))
    assert state.legal_moves(1) == [PASS]
    play(state, PASS)
    view = state.view(0)
    assert view["pile"] == [] and view["discard_size"] == 2 and state.to_move == (0,)
    assert view["seats"][0]["hand_size"] == 6              # 6 >= 5: draws nothing
    assert view["seats"][0]["draw_size"] == crab_pile
    assert view["seats"][1]["hand_size"] == 5              # refilled from the octopus pile
    assert all(c.startswith("octopus-") for c in state.view(1)["hand"])
    hidden = {key: value for key, value in state.view(1).items() if key != "deck"}
    assert "crab-9" not in json.dumps(hidden) and "discard" not in view


# -- P6 game end (every trigger is in test_effects.py) ---------------------------------

def test_p6_the_game_ends_the_instant_a_hand_and_its_draw_pile_are_empty():
    state = position([["crab-7"], ["octopus-3"]], draws=([], None))
    play(state, card("crab-7"))                           # no response window: over at once
    assert state.is_over and state.to_move == () and state.view(1)["pile"] == ["crab-7"]
    assert state.result() == {"winner": 0, "winners": [0], "cards_left": [0, 27],
                              "rounds": 1, "ranking": [
                                  {"seat": 0, "rank": 1, "cards_left": 0},
                                  {"seat": 1, "rank": 2, "cards_left": 27}]}
    with pytest.raises(core.IllegalMove, match="the game is over .seat 0 won."):
        state.apply(1, PASS)


def test_p6_an_empty_hand_with_a_draw_pile_left_is_not_the_end():
    state = position([["crab-7"], ["octopus-3"]], draws=(["crab-2"], None))
    play(state, card("crab-7"))
    play(state, DECLINE)
    assert not state.is_over and state.view(0)["seats"][0]["hand_size"] == 1  # drew the 2


# -- P7 effects (one test per effect is in test_effects.py) ---------------------------

def test_p7_a_mandatory_effect_applies_as_far_as_possible():
    state = position([["crab-7", "crab-3"], ["octopus-5"]], draws=([], None))
    play(state, card("crab-7"))
    play(state, DECLINE)                                  # nothing to draw: discard only
    assert state.legal_moves(0) == [{"type": "discard", "card": "crab-3"}]


# -- P8 hidden information --------------------------------------------------------------

def test_p8_views_show_sizes_but_not_hands_piles_discards_seed_or_prng():
    state = core.new_game(GAME, 2, seed=123456789, options={"mode": "asymmetrical"})
    for _ in range(30):
        state.apply(state.to_move[0], state.legal_moves(state.to_move[0])[-1])
    snap = state.snapshot()
    for seat in (None, 0, 1):
        view = state.view(seat)
        text = json.dumps(view)
        assert "123456789" not in text and "rng" not in text and "seed" not in text
        assert set(view) == {"game", "players", "seat", "mode", "phase", "round",
                             "first_player", "opener", "to_move", "pile", "last_player",
                             "lower", "pending", "discard_size", "seats", "hand",
                             "revealed", "draw_pile", "deck", "winner"}
        assert view["hand"] == (None if seat is None else snap["seats"][seat]["hand"])
        assert view["discard_size"] == len(snap["discard"])
        assert [s["draw_size"] for s in view["seats"]] == [
            len(s["draw_pile"]) for s in snap["seats"]]


def test_p8_logged_discards_and_searches_show_their_card_to_their_maker_only():
    state = core.new_game(GAME, 2, seed=1)
    discard = {"type": "discard", "card": "crab-3"}
    assert state.visible_move(0, discard, 0) == discard
    assert state.visible_move(0, discard, 1) == {"type": "discard", "card": None}
    assert state.visible_move(0, discard, None) == {"type": "discard", "card": None}
    search = {"type": "search", "card": "crab-9"}
    assert state.visible_move(0, search, 1) == {"type": "search", "card": None}
    give = {"type": "give", "card": "crab-alpha"}
    assert state.visible_move(0, give, 1) == give       # known to both players
    assert state.visible_move(0, give, None) == {"type": "give", "card": None}
    for public in (card("crab-3"), PASS, DECLINE, {"type": "copy", "effect": "offer"}):
        assert state.visible_move(0, public, None) == public


# -- P9 first player ------------------------------------------------------------------

def test_p9_the_first_player_is_an_option_default_random_and_public():
    for first in (0, 1):
        state = core.new_game(GAME, 2, seed=4, options={"first_player": first})
        assert state.to_move == (first,) and state.view(None)["first_player"] == first
    drawn = {core.new_game(GAME, 2, seed=s).view(None)["first_player"] for s in range(40)}
    assert drawn == {0, 1}
    state = core.new_game(GAME, 2, seed=9)
    assert state.to_move == (state.view(1)["first_player"],) == (state.view(None)["opener"],)
