"""One test per ruling C1 to C9 (../shared/rulings.md), and the rulebook's examples."""

import random

import pytest

import core
from core.games.cupcrab.rules import CARD_NAMES
from tests.cupcrab.positions import play_position


def play(state, move):
    """Applies move for the seat to play and returns the state."""
    state.apply(state.to_move[0], move)
    return state


def select_all(state, pick=0):
    """Every selecting seat picks its `pick`-th legal selection."""
    for seat in list(state.to_move):
        state.apply(seat, state.legal_moves(seat)[pick])
    return state


# -- the rulebook's two examples --------------------------------------------

EXAMPLE_1 = [["cup-5", "bottle"], None, ["cup-4", "cup-6"]]  # A: 5 + Bottle, B free, C: 10
EXAMPLE_2 = [["cup-5", "bottle"], None, ["cup-4", "cup-6", "bottle"]]


def test_example_1_crab_claims_c_octopus_claims_a_cups_and_bottle_go_on_c_or_start_b():
    state = play_position(3, ["cup-3", "crab", "octopus"], EXAMPLE_1)
    assert state.legal_moves(state.to_move[0]) == [
        {"type": "play", "card": "cup-3", "stack": 2},
        {"type": "new-stack", "card": "cup-3"},
        {"type": "play", "card": "crab", "stack": 2},
        {"type": "play", "card": "octopus", "stack": 0},
    ]
    bottle = play_position(3, ["bottle", "crab", "octopus"], EXAMPLE_1)
    assert bottle.legal_moves(bottle.to_move[0])[-2:] == [
        {"type": "play", "card": "bottle", "stack": 2},
        {"type": "new-stack", "card": "bottle"},
    ]


def test_example_1_a_stack_started_with_a_bottle_is_worth_zero_and_takes_only_an_octopus():
    state = play(play_position(2, ["bottle", "cup-1", "cup-2"], EXAMPLE_1),
                 {"type": "new-stack", "card": "bottle"})
    assert state.view(None)["stacks"][1] == {"cards": ["bottle"], "value": 0, "bottle": True}
    seat = state.to_move[0]
    cup = next(c for c in state.view(seat)["hand"] if c.startswith("cup-"))
    with pytest.raises(core.IllegalMove, match="only an octopus"):
        state.apply(seat, {"type": "play", "card": cup, "stack": 1})


def test_example_2_cups_and_bottles_only_start_b_no_crab_octopus_claims_a_or_c():
    state = play_position(3, ["cup-3", "crab", "octopus"], EXAMPLE_2)
    assert state.legal_moves(state.to_move[0]) == [
        {"type": "new-stack", "card": "cup-3"},
        {"type": "play", "card": "octopus", "stack": 0},
        {"type": "play", "card": "octopus", "stack": 2},
    ]
    bottle = play_position(3, ["bottle", "bottle", "crab"], EXAMPLE_2)
    assert bottle.legal_moves(bottle.to_move[0]) == [{"type": "new-stack", "card": "bottle"}]


# -- C1 ----------------------------------------------------------------------

@pytest.mark.parametrize("players, stacks", [(2, 3), (3, 3), (4, 3), (5, 4)])
def test_c1_two_to_five_players_with_three_stacks_or_four_with_five(players, stacks):
    state = core.new_game("cup-the-crab", players, seed=1)
    view = state.view(0)
    assert view["max_stacks"] == stacks and len(view["stacks"]) == stacks
    assert view["seats"][0]["cards_left"] == 21 and view["seats"][0]["cups_left"] == 14
    snap = state.snapshot()
    assert len(snap["box"]) == 70 - 14 * players


@pytest.mark.parametrize("players", [0, 1, 6, 9])
def test_c1_other_player_counts_are_refused(players):
    with pytest.raises(ValueError, match="2 to 5 players"):
        core.new_game("cup-the-crab", players)


def test_c1_no_new_stack_when_all_slots_are_taken():
    full = [["cup-1"], ["cup-2"], ["cup-3"]]
    state = play_position(3, ["cup-4", "cup-5", "cup-6"], full)
    moves = state.legal_moves(state.to_move[0])
    assert all(m["type"] == "play" for m in moves) and len(moves) == 9
    with pytest.raises(core.IllegalMove, match="all 3 stack slots are taken"):
        state.apply(state.to_move[0], {"type": "new-stack", "card": "cup-4"})
    five = play_position(5, ["cup-4", "cup-5", "cup-6"], full)
    assert {"type": "new-stack", "card": "cup-4"} in five.legal_moves(five.to_move[0])


# -- C2 ----------------------------------------------------------------------

def test_c2_no_discard_while_any_card_of_the_hand_can_be_placed():
    # Crab and Octopus have no target on an empty table, but the Cup can start a stack.
    state = play_position(2, ["cup-2", "crab", "octopus"], [None, None, None])
    assert state.legal_moves(state.to_move[0]) == [{"type": "new-stack", "card": "cup-2"}]
    with pytest.raises(core.IllegalMove, match="discard only when no card"):
        state.apply(state.to_move[0], {"type": "discard", "card": "crab"})


def test_c2_with_nothing_placeable_any_card_of_the_hand_is_discarded_face_up():
    state = play_position(2, ["crab", "crab", "octopus"], [None, None, None])
    seat = state.to_move[0]
    assert state.legal_moves(seat) == [{"type": "discard", "card": "crab"},
                                       {"type": "discard", "card": "octopus"}]
    before = state.view(None)
    state.apply(seat, {"type": "discard", "card": "octopus"})
    view = state.view(None)
    assert view["discards"].count("octopus") == before["discards"].count("octopus") + 1
    assert view["seats"][seat]["discards"] == before["seats"][seat]["discards"] + 1
    assert view["seats"][seat]["octopuses"] == 1 and view["stacks"] == before["stacks"]


# -- C3 ----------------------------------------------------------------------

def test_c3_crab_claims_any_stack_without_a_bottle_octopus_only_stacks_with_one():
    stacks = [["cup-1", "cup-2"], ["cup-10", "bottle"], ["cup-8"]]
    state = play_position(2, ["crab", "octopus", "crab"], stacks)
    assert state.legal_moves(state.to_move[0]) == [
        {"type": "play", "card": "crab", "stack": 0},
        {"type": "play", "card": "crab", "stack": 2},
        {"type": "play", "card": "octopus", "stack": 1},
    ]


def test_c3_a_bottle_goes_on_a_stack_without_one_and_then_only_an_octopus_may_follow():
    state = play_position(2, ["bottle", "cup-1", "crab"], [["cup-6"], None, None])
    play(state, {"type": "play", "card": "bottle", "stack": 0})
    assert state.view(None)["stacks"][0] == {"cards": ["cup-6", "bottle"], "value": 6,
                                             "bottle": True}
    other = state.to_move[0]
    assert all(m.get("stack") != 0 for m in state.legal_moves(other)
               if m["card"] != "octopus")


# -- C4 ----------------------------------------------------------------------

def test_c4_a_claim_takes_the_stack_and_the_claiming_card_and_frees_the_slot():
    state = play_position(2, ["octopus", "cup-1", "cup-2"], [["cup-10", "cup-8", "bottle"]])
    seat = state.to_move[0]
    play(state, {"type": "play", "card": "octopus", "stack": 0})
    view = state.view(None)
    assert view["stacks"][0] is None
    assert view["seats"][seat]["score_pile"] == ["cup-8", "cup-10", "octopus", "bottle"]
    assert view["seats"][seat]["score"] == 18 and view["seats"][seat]["score_cups"] == 2


def test_c4_only_cup_values_score():
    state = play_position(2, ["crab", "cup-1", "cup-2"], [["cup-3"]])
    seat = state.to_move[0]
    play(state, {"type": "play", "card": "crab", "stack": 0})
    assert state.view(None)["seats"][seat]["score"] == 3


# -- C5 ----------------------------------------------------------------------

def test_c5_every_seat_selects_three_cards_secretly_before_play_starts():
    state = core.new_game("cup-the-crab", 3, seed=5, options={"first_player": 1})
    assert state.to_move == (0, 1, 2)
    state.apply(2, state.legal_moves(2)[0])
    assert state.to_move == (0, 1)
    assert state.view(0)["seats"][2]["selected"] is True
    assert state.view(0)["phase"] == "select"
    with pytest.raises(core.IllegalMove, match="already selected"):
        state.apply(2, state.legal_moves(0)[0])
    select_all(state)
    assert state.view(0)["phase"] == "play" and state.to_move == (1,)


def test_c5_selections_are_multisets_listed_once_in_any_order_accepted():
    state = core.new_game("cup-the-crab", 2, seed=3)
    moves = state.legal_moves(0)
    keys = [tuple(m["cards"]) for m in moves]
    assert len(keys) == len(set(keys)) and keys == sorted(keys, key=lambda k: [
        CARD_NAMES.index(c) for c in k])
    reserve = state.view(0)["reserve"]
    assert {"type": "select", "cards": ["crab", "crab", "crab"]} in moves
    triple = ["bottle", reserve[0], "crab"]
    state.apply(0, {"type": "select", "cards": triple})
    assert sorted(state.view(0)["hand"]) == sorted(triple)


def test_c5_a_seat_cannot_select_cards_it_does_not_have():
    state = core.new_game("cup-the-crab", 2, seed=3)
    with pytest.raises(core.IllegalMove, match="cannot select"):
        state.apply(0, {"type": "select", "cards": ["bottle", "bottle", "bottle"]})


def test_c5_round_seven_selection_is_forced_and_applied_by_the_engine():
    state = core.new_game("cup-the-crab", 2, seed=9)
    rng = random.Random(9)
    while state.view(None)["round"] < 7:
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    view = state.view(0)
    assert view["phase"] == "play" and view["reserve"] == [] and len(view["hand"]) == 3
    assert all(m["type"] != "select" for m in state.legal_moves(state.to_move[0]))


# -- C6 ----------------------------------------------------------------------

def test_c6_play_goes_clockwise_from_the_starting_player_and_the_start_passes_on():
    state = core.new_game("cup-the-crab", 4, seed=2, options={"first_player": 3})
    order = []
    rng = random.Random(2)
    while state.view(None)["round"] <= 2 and not state.is_over:
        if state.view(None)["phase"] == "play":
            order.append(state.to_move[0])
            play(state, rng.choice(state.legal_moves(state.to_move[0])))
        else:
            select_all(state)
        if len(order) == 24:
            break
    assert order == [3, 0, 1, 2] * 3 + [0, 1, 2, 3] * 3


def test_c6_the_first_starting_player_is_random_by_default_and_public():
    firsts = {core.new_game("cup-the-crab", 4, seed=s).view(None)["first_player"]
              for s in range(40)}
    assert firsts == {0, 1, 2, 3}


def test_c6_first_player_option_is_checked():
    with pytest.raises(ValueError, match="first_player must be a seat from 0 to 2"):
        core.new_game("cup-the-crab", 3, options={"first_player": 3})
    with pytest.raises(ValueError, match="keys among"):
        core.new_game("cup-the-crab", 3, options={"colour": "red"})


# -- C7 ----------------------------------------------------------------------

def test_c7_stacks_stay_between_rounds():
    state = select_all(core.new_game("cup-the-crab", 2, seed=4))
    while state.view(None)["round"] == 1:
        moves = state.legal_moves(state.to_move[0])
        play(state, next((m for m in moves if m["card"].startswith("cup-")), moves[0]))
    stacks = state.view(None)["stacks"]
    assert any(stacks)
    select_all(state)
    assert state.view(None)["phase"] == "play" and state.view(None)["stacks"] == stacks


def test_c7_cards_left_on_the_table_at_the_end_score_for_nobody():
    for seed in range(20):
        state = core.new_game("cup-the-crab", 3, seed=seed)
        state.playout(seed=seed)
        view = state.view(None)
        on_table = sum(s["value"] for s in view["stacks"] if s)
        claimed = sum(s["score"] for s in view["seats"])
        discarded = sum(int(c[4:]) for c in view["discards"] if c.startswith("cup-"))
        box = sum(int(c[4:]) for c in state.snapshot()["box"])
        assert claimed + on_table + discarded + box == 10 * 21 + 5 * 18
        assert state.result()["scores"] == [s["score"] for s in view["seats"]]


# -- C8 ----------------------------------------------------------------------

def test_c8_a_seat_sees_its_own_cards_and_only_counts_of_the_others():
    state = core.new_game("cup-the-crab", 3, seed=11)
    state.apply(1, state.legal_moves(1)[0])
    view = state.view(0)
    assert len(view["reserve"]) == 21 and view["hand"] == []
    others = view["seats"][1]
    assert others["cards_left"] == 21 and others["hand_size"] == 3 and others["selected"]
    spectator = state.view(None)
    assert spectator["hand"] is None and spectator["reserve"] is None
    text = repr(state.view(0)) + repr(spectator)
    assert "seed" not in text and "rng" not in text and "box" not in text


def test_c8_other_seats_selection_does_not_change_anyone_elses_view():
    base = core.new_game("cup-the-crab", 3, seed=12)
    a, b = base.clone(), base.clone()
    a.apply(1, a.legal_moves(1)[0])
    b.apply(1, b.legal_moves(1)[-1])
    for seat in (None, 0, 2):
        assert a.view(seat) == b.view(seat)
    assert a.view(1) != b.view(1)


# -- C9 ----------------------------------------------------------------------

def finished(scores_and_cups):
    """A finished 3-player game whose score piles give these (score, cups) pairs."""
    import json
    state = core.new_game("cup-the-crab", 3, seed=1)
    state.playout(seed=1)
    snap = json.loads(json.dumps(state.snapshot()))
    pool = [c for s in snap["seats"] for c in s["score_pile"] if c.startswith("cup-")]
    pool += [c for s in snap["stacks"] if s for c in s["cards"] if c.startswith("cup-")]
    pool += [c for c in snap["discards"] if c.startswith("cup-")]
    pool += snap["box"]
    for seat in snap["seats"]:
        seat["score_pile"] = [c for c in seat["score_pile"] if not c.startswith("cup-")]
    for seat, (score, cups) in enumerate(scores_and_cups):
        for card in _cards_for(score, cups, pool):
            pool.remove(card)
            snap["seats"][seat]["score_pile"].append(card)
    snap["box"], rest = pool[:28], pool[28:]
    others = [c for s in snap["stacks"] if s for c in s["cards"] if not c.startswith("cup-")]
    snap["stacks"] = [{"cards": rest}, None, None] if rest else [None] * 3
    snap["discards"] = [c for c in snap["discards"] if not c.startswith("cup-")] + others
    snap["seats"][0]["discards"] = len(snap["discards"])
    for seat in snap["seats"][1:]:
        seat["discards"] = 0
    return core.from_snapshot(snap)


def _cards_for(score, cups, pool):
    """`cups` Cup cards from pool adding up to `score` (small search)."""
    values = sorted({int(c[4:]) for c in pool}, reverse=True)

    def search(left, n):
        if n == 0:
            return [] if left == 0 else None
        for v in values:
            if v <= left and pool.count(f"cup-{v}") >= 1:
                rest = search(left - v, n - 1)
                if rest is not None:
                    return [f"cup-{v}"] + rest
        return None
    return search(score, cups)


def test_c9_most_points_wins():
    result = finished([(30, 5), (40, 9), (20, 4)]).result()
    assert result["winners"] == [1]
    assert [r["seat"] for r in result["ranking"]] == [1, 0, 2]


def test_c9_tied_points_go_to_the_most_cup_cards():
    result = finished([(30, 5), (30, 7), (20, 4)]).result()
    assert result["winners"] == [1]
    assert [(r["seat"], r["rank"]) for r in result["ranking"]] == [(1, 1), (0, 2), (2, 3)]


def test_c9_still_tied_players_share_the_victory():
    result = finished([(30, 6), (30, 6), (20, 4)]).result()
    assert result["winners"] == [0, 1]
    assert [(r["seat"], r["rank"]) for r in result["ranking"]] == [(0, 1), (1, 1), (2, 3)]


def test_c9_the_game_ends_after_seven_rounds_of_three_cards_each():
    state = core.new_game("cup-the-crab", 4, seed=21)
    plays = 0
    rng = random.Random(0)
    while not state.is_over:
        seat = state.to_move[0]
        move = rng.choice(state.legal_moves(seat))
        plays += move["type"] != "select"
        state.apply(seat, move)
    assert plays == 21 * 4 and state.view(None)["round"] == 7
    assert state.to_move == () and state.result() is not None
    with pytest.raises(core.IllegalMove, match="game is over"):
        state.apply(0, {"type": "discard", "card": "crab"})


def test_c8_logged_selections_stay_secret_from_others_until_the_game_is_over():
    state = core.new_game("cup-the-crab", 3, seed=12)
    move = state.legal_moves(1)[0]
    state.apply(1, move)
    assert state.visible_move(1, move, 1) == move
    for viewer in (0, 2, None):
        assert state.visible_move(1, move, viewer) == {"type": "select", "cards": None}
    play = {"type": "new-stack", "card": "cup-1"}
    assert state.visible_move(0, play, None) == play
    state.playout(seed=1)
    assert state.visible_move(1, move, None) == move
