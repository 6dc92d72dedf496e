"""Tests of the pure-Python reference model alone (no engine needed)."""

import itertools
import random

import pytest

from .cupcrab import (
    CARD_NAMES,
    KIND,
    CupCrabModel,
    all_cups,
    canon,
    cup_value,
    make_snapshot,
    new_deal,
    specials_per_seat,
)


def position(stacks, score_pile0, played_specials, hands, players=3):
    """Round 2 (first_player 0, so seat 1 starts), nobody has played yet this round.

    Every seat played 3 cards in round 1: ``played_specials[p]`` are its specials among them,
    the Cup cards in ``stacks`` and ``score_pile0`` (seat 0's score pile) are the rest.
    """
    pool = all_cups()
    for st in stacks:
        for c in st or []:
            if c.startswith("cup"):
                pool.remove(c)
    for c in score_pile0:
        if c.startswith("cup"):
            pool.remove(c)
    for hand in hands:
        for c in hand:
            if c.startswith("cup"):
                pool.remove(c)
    seats = []
    for p in range(players):
        specials = specials_per_seat()
        for c in played_specials[p]:
            specials.remove(c)
        hand = list(hands[p])
        for c in hand:
            if not c.startswith("cup"):
                specials.remove(c)
        n_cups = 18 - len(hand) - len(specials)
        reserve = specials + pool[:n_cups]
        del pool[:n_cups]
        seats.append({"reserve": reserve, "hand": hand,
                      "score_pile": score_pile0 if p == 0 else []})
    return make_snapshot(players, 2, 0, 0, stacks, seats)


# Example 1: stack A holds a Bottle (value 5), slot B is free, stack C has value 10, no Bottle.
EX1_STACKS = [["cup-5", "bottle"], None, ["cup-4", "cup-2", "cup-4"]]
EX1_SCORE0 = ["cup-1", "cup-2", "cup-3", "crab"]
EX1_SPECIALS = [["crab"], ["bottle"], []]

# Example 2: stacks A (value 5) and C (value 10) both hold a Bottle, slot B is free.
EX2_STACKS = [["cup-5", "bottle"], None, ["cup-4", "cup-6", "bottle"]]
EX2_SCORE0 = ["cup-1", "cup-2", "cup-3", "crab"]
EX2_SPECIALS = [["crab"], ["bottle"], ["bottle"]]

OTHER_HANDS = (["cup-1", "cup-1", "cup-1"], ["cup-2", "cup-2", "cup-2"])


def ex1(hand):
    return CupCrabModel.from_snapshot(
        position(EX1_STACKS, EX1_SCORE0, EX1_SPECIALS, [OTHER_HANDS[0], hand, OTHER_HANDS[1]]))


def ex2(hand):
    return CupCrabModel.from_snapshot(
        position(EX2_STACKS, EX2_SCORE0, EX2_SPECIALS, [OTHER_HANDS[0], hand, OTHER_HANDS[1]]))


def test_example_positions_are_consistent():
    for m in (ex1(["cup-3", "crab", "octopus"]), ex2(["cup-1", "crab", "octopus"])):
        snap = m.snapshot()
        cups = list(snap["box"]) + list(snap["discards"])
        specials = []
        for st in snap["stacks"]:
            if st:
                cups += st["cards"]
        for s in snap["seats"]:
            cups += s["reserve"] + s["hand"] + s["score_pile"]
            assert len(s["reserve"]) + len(s["hand"]) == 18
        specials = [c for c in cups if not c.startswith("cup")]
        cups = [c for c in cups if c.startswith("cup")]
        assert canon(cups) == all_cups()
        assert canon(specials) == canon(specials_per_seat() * 3)
        assert m.to_move == [1]
        assert m.view(None)["stacks"][0] == {"cards": ["cup-5", "bottle"], "value": 5, "bottle": True}
        assert m.view(None)["stacks"][1] is None


def test_example1_legal_moves():
    m = ex1(["cup-3", "crab", "octopus"])
    assert m.legal_moves(1) == [
        {"type": "play", "card": "cup-3", "stack": 2},
        {"type": "new-stack", "card": "cup-3"},
        {"type": "play", "card": "crab", "stack": 2},
        {"type": "play", "card": "octopus", "stack": 0},
    ]
    assert m.legal_moves(0) == [] and m.legal_moves(2) == []
    m = ex1(["cup-6", "crab", "bottle"])
    assert m.legal_moves(1) == [
        {"type": "play", "card": "cup-6", "stack": 2},
        {"type": "new-stack", "card": "cup-6"},
        {"type": "play", "card": "crab", "stack": 2},
        {"type": "play", "card": "bottle", "stack": 2},
        {"type": "new-stack", "card": "bottle"},
    ]


def test_example1_crab_claims_stack_c():
    m = ex1(["cup-3", "crab", "octopus"])
    m.apply(1, {"type": "play", "card": "crab", "stack": 2})
    v = m.view(1)
    assert v["stacks"][2] is None
    assert v["seats"][1]["score_pile"] == ["cup-2", "cup-4", "cup-4", "crab"]
    assert v["seats"][1]["score"] == 10 and v["seats"][1]["score_cups"] == 3
    assert v["seats"][1]["hand_size"] == 2
    assert v["hand"] == ["cup-3", "octopus"]
    assert m.to_move == [2]
    # seat 2 starts a new stack: lowest free slot is 1 (B)
    m.apply(2, {"type": "new-stack", "card": "cup-2"})
    assert m.view(None)["stacks"][1] == {"cards": ["cup-2"], "value": 2, "bottle": False}
    assert m.to_move == [0]


def test_example2_legal_moves():
    m = ex2(["cup-1", "crab", "octopus"])
    assert m.legal_moves(1) == [
        {"type": "new-stack", "card": "cup-1"},
        {"type": "play", "card": "octopus", "stack": 0},
        {"type": "play", "card": "octopus", "stack": 2},
    ]
    # the Crab cannot be played, and discarding it is not allowed (C2)
    with pytest.raises(ValueError):
        m.apply(1, {"type": "play", "card": "crab", "stack": 0})
    with pytest.raises(ValueError):
        m.apply(1, {"type": "discard", "card": "crab"})
    # octopus claims stack C (value 10)
    m.apply(1, {"type": "play", "card": "octopus", "stack": 2})
    assert m.view(None)["seats"][1]["score"] == 10
    assert m.view(None)["seats"][1]["score_pile"] == ["cup-4", "cup-6", "octopus", "bottle"]


def test_example2_only_crabs_must_discard():
    m = ex2(["crab", "crab", "crab"])
    assert m.legal_moves(1) == [{"type": "discard", "card": "crab"}]
    m.apply(1, {"type": "discard", "card": "crab"})
    v = m.view(None)
    assert v["discards"] == ["crab"]
    assert v["seats"][1]["discards"] == 1
    assert v["seats"][1]["cards_left"] == 17
    assert v["seats"][1]["crabs"] == 2


def test_no_free_slot_and_all_bottled_discards_by_kind():
    stacks = [["cup-5", "bottle"], ["cup-3", "bottle"], ["cup-4", "bottle"]]
    snap = position(stacks, ["cup-1", "cup-2", "cup-2"], [[], ["bottle"], ["bottle", "bottle"]],
                    [OTHER_HANDS[0], ["cup-10", "crab", "bottle"], OTHER_HANDS[1]])
    m = CupCrabModel.from_snapshot(snap)
    assert m.legal_moves(1) == [
        {"type": "discard", "card": "cup-10"},
        {"type": "discard", "card": "crab"},
        {"type": "discard", "card": "bottle"},
    ]


def test_illegal_forms_rejected():
    m = ex1(["cup-3", "crab", "octopus"])
    before = m.snapshot()
    bad = [
        {"type": "play", "card": "cup-3", "stack": 0},  # bottle there
        {"type": "play", "card": "cup-3", "stack": 1},  # free slot
        {"type": "play", "card": "cup-3", "stack": 5},
        {"type": "play", "card": "cup-3", "stack": True},
        {"type": "play", "card": "cup-3", "stack": 2, "x": 1},
        {"type": "new-stack", "card": "crab"},
        {"type": "new-stack", "card": "cup-4"},  # not in hand
        {"type": "discard", "card": "cup-3"},
        {"type": "select", "cards": ["cup-3", "crab", "octopus"]},
        {"type": "pass"},
        {"card": "cup-3"},
        "play",
    ]
    for mv in bad:
        with pytest.raises(ValueError):
            m.apply(1, mv)
    with pytest.raises(ValueError):
        m.apply(0, {"type": "new-stack", "card": "cup-1"})  # not seat 0's turn
    assert m.snapshot() == before


def test_initial_state_and_selection():
    m = new_deal(3, random.Random(7), first_player=2)
    assert m.to_move == [0, 1, 2]
    v = m.view(0)
    assert v["phase"] == "select" and v["round"] == 1 and v["starting_player"] == 2
    assert v["stacks"] == [None, None, None] and v["hand"] == []
    assert len(v["reserve"]) == 21
    assert m.view(None)["hand"] is None and m.view(None)["reserve"] is None
    for s in v["seats"]:
        assert (s["cards_left"], s["cups_left"], s["crabs"], s["octopuses"], s["bottles"]) == (21, 14, 3, 2, 2)
        assert s["hand_size"] == 0 and s["selected"] is False
    moves = m.legal_moves(0)
    kinds = sorted(set(v["reserve"]), key=KIND.get)
    expected = sorted({tuple(c) for c in itertools.combinations(canon(v["reserve"]), 3)},
                      key=lambda t: [KIND[c] for c in t])
    assert [tuple(mv["cards"]) for mv in moves] == expected
    assert len(moves) == len({tuple(mv["cards"]) for mv in moves})
    assert all(set(mv["cards"]) <= set(kinds) for mv in moves)
    # select in any order
    m.apply(1, {"type": "select", "cards": ["bottle", "crab", "octopus"]})
    assert m.to_move == [0, 2]
    assert m.view(1)["hand"] == ["crab", "octopus", "bottle"]
    assert m.view(0)["seats"][1]["hand_size"] == 3 and m.view(0)["seats"][1]["selected"]
    assert m.view(0)["seats"][1]["cards_left"] == 21
    with pytest.raises(ValueError):
        m.apply(1, {"type": "select", "cards": ["crab", "crab", "crab"]})
    with pytest.raises(ValueError):
        m.apply(0, {"type": "select", "cards": ["bottle", "bottle", "bottle"]})  # only 2
    m.apply(0, m.legal_moves(0)[0])
    m.apply(2, m.legal_moves(2)[-1])
    assert m.view(None)["phase"] == "play" and m.to_move == [2]
    # first card must start a stack
    assert all(mv["type"] in ("new-stack", "discard") for mv in m.legal_moves(2))


def play_random_game(players, seed):
    rng = random.Random(seed)
    m = new_deal(players, rng)
    plays = 0
    rounds_seen = set()
    while not m.is_over:
        seat = rng.choice(m.to_move)
        moves = m.legal_moves(seat)
        assert moves
        v = m.view(None)
        rounds_seen.add(v["round"])
        if v["phase"] == "select":
            assert v["round"] < 7
        else:
            plays += 1
            assert m.to_move == [(v["starting_player"] + m.plays) % players]
            assert v["starting_player"] == (v["first_player"] + v["round"] - 1) % players
        m.apply(seat, rng.choice(moves))
        # conservation of cards
        snap = m.snapshot()
        cards = list(snap["box"]) + list(snap["discards"])
        for st in snap["stacks"]:
            if st is not None:
                assert st["cards"] and st["value"] == cup_value(st["cards"])
                cards += st["cards"]
        for s in snap["seats"]:
            cards += s["reserve"] + s["hand"] + s["score_pile"]
        assert canon(cards) == canon(all_cups() + specials_per_seat() * players)
        assert CupCrabModel.from_snapshot(snap).snapshot() == snap
    return m, plays, rounds_seen


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(5))
def test_full_random_game(players, seed):
    m, plays, rounds_seen = play_random_game(players, seed * 10 + players)
    assert plays == 21 * players
    assert rounds_seen == set(range(1, 8))
    v = m.view(0)
    assert v["phase"] == "over" and v["round"] == 7 and v["to_move"] == []
    for p in range(players):
        assert m.legal_moves(p) == []
        assert v["seats"][p]["cards_left"] == 0 and v["seats"][p]["hand_size"] == 0
    assert v["hand"] == [] and v["reserve"] == []
    assert m.snapshot()["plays"] == 0  # docs: plays is 0 once the game is over
    r = m.result()
    assert r["scores"] == [s["score"] for s in v["seats"]]
    assert r["cups"] == [s["score_cups"] for s in v["seats"]]
    assert [e["rank"] for e in r["ranking"]] == sorted(e["rank"] for e in r["ranking"])
    assert r["ranking"][0]["rank"] == 1
    assert r["winners"] == sorted(e["seat"] for e in r["ranking"] if e["rank"] == 1)
    with pytest.raises(ValueError):
        m.apply(0, {"type": "discard", "card": "crab"})


def test_round7_selection_is_automatic():
    rng = random.Random(3)
    m = new_deal(2, rng, first_player=1)
    while m.round < 7:
        seat = m.to_move[0]
        m.apply(seat, rng.choice(m.legal_moves(seat)))
    v = m.view(0)
    assert v["phase"] == "play" and v["to_move"] == [(1 + 6) % 2]
    assert all(s["selected"] and s["hand_size"] == 3 for s in v["seats"])
    assert v["reserve"] == [] and len(v["hand"]) == 3


def test_result_ranking_ties():
    # game over position: seat 0 and 2 tie on (score, cups), seat 1 same score but fewer cups
    seats = []
    piles = [["cup-4", "cup-6", "crab"], ["cup-10", "crab"], ["cup-5", "cup-5", "octopus"], ["cup-1", "crab"]]
    for p in range(4):
        seats.append({"reserve": [], "hand": [], "selected": True, "score_pile": piles[p]})
    # the rest of the specials are "discarded" to keep the position consistent
    rest = specials_per_seat() * 4
    for pile in piles:
        for c in pile:
            if c in rest:
                rest.remove(c)
    snap = make_snapshot(4, 7, 0, 0, [None, None, None], seats, discards=rest, phase="over")
    m = CupCrabModel.from_snapshot(snap)
    assert m.to_move == [] and m.is_over
    assert m.result() == {
        "scores": [10, 10, 10, 1],
        "cups": [2, 1, 2, 1],
        "winners": [0, 2],
        "ranking": [
            {"seat": 0, "rank": 1, "score": 10, "cups": 2},
            {"seat": 2, "rank": 1, "score": 10, "cups": 2},
            {"seat": 1, "rank": 3, "score": 10, "cups": 1},
            {"seat": 3, "rank": 4, "score": 1, "cups": 1},
        ],
    }


def test_card_names_canonical():
    assert CARD_NAMES == ["cup-1", "cup-2", "cup-3", "cup-4", "cup-5", "cup-6", "cup-8",
                          "cup-10", "crab", "octopus", "bottle"]
    assert len(all_cups()) == 70 and cup_value(all_cups()) == 10 * 21 + 5 * 18
