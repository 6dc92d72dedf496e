"""Stored states: round trips at every step, and damaged or foreign blobs refused cleanly."""

import pickle
import random
import zlib

import pytest
from hypothesis import given, settings, strategies as st

import core

GAME = "cup-the-crab"


def random_walk(players, seed):
    """Yields the state after every move of a seeded random game."""
    state = core.new_game(GAME, players, seed=seed)
    rng = random.Random(seed)
    yield state
    while not state.is_over:
        seat = rng.choice(state.to_move)
        state.apply(seat, rng.choice(state.legal_moves(seat)))
        yield state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bytes_round_trip_at_every_step_keeps_views_snapshot_and_prng(players):
    for state in random_walk(players, seed=players):
        blob = state.to_bytes()
        back = core.from_bytes(blob)
        assert back.to_bytes() == blob
        assert back.snapshot() == state.snapshot()
        for seat in [None, *range(players)]:
            assert back.view(seat) == state.view(seat)
        a, b = state.clone(), back
        a.playout()
        b.playout()
        assert a.snapshot() == b.snapshot()  # the PRNG state travelled too


def test_snapshot_round_trip_at_every_step():
    for state in random_walk(3, seed=7):
        assert core.from_snapshot(state.snapshot()).snapshot() == state.snapshot()


def test_pickle_uses_the_compact_form():
    state = core.new_game(GAME, 4, seed=3)
    assert pickle.loads(pickle.dumps(state)).to_bytes() == state.to_bytes()


def test_stored_form_is_compact():
    assert len(core.new_game(GAME, 5, seed=3).to_bytes()) < 250


def reframe(payload: bytes, header=b"CG\x01\x01") -> bytes:
    body = header + payload
    return body + zlib.crc32(body).to_bytes(4, "little")


@pytest.mark.parametrize("blob, message", [
    (b"", "not a stored game state"),
    (b"\x00" * 5, "not a stored game state"),
    (b"not a game", "not a stored game state"),
    ("CG", "a stored state is bytes"),
    (reframe(b"", b"CG\x09\x01"), "format version 9; this build reads 1"),
    (reframe(b"", b"CG\x01\x07"), "unknown game"),
    (reframe(b"\x02" * 4), "truncated or damaged"),
])
def test_foreign_blobs_are_refused_with_a_clear_error(blob, message):
    with pytest.raises(core.InvalidState, match=message):
        core.from_bytes(blob)


def test_every_truncation_and_bit_flip_is_refused():
    blob = core.new_game(GAME, 3, seed=1).to_bytes()
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
    payload[13] = 30  # seat 0 holds thirty cup-1 cards
    with pytest.raises(core.InvalidState, match="not a possible cup-the-crab position"):
        core.from_bytes(reframe(bytes(payload)))


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=400))
def test_arbitrary_payloads_with_a_valid_frame_never_crash(payload):
    try:
        state = core.from_bytes(reframe(payload))
    except core.InvalidState:
        return
    state.view(None)  # whatever is accepted is a usable position
    state.playout(seed=1)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_mutated_real_payloads_are_accepted_only_as_possible_positions(data):
    walk = list(random_walk(2, seed=data.draw(st.integers(0, 50))))
    state = walk[data.draw(st.integers(0, len(walk) - 1))]
    payload = bytearray(state.to_bytes()[4:-4])
    for _ in range(data.draw(st.integers(1, 4))):
        payload[data.draw(st.integers(0, len(payload) - 1))] = data.draw(st.integers(0, 255))
    try:
        back = core.from_bytes(reframe(bytes(payload)))
    except core.InvalidState:
        return
    back.playout(seed=2)
    assert back.is_over and back.result() is not None


@pytest.mark.parametrize("change, message", [
    (lambda s: s.update(game="chess"), "'game' is one of cup-the-crab"),
    (lambda s: s.update(players=7), "players must be an integer from 0 to 5"),
    (lambda s: s.update(phase="bidding"), "phase must be one of"),
    (lambda s: s["seats"][0]["reserve"].append("cup-1"), "seat 0 holds 22 cards"),
    (lambda s: s["seats"][0]["reserve"].append("lobster"), "unknown card 'lobster'"),
    (lambda s: s["box"].pop(), "cup"),
    (lambda s: s.update(stacks=[{"cards": ["crab"]}, None, None]), "stack 0 holds a crab"),
    (lambda s: s.pop("seats"), "a snapshot is a dict with keys"),
])
def test_impossible_snapshots_are_refused(change, message):
    snap = core.new_game(GAME, 2, seed=1).snapshot()
    change(snap)
    with pytest.raises(core.InvalidState, match=message):
        core.from_snapshot(snap)


def all_selected_in_the_selection_phase(players=3):
    """A snapshot of round 1 in the selection phase in which every seat has selected."""
    snap = core.new_game(GAME, players, seed=1).snapshot()
    for seat in snap["seats"]:
        seat["hand"], seat["reserve"] = seat["reserve"][:3], seat["reserve"][3:]
        seat["selected"] = True
    return snap


def test_a_selection_that_every_seat_has_made_is_refused_as_a_snapshot():
    with pytest.raises(core.InvalidState, match="every seat has selected"):
        core.from_snapshot(all_selected_in_the_selection_phase())


def test_a_selection_that_every_seat_has_made_is_refused_as_bytes():
    state = core.new_game(GAME, 3, seed=1)
    for seat in (0, 1):
        state.apply(seat, state.legal_moves(seat)[0])
    payload = bytearray(state.to_bytes()[4:-4])
    last = 13 + 2 * (3 * 11 + 2)                      # seat 2: reserve, hand, score pile
    kind = next(k for k in range(11) if payload[last + k] >= 3)
    payload[last + kind] -= 3                         # selects three of one kind ...
    payload[last + 11 + kind] += 3
    payload[last + 33] = 1                            # ... and is marked as selected
    assert payload[1] == 0                            # still the selection phase
    with pytest.raises(core.InvalidState, match="every seat has selected"):
        core.from_bytes(reframe(bytes(payload)))


def test_a_selected_flag_other_than_0_or_1_is_refused():
    payload = bytearray(core.new_game(GAME, 2, seed=1).to_bytes()[4:-4])
    payload[13 + 33] = 2
    with pytest.raises(core.InvalidState, match="selected flag"):
        core.from_bytes(reframe(bytes(payload)))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_position_of_a_real_game_gives_a_seat_a_move_or_is_over(players):
    for state in random_walk(players, seed=players + 10):
        back = core.from_bytes(state.to_bytes())
        assert back.is_over or any(back.legal_actions(seat) for seat in back.to_move)
