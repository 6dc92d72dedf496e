"""Invariants over thousands of seeded random games in both modes, checked after every move:
every card is in exactly one place, no view shows a card its seat has not seen, views
do not depend on hidden cards, and games end (the longest game is reported)."""

import json
import random
from collections import Counter

import pytest

import core
from core.games.cvp import rules as cvp_rules
from core.games.cvp.rules import DECKS

GAME = "crabe-vs-poulpe"
GAMES_PER_MODE = 1500          # 3,000 games in all
LONGEST = {}


def every_card(snap):
    places = [snap["pile"], snap["discard"]]
    for seat in snap["seats"]:
        places += [seat["hand"], seat["draw_pile"]]
    return Counter(card for place in places for card in place)


def shown_cards(view):
    """Every card name a view shows, except the public deck composition."""
    out = list(view["pile"]) + list(view["hand"] or []) + list(view["revealed"] or [])
    out += list(view["draw_pile"] or [])
    if view["pending"]:
        out.append(view["pending"]["card"])
    return out


def check_views(state, snap, seen):
    """Each seat's view shows only cards it has seen; hidden zones appear only when allowed."""
    deciding = state.to_move[0] if state.to_move else None
    phase = snap["phase"]
    for seat in (0, 1):
        seen[seat].update(snap["pile"])
        seen[seat].update(snap["seats"][seat]["hand"])
        if seat == deciding and phase in ("pincer", "mimic"):
            seen[seat].update(snap["seats"][1 - seat]["hand"])
        if seat == deciding and phase == "search":
            seen[seat].update(snap["seats"][seat]["draw_pile"])
        view = state.view(seat)
        assert set(shown_cards(view)) <= seen[seat], (seat, set(shown_cards(view)) - seen[seat])
        assert view["hand"] == snap["seats"][seat]["hand"] and view["pile"] == snap["pile"]
        if view["revealed"] is not None:
            assert seat == deciding and phase in ("pincer", "mimic")
            assert view["revealed"] == snap["seats"][1 - seat]["hand"]
        if view["draw_pile"] is not None:
            assert seat == deciding and phase == "search"
            assert sorted(view["draw_pile"]) == sorted(snap["seats"][seat]["draw_pile"])
    spectator = state.view(None)
    assert spectator["hand"] is spectator["revealed"] is spectator["draw_pile"] is None
    assert set(shown_cards(spectator)) <= set(snap["pile"]) | {c for c in seen["pile"]}


def play_random_game(mode, seed, check=True):
    options = {"mode": mode}
    state = core.new_game(GAME, 2, seed=seed, options=options)
    rng = random.Random(seed)
    deck = Counter(DECKS[mode])
    seen = {0: set(), 1: set(), "pile": set()}
    moves = 0
    while not state.is_over:
        seat = state.to_move[0]
        actions = state.legal_actions(seat)
        assert actions, f"seed {seed}: seat {seat} to move without a legal move"
        state.apply_action(seat, rng.choice(actions))
        moves += 1
        assert moves < 2000, f"seed {seed}: the game does not end"
        if check:
            snap = state.snapshot()
            seen["pile"].update(snap["pile"])
            assert every_card(snap) == deck
            check_views(state, snap, seen)
    return state, moves


@pytest.mark.parametrize("mode", ["symmetrical", "asymmetrical"])
def test_random_games_keep_every_card_in_one_place_and_show_no_unseen_card(mode):
    longest = 0
    for seed in range(GAMES_PER_MODE):
        state, moves = play_random_game(mode, seed)
        longest = max(longest, moves)
        result = state.result()
        snap = state.snapshot()
        winner = result["winner"]
        assert snap["seats"][winner]["hand"] == [] == snap["seats"][winner]["draw_pile"]
        loser = snap["seats"][1 - winner]
        assert result["cards_left"][1 - winner] == len(loser["hand"]) + len(loser["draw_pile"]) > 0
    LONGEST[mode] = longest
    print(f"\n{mode}: longest of {GAMES_PER_MODE} random games: {longest} moves")
    assert longest < 400


@pytest.mark.parametrize("mode", ["symmetrical", "asymmetrical"])
def test_every_decision_point_is_reached_by_random_play(mode):
    phases = Counter()
    for seed in range(200):
        state = core.new_game(GAME, 2, seed=seed, options={"mode": mode})
        rng = random.Random(seed)
        while not state.is_over:
            phases[state.view(None)["phase"]] += 1
            seat = state.to_move[0]
            state.apply_action(seat, rng.choice(state.legal_actions(seat)))
    expected = {"turn", "response", "discard", "offer"}
    if mode == "asymmetrical":
        expected |= {"pincer", "heal", "search", "capture", "mimic"}
    assert expected <= set(phases), phases


def hidden_variant(snap, viewer, deciding, rng):
    """The snapshot with cards the viewer cannot know moved around (a possible position).

    deciding: the viewer is the seat to move, so it sees the opponent's hand during a
    Pincer or Mimic choice and its own draw pile during a Search.
    """
    snap = json.loads(json.dumps(snap))
    for seat in snap["seats"]:
        rng.shuffle(seat["draw_pile"])                  # pile order is hidden from all
    discard = snap["discard"]
    revealed = deciding and snap["phase"] in ("pincer", "mimic")
    if viewer is not None and not revealed:
        other = snap["seats"][1 - viewer]["hand"]
        if other and discard:                           # swap an opponent card and a discard
            i, j = rng.randrange(len(other)), rng.randrange(len(discard))
            other[i], discard[j] = discard[j], other[i]
    for number, (colour, seat) in enumerate(zip(("crab", "octopus"), snap["seats"])):
        if deciding and snap["phase"] == "search" and number == viewer:
            continue                                    # the searcher sees this pile
        pile = seat["draw_pile"]
        same = [j for j, c in enumerate(discard) if c.startswith(colour)]
        if pile and same:
            i, j = rng.randrange(len(pile)), rng.choice(same)
            pile[i], discard[j] = discard[j], pile[i]
    discard.sort(key=cvp_rules.CARD_NAMES.index)
    for seat in snap["seats"]:
        seat["hand"].sort(key=cvp_rules.CARD_NAMES.index)
    return snap


@pytest.mark.parametrize("mode", ["symmetrical", "asymmetrical"])
def test_views_do_not_depend_on_the_cards_their_seat_cannot_see(mode):
    rng = random.Random(mode)
    checked = 0
    for seed in range(150):
        state = core.new_game(GAME, 2, seed=seed, options={"mode": mode})
        while not state.is_over:
            snap = state.snapshot()
            for viewer in (0, 1, None):
                deciding = viewer == state.to_move[0]
                variant = core.from_snapshot(hidden_variant(snap, viewer, deciding, rng))
                if variant.snapshot() != snap:
                    checked += 1
                assert variant.view(viewer) == state.view(viewer), (seed, viewer, snap["phase"])
                if viewer is not None:
                    assert variant.legal_moves(viewer) == state.legal_moves(viewer)
            seat = state.to_move[0]
            state.apply_action(seat, rng.choice(state.legal_actions(seat)))
    assert checked > 10_000


@pytest.mark.parametrize("mode", ["symmetrical", "asymmetrical"])
def test_c_playouts_end_and_keep_the_same_invariants(mode):
    for seed in range(1000):
        state = core.new_game(GAME, 2, seed=seed, options={"mode": mode})
        moves = state.playout(seed=seed)
        assert state.is_over and 0 < moves < 400
        assert every_card(state.snapshot()) == Counter(DECKS[mode])
    stats = cvp_rules.random_playouts(2, 100_000, 7, {"mode": mode})
    print(f"\n{mode}: longest of 100,000 C playouts: {stats['max_moves']} moves,"
          f" mean {stats['mean_moves']:.1f}, mean rounds {stats['mean_rounds']:.1f}")
    assert stats["max_moves"] < 400 and sum(stats["win_share"]) == pytest.approx(1)
