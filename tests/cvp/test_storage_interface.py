"""Crabe vs Poulpe through the shared interface: storage round trips, damaged blobs,
impossible snapshots, malformed moves, the integer path and the C playouts."""

import pickle
import random
import zlib

import pytest
from hypothesis import given, settings, strategies as st

import core
from core.games.cvp.rules import CARD_NAMES, COPYABLE
from tests.cvp.positions import DECLINE, card, play, position, snapshot

GAME = "crabe-vs-poulpe"
ASYM = {"mode": "asymmetrical"}


def random_walk(seed, options=ASYM):
    state = core.new_game(GAME, 2, seed=seed, options=options)
    rng = random.Random(seed)
    yield state
    while not state.is_over:
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
        yield state


# -- storage ------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_bytes_and_snapshot_round_trips_at_every_step_keep_views_and_the_prng(seed):
    options = ASYM if seed % 2 else {"mode": "symmetrical"}
    for state in random_walk(seed, options):
        blob = state.to_bytes()
        back = core.from_bytes(blob)
        assert back.to_bytes() == blob and back.snapshot() == state.snapshot()
        for seat in (None, 0, 1):
            assert back.view(seat) == state.view(seat)
        assert core.from_snapshot(state.snapshot()).snapshot() == state.snapshot()
        a, b = state.clone(), back
        a.playout()
        b.playout()
        assert a.snapshot() == b.snapshot()             # the PRNG travelled too


def test_pickle_uses_the_compact_form_and_the_form_is_compact():
    state = core.new_game(GAME, 2, seed=3, options=ASYM)
    assert pickle.loads(pickle.dumps(state)).to_bytes() == state.to_bytes()
    assert len(state.to_bytes()) < 250


def reframe(payload: bytes) -> bytes:
    body = b"CG\x01\x02" + payload
    return body + zlib.crc32(body).to_bytes(4, "little")


def test_every_truncation_and_bit_flip_is_refused():
    blob = core.new_game(GAME, 2, seed=1, options=ASYM).to_bytes()
    for cut in range(len(blob)):
        with pytest.raises(core.InvalidState):
            core.from_bytes(blob[:cut])
    for i in range(len(blob)):
        for bit in range(8):
            damaged = bytearray(blob)
            damaged[i] ^= 1 << bit
            with pytest.raises(core.InvalidState):
                core.from_bytes(bytes(damaged))


def test_a_well_framed_but_impossible_position_is_refused():
    payload = bytearray(core.new_game(GAME, 2, seed=1).to_bytes()[4:-4])
    payload[17 + 36 + 5] += 1                           # seat 0 holds a third crab-5
    with pytest.raises(core.InvalidState, match="not a possible crabe-vs-poulpe position"):
        core.from_bytes(reframe(bytes(payload)))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_payloads_with_a_valid_frame_never_crash(payload):
    try:
        state = core.from_bytes(reframe(payload))
    except core.InvalidState:
        return
    state.view(None)
    state.playout(seed=1)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_mutated_real_payloads_are_accepted_only_as_playable_positions(data):
    walk = [s.clone() for s in random_walk(data.draw(st.integers(0, 40)))]
    state = walk[data.draw(st.integers(0, len(walk) - 1))]
    payload = bytearray(state.to_bytes()[4:-4])
    for _ in range(data.draw(st.integers(1, 4))):
        payload[data.draw(st.integers(0, len(payload) - 1))] = data.draw(st.integers(0, 255))
    try:
        back = core.from_bytes(reframe(bytes(payload)))
    except core.InvalidState:
        return
    for seat in (None, 0, 1):
        back.view(seat)
    back.playout(seed=2)
    assert back.is_over and back.result() is not None


@pytest.mark.parametrize("change, message", [
    (lambda s: s.update(game="chess"), "'game' is one of"),
    (lambda s: s.update(players=3), "exactly 2 players"),
    (lambda s: s.update(phase="bidding"), "phase must be one of"),
    (lambda s: s.update(mode="wild"), "mode must be one of"),
    (lambda s: s["seats"][0]["hand"].append("crab-5"), "3 crab-5 cards in play, the deck has 2"),
    (lambda s: s["seats"][0]["hand"].append("lobster"), "unknown card 'lobster'"),
    (lambda s: s["seats"][0]["draw_pile"].append("octopus-5"),
     "the crab draw pile holds octopus-5"),
    (lambda s: s.update(lower=True), "an empty round pile means the opener"),
    (lambda s: s.update(last_player=1), "null exactly when the pile is empty"),
    (lambda s: s.update(phase="over"), "a winner is named exactly when the game is over"),
    (lambda s: s.update(phase="response"), "an empty round pile"),
    (lambda s: s.update(round=0), "round must be an integer from 1"),
    (lambda s: s.update(deck={"crab-1": 2}), "the crab deck has 2 cards"),
    (lambda s: s.pop("seats"), "a snapshot is a dict with keys"),
])
def test_impossible_snapshots_are_refused(change, message):
    snap = core.new_game(GAME, 2, seed=1, options=ASYM).snapshot()
    change(snap)
    with pytest.raises(core.InvalidState, match=message):
        core.from_snapshot(snap)


@pytest.mark.parametrize("kwargs, message", [
    (dict(pile=["crab-3"], last_player=0, phase="response"), "has no effect to resist"),
    (dict(pile=["crab-7"], last_player=0, phase="capture"), "does not resolve capture"),
    (dict(pile=["octopus-capture"], last_player=0, phase="capture"), "needs a covered card"),
    (dict(pile=["crab-3"], last_player=0, lower=True), "only a resolved Reverse"),
    (dict(pile=["crab-3"], last_player=0, phase="mimic"), "needs a Mimic on top"),
    (dict(draws=([], None)), "seat 0 has no cards left, so the game should be over"),
    (dict(draws=(["crab-6"], None)), "the opener, seat 0, has no card in hand"),
    (dict(round=3), "round 3 cannot come after only 0 discarded cards"),
])
def test_impossible_decision_points_are_refused(kwargs, message):
    hands = [[] if "draws" in kwargs else ["crab-6"], ["octopus-6"]]
    with pytest.raises(core.InvalidState, match=message):
        position(hands, **kwargs)


def test_a_finished_game_round_trips_and_names_its_winner():
    state = core.new_game(GAME, 2, seed=5)
    state.playout(seed=5)
    back = core.from_snapshot(state.snapshot())
    assert back.is_over and back.result() == state.result()
    assert core.from_bytes(state.to_bytes()).result() == state.result()


# -- moves, seats and the integer path ----------------------------------------------------

@pytest.mark.parametrize("move, message", [
    ("garbage", "a move is a JSON object"),
    ({}, "unknown move type None"),
    ({"type": "resist"}, "unknown move type 'resist'; crabe-vs-poulpe moves are: play, pass"),
    ({"type": "play"}, "a 'play' move has exactly the fields type, card; got type"),
    ({"type": "pass", "card": "crab-1"}, "a 'pass' move has exactly the fields type;"),
    ({"type": "play", "card": "crab-11"}, "unknown card 'crab-11'; a card is named colour-face"),
    ({"type": "play", "card": 7}, "unknown card 7"),
    ({"type": "copy", "effect": "resist"}, "unknown effect 'resist'; Mimic copies one of"),
])
def test_malformed_moves_are_refused_with_a_precise_message_and_change_nothing(move, message):
    state = core.new_game(GAME, 2, seed=2, options={"first_player": 0})
    before = state.to_bytes()
    with pytest.raises(core.IllegalMove, match=message):
        state.apply(0, move)
    assert state.to_bytes() == before and not state.can_apply(0, move)


def test_refusals_say_why_and_what_to_do_instead():
    state = position([["crab-7", "crab-3"], ["octopus-1", "octopus-5"]])
    with pytest.raises(core.IllegalMove, match="it is seat 0's turn to play, not seat 1's"):
        state.apply(1, card("octopus-5"))
    with pytest.raises(core.IllegalMove, match=r"crab-9 is not in your hand; your hand is"
                       r" \['crab-3', 'crab-7'\]"):
        play(state, card("crab-9"))
    with pytest.raises(core.IllegalMove, match="'decline' move is not possible now: open the"
                       " round"):
        play(state, DECLINE)
    play(state, card("crab-7"))
    with pytest.raises(core.IllegalMove, match="seat 1 has a decision to make .response."):
        state.apply(0, card("crab-3"))
    with pytest.raises(core.IllegalMove, match="only a Resist card can answer"):
        play(state, card("octopus-5"))
    with pytest.raises(core.IllegalMove, match="'give' move is not possible now: answer seat"
                       " 0's crab-7"):
        play(state, {"type": "give", "card": "octopus-5"})
    play(state, DECLINE)
    with pytest.raises(core.IllegalMove, match="crab-9 is not in your hand"):
        play(state, {"type": "discard", "card": "crab-9"})


@pytest.mark.parametrize("seat", [-1, 2, "0", None, 1.0])
def test_bad_seats_are_refused(seat):
    state = core.new_game(GAME, 2, seed=2)
    with pytest.raises(core.IllegalMove, match="seat must be an integer from 0 to 1"):
        state.apply(seat, state.legal_moves(state.to_move[0])[0])
    with pytest.raises(ValueError, match="seat must be"):
        state.view(seat if seat is not None else 7)


def test_action_ids_are_fixed_and_translate_both_ways():
    state = core.new_game(GAME, 2, seed=1)
    for action in range(191):
        assert state.action_of(state.move_of(action)) == action
    assert state.move_of(0) == {"type": "play", "card": "crab-alpha"}
    assert state.move_of(36) == {"type": "pass"} and state.move_of(37) == {"type": "decline"}
    assert state.move_of(38) == {"type": "capture"}
    assert state.move_of(39 + 35) == {"type": "pincer", "card": "octopus-omega"}
    assert state.move_of(75) == {"type": "discard", "card": "crab-alpha"}
    assert state.move_of(111 + 15) == {"type": "search", "card": "crab-search"}
    assert state.move_of(147 + 18) == {"type": "give", "card": "octopus-alpha"}
    assert [state.move_of(183 + i)["effect"] for i in range(8)] == list(COPYABLE) == [
        "pincer", "blind", "offer", "heal", "capture", "draw-and-discard", "reverse", "search"]
    assert len(CARD_NAMES) == 36 and CARD_NAMES[17] == "crab-omega"
    with pytest.raises(ValueError, match="action ids of crabe-vs-poulpe are 0 to 190"):
        state.move_of(191)
    moved = state.move_of(5)
    moved["card"] = "changed"
    assert state.move_of(5) == {"type": "play", "card": "crab-3"}   # callers own their copy


def test_legal_actions_are_legal_moves_in_the_same_order_with_no_duplicates():
    for state in random_walk(4):
        for seat in (0, 1):
            actions = state.legal_actions(seat)
            assert [state.move_of(a) for a in actions] == state.legal_moves(seat)
            assert actions == sorted(set(actions))
            if seat not in state.to_move:
                assert actions == []


def test_integer_path_refuses_unknown_and_illegal_ids_like_apply():
    state = core.new_game(GAME, 2, seed=2, options={"first_player": 1})
    before = state.to_bytes()
    with pytest.raises(core.IllegalMove, match="action ids are 0 to 190"):
        state.apply_action(1, 999)
    with pytest.raises(core.IllegalMove, match="it is seat 1's turn"):
        state.apply_action(0, state.legal_actions(1)[0])
    with pytest.raises(core.IllegalMove, match="round opener must play"):
        state.apply_action(1, 36)
    assert state.to_bytes() == before


def test_the_deal_of_a_seed_is_pinned_so_every_machine_gets_the_same_game():
    state = core.new_game(GAME, 2, seed=42, options=ASYM)
    assert state.view(0)["hand"] == state.snapshot()["seats"][0]["hand"]
    snap = state.snapshot()
    assert (snap["first_player"], snap["seats"][0]["hand"], snap["seats"][1]["hand"]) == PINNED


# SplitMix64 + Lemire + Fisher-Yates (docs/rules.md): any change here breaks stored seeds.
PINNED = (0, ["crab-alpha", "crab-2", "crab-pincer", "crab-3", "crab-9"],
          ["octopus-7", "octopus-8", "octopus-9", "octopus-10", "octopus-omega"])


def test_same_seed_same_game_unseeded_games_differ_clones_are_independent():
    a, b = core.new_game(GAME, 2, seed=99), core.new_game(GAME, 2, seed=99)
    assert a.to_bytes() == b.to_bytes()
    assert len({core.new_game(GAME, 2).to_bytes() for _ in range(5)}) == 5
    copy = a.clone()
    copy.apply(copy.to_move[0], copy.legal_moves(copy.to_move[0])[0])
    assert a.to_bytes() == b.to_bytes() != copy.to_bytes()


def test_playouts_are_reproducible_with_a_seed_and_use_the_state_prng_without_one():
    state = core.new_game(GAME, 2, seed=8, options=ASYM)
    a, b, c, d = (state.clone() for _ in range(4))
    assert a.playout(seed=5) == b.playout(seed=5) and a.snapshot() == b.snapshot()
    c.playout()
    d.playout()
    assert c.snapshot() == d.snapshot() and c.is_over


def test_random_playouts_report_aggregate_statistics_in_both_modes():
    for options in (None, ASYM):
        stats = core.random_playouts(GAME, 2, 3000, seed=1, options=options)
        assert stats["games"] == 3000 and 40 < stats["mean_moves"] < stats["max_moves"] < 400
        assert sum(stats["win_share"]) == pytest.approx(1.0)
        assert all(0.4 < share < 0.6 for share in stats["win_share"])
        assert 0 < sum(stats["mean_cards_left"]) and stats["mean_rounds"] > 5
        assert 0.4 < stats["first_player_win_share"] < 0.7
    assert core.random_playouts(GAME, 2, 500, seed=1) == core.random_playouts(GAME, 2, 500,
                                                                                seed=1)
    with pytest.raises(ValueError, match="exactly 2 players"):
        core.random_playouts(GAME, 3, 10)
    with pytest.raises(ValueError, match="mode must be one of"):
        core.random_playouts(GAME, 2, 10, options={"mode": "x"})
    first = core.random_playouts(GAME, 2, 2000, seed=1, options={"first_player": 1})
    assert first["first_player_win_share"] == pytest.approx(first["win_share"][1])
